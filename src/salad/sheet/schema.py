"""The shape of a saved score sheet (``salad-score/1``), checked by pydantic before it is read.

The schema checks keys and types; what the answers mean is checked by entering them again
(:meth:`salad.sheet.score_sheet.ScoreSheet.from_dict`). Pydantic's first error becomes one line
naming the key: ``hands[0] (hand 1).extra: unknown key``.
"""

from __future__ import annotations

from typing import Any, NotRequired

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config
from pydantic_core import ErrorDetails
from typing_extensions import TypedDict  # pydantic needs this TypedDict before Python 3.12

from salad.locale import _
from salad.sheet.questions import SheetError

__all__ = ["FORMAT", "SavedHand", "SavedSheet", "check_saved"]

FORMAT = "salad-score/1"
"""The value of every saved sheet's ``format`` field."""

_STRICT = ConfigDict(extra="forbid", strict=True)


@with_config(_STRICT)
class SavedHand(TypedDict):
    number: NotRequired[Any]
    round_id: NotRequired[Any]
    took: NotRequired[Any]
    points: NotRequired[Any]
    moon: NotRequired[Any]


@with_config(_STRICT)
class SavedSheet(TypedDict):
    format: str
    ruleset: NotRequired[Any]
    players: list[Any]
    first_dealer: NotRequired[Any]
    hands: NotRequired[list[SavedHand]]
    totals: NotRequired[Any]


SHEET_KEYS = tuple(SavedSheet.__annotations__)
_SHEET = TypeAdapter(SavedSheet)


def check_saved(data: Any) -> SavedSheet:
    """The sheet's format, keys and types checked; ``SheetError`` names the first problem."""
    if not isinstance(data, dict):
        raise SheetError(
            _("a score sheet must be a JSON object, not {type}").format(type=type(data).__name__)
        )
    if data.get("format") != FORMAT:
        raise SheetError(
            _("format: {given!r} is not {format!r}").format(given=data.get("format"), format=FORMAT)
        )
    try:
        return _SHEET.validate_python(data)
    except ValidationError as exc:
        raise SheetError(_problem(exc.errors()[0])) from None


def _problem(error: ErrorDetails) -> str:
    """Pydantic's first error as one ``where: what`` line."""
    loc, kind, got = tuple(error["loc"]), error["type"], error["input"]
    if len(loc) == 1 and kind == "extra_forbidden":
        return _("{key}: unknown key (known: {known})").format(
            key=loc[0], known=", ".join(SHEET_KEYS)
        )
    if loc[0] == "players":
        return _("players: must be a list of names, not {got!r}").format(
            got=None if kind == "missing" else got
        )
    if len(loc) == 1:
        return _("hands: must be a list, not {got!r}").format(got=got)
    where = _("hands[{i}] (hand {n})").format(i=loc[1], n=int(loc[1]) + 1)
    if len(loc) == 2:
        return _("{where}: must be an object, not {got!r}").format(where=where, got=got)
    return _("{where}.{key}: unknown key").format(where=where, key=loc[2])
