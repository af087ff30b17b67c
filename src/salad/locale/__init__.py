"""The languages salad speaks (English, French as spoken in Canada) and the one translation
system of the command, the terminal app, the score sheet and the web client: gettext catalogs
made and read with Babel (``po/``), the browser's catalog served from the same files.

A floor above the core: the core's words (a ruleset's names, its errors) are data in English,
translated where they are shown (``_(round.name)``).

>>> from salad.locale import _, using
>>> with using("fr"):
...     _("No Hearts")
'Pas de cœurs'
"""

from __future__ import annotations

from salad.locale.catalogs import browser_catalog, translations
from salad.locale.choose import best, from_accept_language, from_environment
from salad.locale.current import N_, NP_, _, current, ngettext, pgettext, use, using
from salad.locale.languages import LANGUAGES, PSEUDO, SOURCE, Language, language

__all__ = [
    "LANGUAGES",
    "N_",
    "NP_",
    "PSEUDO",
    "SOURCE",
    "Language",
    "_",
    "best",
    "browser_catalog",
    "current",
    "from_accept_language",
    "from_environment",
    "language",
    "ngettext",
    "pgettext",
    "translations",
    "use",
    "using",
]
