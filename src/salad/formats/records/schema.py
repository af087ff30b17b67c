"""The shape of a game record, checked by pydantic before a record is replayed.

The schema checks types and keys only; what the values mean (seats in range, cards dealt, moves
legal) is checked by replaying (:mod:`salad.formats.records.replay`). Pydantic's first error is
turned into the one line the rest of the record's messages use: ``hand 1: number must be a
whole number, not "1"``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Annotated, Any, NoReturn, NotRequired

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Strict,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
    with_config,
)
from pydantic_core import ErrorDetails
from typing_extensions import TypedDict  # pydantic needs this TypedDict before Python 3.12

from salad.errors import RecordError
from salad.presets import PRESETS
from salad.settings import RulesetRef

FORMAT = "salad-record/2"
"""The ``format`` of the records written now: the seed is a string of digits, so that every JSON
tool (JavaScript's ``JSON.parse``, ``jq``) keeps it whole; a number above 2**53 comes back
rounded from them, and the record no longer verifies."""

FORMATS = ("salad-record/1", FORMAT)
"""The formats read: ``salad-record/1`` (the seed a JSON number) as well."""

_SEED = re.compile(r"-?[0-9]{1,40}")

Record = dict[str, Any]
"""A game record: a JSON object (see ``docs/records.md``)."""

_STRICT = ConfigDict(extra="forbid", strict=True)
_Codes = list[StrictStr]
_Draw = Annotated[tuple[StrictInt, StrictStr], Strict(False)]  # [seat, card]: a JSON list


def _nonblank(value: Any) -> Any:
    if isinstance(value, str) and not value.strip():
        raise ValueError("blank")
    return value


@with_config(ConfigDict(extra="allow", strict=True))
class PlayerData(TypedDict):
    name: Annotated[StrictStr, BeforeValidator(_nonblank)]
    undos: NotRequired[StrictInt]
    """How many times this seat took moves back (an undo at a table of bots); absent: none."""


@with_config(_STRICT)
class CurrentData(TypedDict):
    leader: StrictInt
    cards: _Codes


@with_config(_STRICT)
class TrickData(TypedDict):
    leader: StrictInt
    cards: _Codes
    winner: StrictInt
    token: NotRequired[StrictInt | None]


@with_config(_STRICT)
class HandData(TypedDict):
    number: StrictInt
    round: Any
    round_id: Any
    dealer: StrictInt
    removed: _Codes
    deal: list[_Codes]
    trump: NotRequired[StrictStr | None]
    trump_seat: NotRequired[StrictInt | None]
    passes: NotRequired[list[_Codes]]
    tricks: NotRequired[list[TrickData]]
    current: NotRequired[CurrentData]
    points: NotRequired[list[StrictInt]]
    moon: NotRequired[StrictInt | None]


@with_config(_STRICT)
class RecordData(TypedDict):
    format: str
    ruleset: RulesetRef
    players: list[PlayerData]
    seed: NotRequired[StrictInt | StrictStr | None]
    first_dealer: StrictInt
    draw: NotRequired[list[list[_Draw]] | None]
    auto_deal: NotRequired[bool]
    hands: list[HandData]
    totals: list[StrictInt]
    winners: list[StrictInt]


RECORD_KEYS = tuple(RecordData.__annotations__)
HAND_KEYS = tuple(HandData.__annotations__)
TRICK_KEYS = tuple(TrickData.__annotations__)
CURRENT_KEYS = tuple(CurrentData.__annotations__)
_RECORD = TypeAdapter(RecordData)

_SEATS = ("first_dealer", "dealer", "leader", "winner", "token", "trump_seat", "moon")
_EACH = {"points": "each of points", "totals": "each total", "winners": "each winner"}
_MUST = {
    "int_type": "must be a whole number",
    "list_type": "must be a list",
    "string_type": "must be a string",
    "bool_type": "must be true or false",
}


def show(value: Any) -> str:
    """A value as JSON (``"17"``, ``null``), cut to 40 characters for a message."""
    text = json.dumps(value, ensure_ascii=False) if _is_json(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def fail(where: str, message: str) -> NoReturn:
    raise RecordError(f"{where}: {message}")


def check_record(record: Any) -> RecordData:
    """The record, its format, keys and types checked; ``RecordError`` names the first problem."""
    if not isinstance(record, dict):
        fail("record", f"must be a JSON object, not {show(record)}")
    if "format" not in record:
        fail("record", f"format is missing (expected {FORMAT!r})")
    if record["format"] not in FORMATS:
        fail(
            "format", f"{show(record['format'])} is not a known record format (expected {FORMAT!r})"
        )
    try:
        checked = _RECORD.validate_python(record)
    except ValidationError as exc:
        fail(*_problem(exc.errors()[0], record))
    seed = checked.get("seed")
    if seed is not None:
        if record["format"] == FORMAT and not (isinstance(seed, str) and _SEED.fullmatch(seed)):
            fail("seed", f"must be a whole number written as a string, not {show(seed)}")
        if record["format"] != FORMAT and not isinstance(seed, int):
            fail("seed", f"must be a whole number, not {show(seed)}")
    return checked


def record_seed(record: Mapping[str, Any]) -> int | None:
    """The seed of a checked record, whichever format writes it (a string in
    ``salad-record/2``, a number in ``salad-record/1``).

    >>> record_seed({"format": "salad-record/2", "seed": "4414664977492776614"})
    4414664977492776614
    >>> record_seed({"format": "salad-record/1", "seed": 12}), record_seed({})
    (12, None)
    """
    seed = record.get("seed")
    return None if seed is None else int(seed)


def _place(loc: tuple[int | str, ...], record: Record) -> str:
    """Where a JSON object or list sits, as the record's messages say it: ``hand 2, trick 3``."""
    if not loc:
        return "record"
    head = loc[0]
    if head == "ruleset":
        return ".".join(str(k) for k in loc)
    if head == "players":
        return f"players[{loc[1]}]" if len(loc) > 1 else "record"
    if head == "draw":
        return f"draw, round {int(loc[1]) + 1}" if len(loc) > 1 else "record"
    if head in ("totals", "winners"):
        return str(head) if len(loc) > 1 else "record"
    if head != "hands" or len(loc) < 2:
        return "record"
    where = f"hand {int(loc[1]) + 1}"
    if len(loc) < 4:
        return where
    part, index = loc[2], int(loc[3]) if len(loc) > 3 and isinstance(loc[3], int) else -1
    if part == "tricks" and index >= 0:
        return f"{where}, trick {index + 1}"
    if part == "current":
        tricks = record["hands"][loc[1]].get("tricks")
        count = len(tricks) if isinstance(tricks, list) else 0
        return f"{where}, trick {count + 1} (current)"
    if part in ("deal", "passes") and index >= 0:
        return f"{where}, {part}, seat {index}"
    return where


def _value(record: Record, loc: tuple[int | str, ...]) -> Any:
    value: Any = record
    for key in loc:
        value = value[key]
    return value


def _problem(error: ErrorDetails, record: Record) -> tuple[str, str]:
    """Pydantic's first error as ``(where, what)``."""
    loc, kind, got = tuple(error["loc"]), error["type"], error["input"]
    key, parent = (loc[-1], loc[:-1]) if loc else ("", ())
    players = record.get("players")
    seats = f"a seat number 0 to {len(players) - 1}" if isinstance(players, list) else "a seat"
    if kind == "extra_forbidden":
        known = ", ".join(_known_keys(parent))
        return _place(parent, record), f"unknown key {show(key)} (known: {known})"
    if key == "name":
        value = None if kind == "missing" else got
        return _place(parent, record), f"name must be a non-empty string, not {show(value)}"
    if kind == "missing":
        return _place(parent, record), f"{key} is missing"
    if kind in ("dict_type", "model_type") or loc == ("ruleset", "settings"):
        return _place(loc, record), f"must be a JSON object, not {show(got)}"
    if loc == ("ruleset", "preset"):
        return "ruleset", f"preset {show(got)} is not one of {', '.join(PRESETS)}"
    if loc[:1] == ("draw",) and len(loc) > 1:
        if len(loc) == 2:
            return _place(loc, record), f"a round must be a list, not {show(got)}"
        if len(loc) == 4 and key == 0:
            return _place(loc[:2], record), f"the seat must be {seats}, not {show(got)}"
        pair = _value(record, loc[:3])
        return _place(loc[:2], record), f"each draw must be [seat, card], not {show(pair)}"
    if isinstance(key, int):
        owner = parent[-1]
        if owner in _EACH:
            what = f"must be {seats}" if owner == "winners" else _MUST.get(kind, error["msg"])
            return _place(loc, record), f"{_EACH[str(owner)]} {what}, not {show(got)}"
        if owner in ("deal", "passes"):  # a seat's cards are not a list
            return _place(loc, record), f"the cards must be a list, not {show(got)}"
        noun = "the cards" if isinstance(owner, int) else str(owner)
        codes = _value(record, parent)
        return _place(parent, record), f"{noun} must be a list of card codes, not {show(codes)}"
    if key == "trump":
        what = "must be a suit letter"
    elif key in _SEATS:
        what = f"must be {seats}"
    else:
        what = _MUST.get(kind, error["msg"])
    return _place(parent, record), f"{key} {what}, not {show(got)}"


def _known_keys(loc: tuple[int | str, ...]) -> tuple[str, ...]:
    """The keys of the JSON object at ``loc``."""
    if not loc:
        return RECORD_KEYS
    if loc == ("ruleset",):
        return ("preset", "settings")
    if len(loc) == 2:
        return HAND_KEYS
    return CURRENT_KEYS if loc[-1] == "current" else TRICK_KEYS
