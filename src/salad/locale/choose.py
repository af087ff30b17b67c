"""Which language a person gets: the browser's ``Accept-Language`` on a first visit, the
environment's ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES``/``LANG`` for the command."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from babel import negotiate_locale

from salad.locale.languages import LANGUAGES, PSEUDO, SOURCE


def best(preferred: Iterable[str]) -> str | None:
    """The code of the first language offered among ``preferred`` (BCP 47 tags or POSIX
    locales, best first; a language offered in another region counts); ``None``.

    >>> best(["fr-FR", "en"]), best(["de_DE.UTF-8", "en_GB"]), best(["de"])
    ('fr', 'en', None)
    """
    offered: dict[str, str] = {}
    for code, lang in LANGUAGES.items():
        offered.setdefault(lang.locale, code)
        offered.setdefault(lang.locale.split("_")[0], code)
    names = [tag.split(".")[0].split("@")[0].replace("-", "_") for tag in preferred]
    for name in names:
        if name.lower() == PSEUDO.locale.lower():
            return PSEUDO.code
        found = negotiate_locale([name], list(offered))
        if found is not None:
            return offered[found]
    return None


def from_accept_language(header: str) -> str:
    """The language an ``Accept-Language`` header asks for, by its weights; else English.

    >>> from_accept_language("en-US;q=0.5, fr-CA"), from_accept_language("de, *;q=0.1")
    ('fr', 'en')
    """
    weighted: list[tuple[float, int, str]] = []
    for place, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        if tag and tag != "*" and weight > 0:
            weighted.append((-weight, place, tag))
    return best(tag for _w, _p, tag in sorted(weighted)) or SOURCE.code


ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the command finds its language, first first (gettext's order; ``LANGUAGE`` is a list
separated by colons)."""


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (``C`` and ``POSIX`` are English).

    >>> from_environment({"LANG": "fr_CA.UTF-8"}), from_environment({"LC_ALL": "C"})
    ('fr', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = env.get(name, "")
        if not value:
            continue
        tags = [tag for tag in value.split(":") if tag and tag not in ("C", "POSIX")]
        if not tags and name != "LANGUAGE":
            return SOURCE.code
        found = best(tags)
        if found is not None:
            return found
    return SOURCE.code
