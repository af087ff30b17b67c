"""The REST bodies and answers, as pydantic models (they make the OpenAPI description)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SECONDS = 24 * 3600


class _In(BaseModel):
    # Unknown keys are ignored: a newer client still works with an older server.
    model_config = ConfigDict(extra="ignore")


class SeatSpec(_In):
    kind: Literal["human", "bot", "open"] = Field(
        description="human or open: a seat for someone to join; bot: a bot plays it"
    )
    bot: str | None = Field(None, description="The bot's name (its level), e.g. basic")


class QuickPlayIn(_In):
    name: str = Field(description="Your display name")
    rules: str = Field("canadian", description="A preset name")
    players: int | None = Field(None, ge=2, le=16)
    bot: str | None = Field(None, description="The bot for every other seat")
    toppings: list[str] | str | None = Field(None, description="Topping names, or 'all'")
    swap: list[str] | dict[str, str] | None = Field(
        None, description='Rounds swapped in: ["2=no-evens"] or {"2": "no-evens"}'
    )


class CreateTableIn(_In):
    name: str = Field(description="The host's display name (the host sits in seat 0)")
    rules: str = Field("canadian", description="A preset name")
    rules_toml: str | None = Field(
        None, max_length=100_000, description="The text of a TOML rules file (overrides rules)"
    )
    players: int | None = Field(None, ge=2, le=16)
    toppings: list[str] | str | None = None
    swap: list[str] | dict[str, str] | None = None
    seats: list[SeatSpec] | None = Field(
        None, description="One entry per seat, seat 0 (the host) first; sets the player count"
    )
    turn_timer: float | None = Field(
        None, gt=0, le=MAX_SECONDS, description="Seconds per move; on expiry a bot moves"
    )
    bot_takeover: float | None = Field(
        None,
        ge=0,
        le=MAX_SECONDS,
        description="A bot plays for a seat away (no connection) longer than this",
    )
    seed: int | None = Field(None, ge=0, lt=2**63, description="The first game's seed")


class JoinIn(_In):
    name: str = Field(description="Your display name")
    seat: int | None = Field(None, description="The seat to take (default: the first open)")


class SeatChangeIn(_In):
    kind: Literal["bot", "open"]
    bot: str | None = None


class ErrorOut(BaseModel):
    error: str = Field(description="One line saying what went wrong and where")


class CreatedOut(BaseModel):
    table_id: str
    seat: int
    token: str = Field(description="The seat's secret token; shown once")
    invite_url: str
    watch_url: str
    url: str


class JoinedOut(BaseModel):
    table_id: str
    seat: int
    token: str
    url: str


class SeatOut(BaseModel):
    seat: int
    kind: Literal["human", "bot", "open"]
    name: str | None
    bot: str | None
    connected: bool
    takeover: bool = Field(description="A bot is playing for this away seat")


class LobbyOut(BaseModel):
    table_id: str
    status: Literal["lobby", "playing", "over"]
    rules: str
    title: str
    players: int
    seats: list[SeatOut]
    host: int
    turn_timer: float | None
    bot_takeover: float | None
    game_number: int
    min_players: int
    max_players: int
    deck: dict[str, Any]
    hands: list[dict[str, Any]]
    highest_wins: bool
    toppings: list[str]
    passing: int
    pass_direction: str


class GameOut(BaseModel):
    game_number: int
    status: Literal["playing", "over"]
    totals: list[int] | None
    winners: list[int]


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
    bots: list[str]
