"""``python -m salad.locale.tool extract|update|check`` (``make i18n``, ``make lint``): the
template made from the sources, each language's catalog brought up to it, and the check that
fails on any string missing, fuzzy or out of date.

The strings are found by Babel's extractors: Python's ``_``/``N_``/``ngettext``/``pgettext``,
the browser's ``t``/``tn`` (``js/i18n.js``), the pages' Jinja ``{% trans %}`` and ``_()``, the
rulesets' own words (presets and toppings: their titles, suits, ranks, penalties and rounds),
which are data and so are read from the data, and the command line's libraries' own words
(Click's and Typer's: a parser's errors, ``[default: ...]``), read from the installed
packages (located ``click/core.py``; :mod:`salad.cli.library_words` puts them to use).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib import import_module
from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import write_po

from salad.locale.catalogs import PO_DIR, RULESET_WORDS, TEMPLATE, catalog_path, read
from salad.locale.languages import LANGUAGES, SOURCE

PACKAGE = Path(__file__).resolve().parent.parent
"""``src/salad``: locations are relative to it (``web/static/js/table.js``)."""

METHODS = [
    ("locale/cards.py", "python"),  # cards on screens: the one module here with strings
    ("locale/**", "ignore"),
    ("web/static/**.html", "jinja2"),
    ("web/static/**.js", "javascript"),
    ("**.py", "python"),
]
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None, "tn": (1, 2), "NP_": ((1, "c"), 2)}
OPTIONS = {
    "web/static/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"},
    # t() inside a template literal's ${...} (the html`` templates); Babel's reading of them
    # misses a call inside an attribute's quotes (title="${t('...')}": put it in a variable).
    "web/static/**.js": {"parse_template_string": "true"},
}
LIBRARIES = ("click", "typer")
"""The packages whose own messages the `salad` command shows (through the standard library's
gettext): their strings are in the template too, located under the package's name."""
PROJECT = "salad"
HEADER: dict[str, Any] = {
    "project": PROJECT,
    "copyright_holder": "the salad authors",
    "msgid_bugs_address": "",
    "fuzzy": False,
    "header_comment": "# The strings of salad; docs/i18n.md says how to change them.\n#",
}


def ruleset_words() -> Iterator[str]:
    """Every word of every preset, alone and with each topping it takes, and the toppings'
    own texts: what the screens show of a ruleset."""
    from salad.errors import RulesError
    from salad.presets import PRESETS
    from salad.toppings import TOPPING_TEXT, TOPPINGS, apply_toppings

    for ruleset in PRESETS.values():
        variants = [ruleset]
        for topping in TOPPINGS:
            try:
                variants.append(apply_toppings(ruleset, [topping]))
            except RulesError:  # a topping this preset does not take
                continue
        for rs in variants:
            yield rs.title
            yield from (suit.name for suit in rs.deck.suits)
            yield from (rank.name for rank in rs.deck.ranks)
            yield from (wild.name for wild in rs.deck.wilds)
            yield from (p.name for p in rs.catalogue)
            yield from (r.name for r in rs.rounds)
    yield from TOPPING_TEXT.values()


def extract() -> Catalog:
    """The template: every translatable string of the package, by location (files, no lines:
    a line moved changes nothing)."""
    template = Catalog(**HEADER)
    for path, line, message, comments, context in extract_from_dir(
        PACKAGE, METHODS, OPTIONS, KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True
    ):
        template.add(message, None, [(path, line)], auto_comments=comments, context=context)
    for word in ruleset_words():
        if word and word not in template:
            template.add(word, None, [(RULESET_WORDS, 0)])
    for name in LIBRARIES:
        package = Path(import_module(name).__file__ or name).parent
        for path, line, message, _comments, context in extract_from_dir(
            package, [("**.py", "python")], keywords=DEFAULT_KEYWORDS
        ):
            template.add(message, None, [(f"{name}/{path}", line)], context=context)
    return template


STAMP = datetime(2026, 1, 1, tzinfo=UTC)
"""The date written into every catalog's header: the same on every run, so that a catalog
changes only where its strings do (git keeps the dates that matter)."""


def text(catalog: Catalog) -> bytes:
    """A catalog as its file holds it: by file, without line numbers or changing dates."""
    catalog.creation_date = catalog.revision_date = STAMP
    for message in catalog:
        # By file only: a catalog read back from its file (no lines) sorts as one extracted.
        message.locations = sorted({(path, 0) for path, _line in message.locations})
    out = BytesIO()
    write_po(out, catalog, omit_header=False, include_lineno=False, sort_by_file=True, width=100)
    return out.getvalue()


def written(path: Path, data: bytes) -> bool:
    """Whether ``path`` was written with ``data`` (not when it holds it already)."""
    if path.exists() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def update() -> list[str]:
    """The template extracted anew and every catalog brought up to it (new strings empty, gone
    ones dropped, near ones fuzzy); the files changed."""
    template = extract()
    changed = [TEMPLATE.name] if written(TEMPLATE, text(template)) else []
    for lang in LANGUAGES.values():
        if lang == SOURCE:
            continue
        path = catalog_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang.locale, **HEADER)
        catalog.update(template, update_header_comment=False)
        catalog.fuzzy = False
        catalog.header_comment = HEADER["header_comment"]
        catalog.last_translator = catalog.language_team = f"the salad authors ({lang.name})"
        catalog.obsolete.clear()
        if written(path, text(catalog)):
            changed.append(path.name)
    return changed


def problems() -> list[str]:
    """What is wrong with the catalogs, one line each: a template out of date with the
    sources, a string of the template a language lacks, or has fuzzy or untranslated."""
    found: list[str] = []
    template = extract()
    if not TEMPLATE.exists() or TEMPLATE.read_bytes() != text(template):
        found.append(f"{TEMPLATE.relative_to(PACKAGE.parent)}: out of date (make i18n)")
    for lang in LANGUAGES.values():
        if lang == SOURCE:
            continue
        path = catalog_path(lang)
        if not path.exists():
            found.append(f"{path.name}: missing (make i18n, then translate)")
            continue
        catalog = read(path, lang)
        for message in template:
            if not message.id:
                continue
            entry = catalog.get(message.id, message.context)
            where = f"{path.name}: {message.id if isinstance(message.id, str) else message.id[0]!r}"
            if entry is None:
                found.append(f"{where}: not in the catalog (make i18n)")
            elif entry.fuzzy:
                found.append(f"{where}: fuzzy")
            elif not entry.string or (isinstance(entry.string, tuple) and not all(entry.string)):
                found.append(f"{where}: untranslated")
    return found


def main(argv: list[str]) -> int:
    verb = argv[0] if argv else "check"
    if verb == "extract":
        print("written" if written(TEMPLATE, text(extract())) else "up to date", TEMPLATE)
        return 0
    if verb == "update":
        changed = update()
        print("written: " + ", ".join(changed) if changed else f"up to date: {PO_DIR}")
        return 0
    if verb == "check":
        found = problems()
        for line in found:
            print(line)
        if found:
            print(f"{len(found)} problems in the catalogs (src/salad/locale/po)")
            return 1
        print(f"catalogs complete: {', '.join(LANGUAGES)}")
        return 0
    print(f"usage: python -m salad.locale.tool extract|update|check, not {verb!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
