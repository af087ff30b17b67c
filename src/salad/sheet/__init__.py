"""The score sheet for tables that play with real cards: what each player took, checked, scored.

After every hand the scorekeeper enters what each player took, in the terms of that hand's
penalties (never hard-coded round names): tricks per player, matching cards per player (hearts,
queens, ...), who took a single penalty card (the KS), who took the last trick, who holds a token
(the Rotten Tomato). The sheet checks the entry against the ruleset, naming what does not add up,
and scores it exactly as the engine scores the same captures (:func:`score_hand`, moons included).

Everything here is pure (no I/O) and every state is plain JSON, so a terminal and a web page can
share it::

    >>> from salad import load_ruleset
    >>> sheet = ScoreSheet(load_ruleset("canadian"), ["Ann", "Bob", "Cy", "Di"])
    >>> [f.id for f in sheet.fields()]
    ['tricks']
    >>> sheet.check({"tricks": [3, 4, 3, 2]})
    ['Tricks: they add up to 12, but 13 were played']
    >>> sheet.enter({"tricks": [3, 4, 3, 3]}).points
    (30, 40, 30, 30)
    >>> [f.id for f in sheet.fields()]
    ['hearts']
    >>> sheet.enter({"hearts": parse_value(sheet.fields()[0], "ann 4 bob 9", sheet.names)}).points
    (40, 90, 0, 0)
    >>> sheet.totals, sheet.leaders()
    ((70, 130, 30, 30), [2, 3])

The modules: :mod:`~salad.sheet.questions` (what a hand asks), :mod:`~salad.sheet.names`,
:mod:`~salad.sheet.text_entry` (typed answers), :mod:`~salad.sheet.entries` (checking and
scoring one hand), :mod:`~salad.sheet.score_sheet` (the sheet), :mod:`~salad.sheet.schema` (a
saved sheet's shape) and :mod:`~salad.sheet.printout` (an engine game's scores as text).
"""

from __future__ import annotations

from salad.scoring import (
    HandScore,
    card_counts,
    moon_shooter,
    penalty_points,
    score_hand,
    standings,
)
from salad.sheet.entries import check_entry, check_field, score_entry
from salad.sheet.names import NAME_LIMIT, check_names, name_problem
from salad.sheet.questions import Field, SheetError, hand_fields
from salad.sheet.schema import FORMAT
from salad.sheet.score_sheet import ScoreSheet
from salad.sheet.text_entry import find_player, format_value, parse_value

__all__ = [
    "FORMAT",
    "NAME_LIMIT",
    "Field",
    "HandScore",
    "ScoreSheet",
    "SheetError",
    "card_counts",
    "check_entry",
    "check_field",
    "check_names",
    "find_player",
    "format_value",
    "hand_fields",
    "moon_shooter",
    "name_problem",
    "parse_value",
    "penalty_points",
    "score_entry",
    "score_hand",
    "standings",
]
