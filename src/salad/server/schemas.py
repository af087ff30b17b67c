"""What the server reads and answers over REST, as pydantic models (they make the OpenAPI
description); the websocket's are in :mod:`salad.server.messages`. A refusal is one line
(:func:`salad.server.errors.one_line`).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field

from salad.server.incoming import PaceName, StrictIn, tidy_line

MAX_SECONDS = 24 * 3600
MIN_TURN_TIMER = 0.5
"""The shortest turn timer: on expiry a bot moves for the seat, so a shorter one would make
a table of people a table of bots moving as fast as the pool lets them (issue #40)."""
NAME_LIMIT = 32
"""The longest display name at a table (the score sheet has its own limit)."""


PlayerName = Annotated[
    str,
    AfterValidator(partial(tidy_line, limit=NAME_LIMIT)),
    Field(description="Your display name"),
]
"""A player's display name, its spaces tidied (:func:`~salad.server.incoming.tidy_line`)."""


class SeatSpec(StrictIn):
    kind: Literal["human", "bot", "open"] = Field(
        description="human or open: a seat for someone to join; bot: a bot plays it"
    )
    bot: str | None = Field(None, description="The bot's name (its level), e.g. basic")


class RulesIn(StrictIn):  # the rules asked for (salad.server.rules.build_ruleset)
    rules: str = Field("canadian", description="A preset name")
    toppings: list[str] | str | None = Field(None, description="Topping names, or 'all'")
    swap: list[str] | dict[str, str] | None = Field(
        None, description='Rounds swapped in: ["2=no-evens"] or {"2": "no-evens"}'
    )


class RulesFileIn(RulesIn):
    rules_toml: str | None = Field(
        None, max_length=100_000, description="The text of a TOML rules file (overrides rules)"
    )


PACE_TEXT = "How fast the bots play and how long a finished trick stays (default normal)"

RATED_TEXT = "Rate the games against the bots too, at their fixed ratings (docs/ratings.md)"


GROUP_TEXT = (
    "The id of a group you are a member of: the table is the group's (its members alone join "
    "it) and its finished games count in the group's standings"
)


class QuickPlayIn(RulesIn):
    name: PlayerName
    players: int | None = Field(None, ge=2, le=16)
    bot: str | None = Field(None, description="The bot for every other seat")
    pace: PaceName | None = Field(None, description=PACE_TEXT)
    group: str | None = Field(None, max_length=16, description=GROUP_TEXT)
    rated: bool = Field(False, description=RATED_TEXT)


class PaceIn(StrictIn):
    pace: PaceName = Field(description=PACE_TEXT)


class CreateTableIn(RulesFileIn):
    name: PlayerName = Field(description="The host's display name (the host sits in seat 0)")
    players: int | None = Field(None, ge=2, le=16)
    seats: list[SeatSpec] | None = Field(
        None, description="One entry per seat, seat 0 (the host) first; sets the player count"
    )
    turn_timer: float | None = Field(
        None,
        ge=MIN_TURN_TIMER,
        le=MAX_SECONDS,
        description=f"Seconds per move (at least {MIN_TURN_TIMER:g}); on expiry a bot moves",
    )
    bot_takeover: float | None = Field(
        None,
        ge=0,
        le=MAX_SECONDS,
        description="A bot plays for a seat away (no connection) longer than this",
    )
    seed: int | None = Field(None, ge=0, lt=2**63, description="The first game's seed")
    pace: PaceName | None = Field(None, description=PACE_TEXT)
    group: str | None = Field(None, max_length=16, description=GROUP_TEXT)
    rated: bool = Field(False, description=RATED_TEXT)


class JoinIn(StrictIn):
    name: PlayerName
    seat: int | None = Field(None, description="The seat to take (default: the first open)")


class SeatChangeIn(StrictIn):
    kind: Literal["bot", "open"]
    bot: str | None = None


class ErrorOut(BaseModel):
    error: str = Field(description="One line saying what went wrong and where")


def refusals(*described: tuple[int | str, str]) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route's refusals: each status (or ``4XX``) with what it
    means, every one answered with an :class:`ErrorOut`."""
    return {code: {"model": ErrorOut, "description": text} for code, text in described}


class JoinedOut(BaseModel):
    table_id: str
    seat: int
    token: str = Field(description="The seat's secret token; shown once")
    url: str


class CreatedOut(JoinedOut):
    invite_url: str
    watch_url: str


class GameOut(BaseModel):
    game_number: int
    status: Literal["playing", "over"]
    totals: list[int] | None
    winners: list[int]
    players: list[str] = Field(default_factory=list, description="Who sat where, seat by seat")
    started_at: float | None = Field(None, description="When it was dealt (Unix seconds)")
    finished_at: float | None = Field(None, description="When it ended (Unix seconds)")


class PresetOut(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    hands: list[dict[str, Any]]
    toppings: bool


class OptionsOut(BaseModel):
    presets: list[PresetOut]
    toppings: list[dict[str, str]]
    swaps: dict[str, list[dict[str, str]]]
    swap_text: dict[str, dict[str, str]] = Field(
        description="What each swap-in round of a preset does, in a player's words, by its id"
    )
    bots: list[str]


class HealthOut(BaseModel):
    """``GET /healthz``: 200 when the server can serve, 503 when its database does not answer
    or has been found damaged."""

    status: str
    database: str
    """``ok``, or why not (``damaged: ...``, ``unreachable: ...``, ``no answer in 2 s``)."""
    redis: str | None = None
    """A cluster node's Redis: ``ok`` or why not."""
    node: str | None = None
    """A cluster node's id."""
    tables_in_memory: int
    connections: int
    tables_damaged: int = 0
    """Tables this process could not open, what is stored of them being damaged (the log
    names each and says why)."""
