"""The language strings are shown in now: one per process (the command, the terminal app) or
per request and connection (the server), held in a context variable.

Mark a string with :func:`_` (or :func:`ngettext`) where it is shown; :func:`N_` marks one kept
as data and translated later (``_(name)``). Placeholders are ``{name}``, filled with
``str.format`` after translating, the same in Python and in the browser.

>>> with using("fr"):
...     _("No Hearts")
'Pas de cœurs'
>>> _("No Hearts")
'No Hearts'
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from salad.locale.catalogs import translations
from salad.locale.languages import SOURCE, Language, language

_now: ContextVar[tuple[Language, gettext.NullTranslations]] = ContextVar(
    "salad_language", default=(SOURCE, gettext.NullTranslations())
)


def use(code: str) -> None:
    """Show strings in the language ``code`` from now on (in this context)."""
    _now.set((language(code), translations(code)))


@contextmanager
def using(code: str) -> Iterator[Language]:
    """Strings in the language ``code`` inside the block."""
    token = _now.set((language(code), translations(code)))
    try:
        yield _now.get()[0]
    finally:
        _now.reset(token)


def current() -> Language:
    """The language strings are shown in now."""
    return _now.get()[0]


def _(message: str) -> str:
    """``message`` in the current language (itself, untranslated)."""
    return _now.get()[1].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language."""
    return _now.get()[1].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English words elsewhere by
    ``context`` (a hand of cards and a hand of a game: ``pgettext("cards", "Hand")``)."""
    return _now.get()[1].pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it (kept as data, translated
    where shown)."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` for the catalog in ``context`` without translating it (a key's label,
    ``NP_("key", "Save")``, shorter than the same words elsewhere), translated where shown with
    ``pgettext(context, message)``."""
    return message
