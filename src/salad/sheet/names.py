"""Player names on a score sheet: short, not numbers, and different from one another.

The server checks the names of its players with a rule of its own (``salad.server``); these are
the names a scorekeeper types, which the text entry must be able to tell apart.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from salad.locale import _

__all__ = ["NAME_LIMIT", "check_names", "name_key", "name_problem"]

NAME_LIMIT = 24


def check_names(names: Sequence[str], players: int | None = None) -> list[str]:
    """Problems with a table's player names (empty when they are fine)."""
    problems: list[str] = []
    if players is not None and len(names) != players:
        problems.append(
            _("names: {players} players need {players} names, not {n}").format(
                players=players, n=len(names)
            )
        )
    seen: dict[str, str] = {}
    for i, raw in enumerate(names):
        problem = name_problem(raw, list(seen.values()))
        if problem:
            problems.append(_("player {n}: {problem}").format(n=i + 1, problem=problem))
        elif isinstance(raw, str):
            seen[name_key(raw)] = raw.strip()
    return problems


def name_problem(name: Any, taken: Sequence[str] = ()) -> str:
    """What is wrong with one player name ('' when nothing): names must be short, not a number,
    and differ from the names already taken."""
    if not isinstance(name, str) or not name.strip():
        return _("a name cannot be empty")
    text = name.strip()
    if len(text) > NAME_LIMIT:
        return _("{name!r}... is too long ({limit} characters at most)").format(
            name=text[:NAME_LIMIT], limit=NAME_LIMIT
        )
    if text.lstrip("+-").isdigit():
        return _("{name!r} is a number; a name must not be one").format(name=text)
    if any(c in text for c in ",=:/\n\r\t") or text.startswith("?"):
        return _("{name!r}: a name may not hold , = : / or start with ?").format(name=text)
    for other in taken:
        if name_key(other) == name_key(text):
            return _("{name!r} is already taken by {other}").format(name=text, other=other)
    return ""


def name_key(name: str) -> str:
    """A name as names are compared: spaces dropped, case folded, accents dropped (so that
    "zoe" finds Zoé at a keyboard without accents, and Zoé and Zoe are one name)::

        >>> name_key(" Zoé  Côté "), name_key("ZOE COTE")
        ('zoecote', 'zoecote')
    """
    plain = unicodedata.normalize("NFKD", "".join(name.split()).casefold())
    return "".join(c for c in plain if not unicodedata.combining(c))
