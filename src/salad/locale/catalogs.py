"""The catalogs: ``po/salad.pot`` (every string to translate, made by ``make i18n``) and one
``po/<code>.po`` per language, read with Babel and compiled in memory when first asked for.

The Python side reads them through :func:`translations` (gettext), the browser through
:func:`browser_catalog`: one source for both.
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from io import BytesIO
from math import ceil
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from salad.locale.languages import PSEUDO, SOURCE, Language, language

PO_DIR = Path(__file__).resolve().parent / "po"
TEMPLATE = PO_DIR / "salad.pot"
WEB = "web/"
"""Where the browser's strings are (a location's start): those go into its catalog."""
RULESET_WORDS = "ruleset-words"
"""The location of the rulesets' words (read from the presets' data, not marked in a source):
shown in the browser and by Python alike."""


def catalog_path(lang: Language) -> Path:
    """The catalog file of ``lang``: ``po/fr.po``."""
    return PO_DIR / f"{lang.code}.po"


def read(path: Path, lang: Language | None = None) -> Catalog:
    """The catalog (or template) at ``path``."""
    with path.open("rb") as f:
        return read_po(f, locale=lang.locale if lang is not None else None)


@cache
def catalog(code: str) -> Catalog:
    """The catalog of the language ``code``: its file's, the pseudo-locale's made from the
    template, or an empty one for the source language."""
    lang = language(code)
    if lang == SOURCE:
        return Catalog(locale=SOURCE.locale)
    if lang == PSEUDO:
        return pseudo_catalog(read(TEMPLATE))
    return read(catalog_path(lang), lang)


@cache
def compiled(code: str) -> bytes:
    """The catalog of ``code`` compiled (a ``.mo`` file's bytes), fuzzy entries left out:
    English shows until they are checked."""
    data = BytesIO()
    write_mo(data, catalog(code), use_fuzzy=False)
    return data.getvalue()


@cache
def translations(code: str) -> gettext.NullTranslations:
    """The gettext translations of ``code``, from its catalog :func:`compiled`."""
    if language(code) == SOURCE:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(BytesIO(compiled(code)))


def is_web(message: Message, files: frozenset[str] | None = None) -> bool:
    """Whether the browser shows ``message``: in one of ``files`` (``web/static/js/x.js``;
    ``None``: any of the web client's) or a ruleset's word."""
    return any(
        path == RULESET_WORDS or (path.startswith(WEB) if files is None else path in files)
        for path, _line in message.locations
    )


@cache
def browser_catalog(code: str, files: frozenset[str] | None = None) -> dict[str, Any]:
    """What the browser's ``i18n.js`` reads: the language's tag and the translations of the
    web client's strings (those of ``files``, the modules a page loads; ``None``: all), a
    plural's forms by CLDR category (``Intl.PluralRules``' names).

    >>> browser_catalog("en")
    {'lang': 'en', 'messages': {}}
    """
    lang = language(code)
    tags = plural_tags(lang)
    messages: dict[str, str | dict[str, str]] = {}
    for message in catalog(code):
        if not message.id or message.fuzzy or message.context or not is_web(message, files):
            continue
        if isinstance(message.id, tuple):
            forms = message.string if isinstance(message.string, tuple) else ()
            if forms and all(forms):
                messages[message.id[0]] = dict(zip(tags, forms, strict=False))
        elif isinstance(message.string, str) and message.string:
            messages[str(message.id)] = message.string
    return {"lang": lang.tag, "messages": messages}


PLURAL_ORDER = ("zero", "one", "two", "few", "many", "other")
"""gettext's order of a plural's forms: CLDR's categories, those a language has, in this order
(as Babel writes a catalog's ``Plural-Forms``)."""


def plural_tags(lang: Language) -> list[str]:
    """The CLDR plural categories of ``lang``, in the order of its catalog's forms.

    >>> plural_tags(language("fr"))
    ['one', 'many', 'other']
    """
    if lang == PSEUDO:
        lang = SOURCE
    tags = Locale.parse(lang.locale).plural_form.tags | {"other"}
    return [tag for tag in PLURAL_ORDER if tag in tags]


PROTECTED = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sd]|%[sd]|<[^>]*>|&[a-z]+;|\\[nt]")
"""What a pseudo-translation keeps as it is: placeholders, markup and entities."""

ACCENTED = str.maketrans(
    "abcdeghiklnorstuwyzABCDEGHIKLNORSTUWYZ",
    "àƀçđéĝĥîķļñöŕšţûŵýžÀƁÇĐÉĜĤÎĶĻÑÖŔŠŢÛŴÝŽ",
)


def pseudo(text: str) -> str:
    """The pseudo-locale's version of ``text``: its letters accented, 40% longer, in brackets
    (so that a string cut short shows), its placeholders and markup kept.

    >>> pseudo("Your turn, {name}")
    '[Ýöûŕ ţûŕñ, {name} ·······]'
    """
    parts: list[str] = []
    at = 0
    for found in PROTECTED.finditer(text):
        parts.append(text[at : found.start()].translate(ACCENTED))
        parts.append(found[0])
        at = found.end()
    parts.append(text[at:].translate(ACCENTED))
    padding = "·" * ceil(len(text) * 0.4)
    return f"[{''.join(parts)} {padding}]" if text.strip() else text


def pseudo_catalog(template: Catalog) -> Catalog:
    """The pseudo-locale's catalog: every message of ``template`` translated by
    :func:`pseudo`."""
    made = Catalog(locale=SOURCE.locale)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string: str | tuple[str, ...] = tuple(pseudo(form) for form in message.id)
        else:
            string = pseudo(str(message.id))
        made.add(message.id, string, locations=message.locations, context=message.context)
    return made
