"""The languages salad speaks: adding one is a catalog file (``po/<code>.po``, made by ``make
i18n``) and one line of :data:`LANGUAGES`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Language:
    """A language of the site and the command.

    ``code`` is what a player's identity stores, ``salad --lang`` takes and the catalog file
    is named after (``po/fr.po``); ``tag`` the BCP 47 tag of ``<html lang>`` and ``Intl``;
    ``name`` the language's name in itself, for the switch.

    >>> Language("fr", "fr-CA", "Français").locale
    'fr_CA'
    """

    code: str
    tag: str
    name: str

    @property
    def locale(self) -> str:
        """Babel's (and CLDR's) name of the language: ``fr_CA``."""
        return self.tag.replace("-", "_")


SOURCE = Language("en", "en", "English")
"""The language the strings are written in: it has no catalog."""

LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        SOURCE,
        Language("fr", "fr-CA", "Français"),
    )
}
"""Every language offered, by code, in the switch's order."""

PSEUDO = Language("en-XA", "en-XA", "Ëñĝļîšĥ [pseudo]")
"""The pseudo-locale: every string of the template, accented and 40% longer (see
:func:`salad.locale.catalogs.pseudo`). Never offered; asked for by name (``?lang=en-XA``,
``salad --lang en-XA``) to find strings that bypass the catalog and layouts that break."""


def language(code: str) -> Language:
    """The language ``code`` names (one of :data:`LANGUAGES`, or :data:`PSEUDO`).

    >>> language("fr").tag
    'fr-CA'
    >>> language("de")
    Traceback (most recent call last):
    ...
    ValueError: language: must be one of en, fr, not 'de'
    """
    if code == PSEUDO.code:
        return PSEUDO
    try:
        return LANGUAGES[code]
    except KeyError:
        raise ValueError(f"language: must be one of {', '.join(LANGUAGES)}, not {code!r}") from None
