"""The shape of settings, checked by pydantic: each value's type and range, before it is applied.

:func:`salad.settings.apply_settings` first checks the settings here (is ``passing`` a whole
number from 0 to 6, is ``penalties`` a list of tables with known keys), then applies them,
checking what the values mean against the deck and the catalogue. Every problem is one line that
names the key as a rules file writes it (``penalties[0].points``)::

    >>> check_settings({"passing": "three"})
    Traceback (most recent call last):
    ...
    salad.errors.RulesError: passing: must be a whole number, not 'three'
    >>> check_settings({"penalties": [{"id": "x", "points": 5, "colour": "red"}]})
    Traceback (most recent call last):
    ...
    salad.errors.RulesError: penalties[0].colour: unknown key (known: id, name, kind, \
points, suits, ranks, cards, wild)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, NotRequired

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Tag,
    TypeAdapter,
    ValidationError,
    with_config,
)
from pydantic_core import ErrorDetails, PydanticCustomError
from typing_extensions import TypedDict  # pydantic needs this TypedDict before Python 3.12

from salad.errors import RulesError
from salad.ruleset import DIRECTIONS, KIND_NAMES, MOON_NAMES

POINTS_LIMIT = 100_000
"""No penalty, moon or joker is worth more than this many points either way."""

PLAYERS_LIMIT = (2, 16)
"""Fewest and most players of any ruleset (with ``JOKERS_LIMIT``, this bounds the deck's copies)."""

JOKERS_LIMIT = 8
HANDS_LIMIT = 64
"""Hands in a game (the longest preset plays 12)."""
ROUNDS_LIMIT = 64
"""Rounds a ruleset knows (presets: at most 12)."""
PENALTIES_LIMIT = 64
"""Penalties in the catalogue (presets: at most 14)."""
ROUND_PENALTIES_LIMIT = 32
"""Penalties one round lists (presets: 1)."""
LIST_LIMIT = 256
"""Entries of any other list: removal, every_hand, a penalty's suits, ranks and cards."""
NAME_LIMIT = 60
"""Characters of the title and of a round's or a penalty's name (presets: at most 31): each is
sent with every lobby and how-to-play, one round's name once a hand (#40: a 95 KB name made a
6 MB lobby)."""
ID_LIMIT = 40
"""Characters of a round's or a penalty's id (presets: at most 16)."""

_ID = re.compile(r"[A-Za-z0-9_-]+")


def _problem(message: str) -> PydanticCustomError:
    # The message is final text: braces in a shown value must not be read as placeholders.
    return PydanticCustomError("salad", "{text}", {"text": message})


def _whole(lo: int, hi: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise _problem(f"must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise _problem(f"{value} is out of range ({lo} to {hi})")
        return value

    return check


def _text(value: Any, limit: int = NAME_LIMIT) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _problem(f"must be a non-empty string, not {_shown(value)}")
    if len(value) > limit:
        raise _problem(f"{len(value)} characters, more than the limit of {limit}")
    if "\n" in value or "\r" in value:
        raise _problem(f"must be one line, not {value!r}")
    return value


def _shown(value: Any) -> str:
    """``value`` as an error shows it: its repr, cut short past 60 characters."""
    text = repr(value)
    return text if len(text) <= NAME_LIMIT else text[: NAME_LIMIT - 3] + "..."


def _ident(value: Any) -> str:
    text = _text(value, ID_LIMIT)
    if not _ID.fullmatch(text):
        raise _problem(f"{text!r} may hold only letters, digits, '-' and '_' (e.g. 'black-jacks')")
    return text


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _problem(f"must be true or false, not {value!r}")
    return value


def _choice(*options: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in options:
            raise _problem(f"{value!r} is not one of {', '.join(options)}")
        return value

    return check


def _at_most(value: list[Any], limit: int) -> list[Any]:
    if len(value) > limit:
        raise _problem(f"{len(value)} entries, more than the limit of {limit}")
    return value


def _strings_upto(limit: int) -> Callable[[Any], list[str]]:
    def check(value: Any) -> list[str]:
        """A list of strings; one string stands for a list of one."""
        if isinstance(value, str):
            return [value]
        if not isinstance(value, list | tuple):
            raise _problem(f"must be a list of strings, not {value!r}")
        _at_most(list(value), limit)
        if not all(isinstance(v, str) for v in value):
            raise _problem(f"must be a list of strings, not {value!r}")
        return list(value)

    return check


def _table(what: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, Mapping):
            raise _problem(f"must be {what}, not {value!r}")
        return dict(value)

    return check


def _tables(what: str, limit: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not isinstance(value, list | tuple):
            raise _problem(f"must be a list of tables ([[{what}]]), not {value!r}")
        return _at_most(list(value), limit)

    return check


def _points_table(value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise _problem(f"must be a table of penalty = points, not {value!r}")
    if len(value) > PENALTIES_LIMIT:
        raise _problem(f"{len(value)} entries, more than the limit of {PENALTIES_LIMIT}")
    return dict(value)


def _trump(value: Any) -> str:
    if not isinstance(value, str):
        raise _problem(f'must be a suit or "none", not {value!r}')
    return value


def _round_penalties(value: Any) -> list[Any]:
    if isinstance(value, str | Mapping):
        return [value]
    if not isinstance(value, list | tuple):
        raise _problem("must be a list of penalty ids or tables")
    _at_most(list(value), ROUND_PENALTIES_LIMIT)
    for j, item in enumerate(value):
        if not isinstance(item, str | Mapping):
            raise PydanticCustomError(
                "salad_at",
                "{text}",
                {"text": f"must be a penalty id or a table, not {item!r}", "at": j},
            )
    return list(value)


def _ref_kind(value: Any) -> str:
    return "penalty-id" if isinstance(value, str) else "penalty-table"


PenaltyRef = Annotated[
    Annotated[str, Tag("penalty-id")] | Annotated["PenaltyIn", Tag("penalty-table")],
    Discriminator(_ref_kind),
]
"""A round's penalty: the id of one in the catalogue, or a table defining one there."""

Points = Annotated[int, BeforeValidator(_whole(-POINTS_LIMIT, POINTS_LIMIT))]
Text = Annotated[str, BeforeValidator(_text)]
Ident = Annotated[str, BeforeValidator(_ident)]
Flag = Annotated[bool, BeforeValidator(_bool)]
Strings = Annotated[list[str], BeforeValidator(_strings_upto(LIST_LIMIT))]
Players = Annotated[int, BeforeValidator(_whole(*PLAYERS_LIMIT))]


@with_config(ConfigDict(extra="forbid"))
class PenaltyIn(TypedDict):
    """A ``[[penalties]]`` table: what a penalty counts and what it costs."""

    id: Ident
    name: NotRequired[Text]
    kind: NotRequired[Annotated[str, BeforeValidator(_choice(*KIND_NAMES))]]
    points: Points
    suits: NotRequired[Strings]
    ranks: NotRequired[Strings]
    cards: NotRequired[Strings]
    wild: NotRequired[Flag]


@with_config(ConfigDict(extra="forbid"))
class RoundIn(TypedDict):
    """A ``[[rounds]]`` table: the penalties of one round (ids, or penalties defined there)."""

    id: Ident
    name: NotRequired[Text]
    penalties: NotRequired[Annotated[list[PenaltyRef], BeforeValidator(_round_penalties)]]
    all_previous: NotRequired[Flag]


@with_config(ConfigDict(extra="forbid"))
class SettingsIn(TypedDict, total=False):
    """Every setting, in the order they are applied (so the first problem reported is the
    first one met)."""

    title: Text
    jokers: Annotated[int, BeforeValidator(_whole(0, JOKERS_LIMIT))]
    joker_points: Points
    removal: Strings
    penalties: Annotated[list[PenaltyIn], BeforeValidator(_tables("penalties", PENALTIES_LIMIT))]
    rounds: Annotated[list[RoundIn], BeforeValidator(_tables("rounds", ROUNDS_LIMIT))]
    points: Annotated[dict[str, Points], BeforeValidator(_points_table)]
    hands: Annotated[list[str], BeforeValidator(_strings_upto(HANDS_LIMIT))]
    swap: Any  # checked by salad.toppings.parse_swaps, which knows the rounds
    toppings: Any  # checked by salad.toppings.parse_toppings
    every_hand: Strings
    min_players: Players
    max_players: Players
    players: Annotated[int, BeforeValidator(_whole(-(2**31), 2**31))]  # range: min to max
    objective: Annotated[str, BeforeValidator(_choice("low", "high"))]
    moon: Annotated[str, BeforeValidator(_choice(*MOON_NAMES))]
    moon_points: Annotated[int, BeforeValidator(_whole(0, POINTS_LIMIT))]
    passing: Annotated[int, BeforeValidator(_whole(0, 6))]
    pass_direction: Annotated[str, BeforeValidator(_choice(*DIRECTIONS))]
    trump: Annotated[str, BeforeValidator(_trump)]
    trump_chooser: Annotated[str, BeforeValidator(_choice("none", "last-place"))]


SETTING_KEYS = (
    "title",
    "players",
    "min_players",
    "max_players",
    "points",
    "hands",
    "jokers",
    "joker_points",
    "objective",
    "moon",
    "moon_points",
    "passing",
    "pass_direction",
    "trump",
    "trump_chooser",
    "removal",
    "penalties",
    "rounds",
    "every_hand",
    "toppings",
    "swap",
)
"""Every key :func:`salad.settings.apply_settings` knows, in the order messages list them."""

PENALTY_KEYS: tuple[str, ...] = tuple(PenaltyIn.__annotations__)
ROUND_KEYS: tuple[str, ...] = tuple(RoundIn.__annotations__)

_SETTINGS: TypeAdapter[SettingsIn] = TypeAdapter(SettingsIn)


def check_settings(settings: Any) -> SettingsIn:
    """The settings with their types checked; the first problem is a one-line ``RulesError``."""
    if not isinstance(settings, Mapping):
        raise RulesError(f"settings: must be a table of setting = value, not {settings!r}")
    try:
        return _SETTINGS.validate_python(dict(settings))
    except ValidationError as exc:
        raise RulesError(_line(_first(exc.errors()), settings)) from None


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error met first: an unknown setting; else, in the table of the first error, its id,
    then its unknown keys, then the rest in order."""
    for e in errors:
        if e["type"] == "extra_forbidden" and len(e["loc"]) == 1:
            return e
    top = errors[0]
    same = [e for e in errors if e["loc"][:-1] == top["loc"][:-1]]
    for e in same:
        if e["loc"][-1:] == ("id",):
            return e
    for e in same:
        if e["type"] == "extra_forbidden":
            return e
    return top


def _line(error: ErrorDetails, settings: Mapping[str, Any]) -> str:
    loc = _without_unions(tuple(error["loc"]))
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind == "salad_at":
        loc = (*loc, ctx["at"])
    where = _where(loc)
    if kind == "extra_forbidden":
        parent = loc[:-1]
        known = SETTING_KEYS if not parent else _keys_at(parent)
        what = "setting" if not parent else "key"
        return f"{where}: unknown {what}{_hint(str(loc[-1]), known)}"
    if kind == "missing":
        if loc[-1] == "points" and len(loc) > 1:
            table = _at(settings, loc[:-1])
            return f"{where}: missing (what penalty {table.get('id')!r} costs)"
        return f"{where}: missing"
    if "text" in ctx:
        return f"{where}: {ctx['text']}"
    if len(loc) > 1 and isinstance(loc[-1], int):  # an item of a table that is not a table
        return f"{where}: must be a table, not {error['input']!r}"
    return f"{where}: {error['msg']}"


def _without_unions(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """Pydantic names the union member it tried (``str`` or ``PenaltyIn``); people don't."""
    return tuple(k for k in loc if k not in ("penalty-id", "penalty-table"))


def _keys_at(loc: tuple[int | str, ...]) -> tuple[str, ...]:
    if loc[0] == "rounds" and len(loc) == 2:
        return ROUND_KEYS
    return PENALTY_KEYS


def _at(settings: Mapping[str, Any], loc: tuple[int | str, ...]) -> Mapping[str, Any]:
    value: Any = settings
    for key in loc:
        value = value[key]
    return value if isinstance(value, Mapping) else {}


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for key in loc:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out or "settings"


def _hint(word: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.75)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return f" (known: {', '.join(known)})"
