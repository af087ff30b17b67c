"""What the server reads and answers, as pydantic models: the REST bodies and answers (they
make the OpenAPI description) and the websocket messages a client sends (docs/protocol.md).

Every check of what a client sends is made here, by the models; a refusal is one line
(:func:`salad.server.errors.one_line`, or the websocket's own words in
:func:`read_client_message`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from salad.server.errors import ActionError, one_line

MAX_SECONDS = 24 * 3600
NAME_LIMIT = 32
"""The longest display name at a table (the score sheet has its own limit)."""
MESSAGE_LIMIT = 4096
"""The longest websocket message a client may send, in characters."""


def clean_player_name(value: str) -> str:
    """A player's display name with its spaces tidied; ValueError saying what is wrong.

    >>> clean_player_name("  Ann   Lee ")
    'Ann Lee'
    """
    name = " ".join(value.split())
    if not name:
        raise ValueError("must not be empty")
    if len(name) > NAME_LIMIT:
        raise ValueError(f"at most {NAME_LIMIT} characters, not {len(name)}")
    if any(not ch.isprintable() for ch in name):
        raise ValueError("must not hold control characters")
    return name


PlayerName = Annotated[
    str, AfterValidator(clean_player_name), Field(description="Your display name")
]
"""A display name as a client sends it: tidied and checked by :func:`clean_player_name`."""


class _In(BaseModel):
    # Unknown keys are ignored: a newer client still works with an older server. Types are
    # strict: "4" is not a number and true is not a number of seconds (JSON has its own).
    model_config = ConfigDict(extra="ignore", strict=True)


class SeatSpec(_In):
    kind: Literal["human", "bot", "open"] = Field(
        description="human or open: a seat for someone to join; bot: a bot plays it"
    )
    bot: str | None = Field(None, description="The bot's name (its level), e.g. basic")


class QuickPlayIn(_In):
    name: PlayerName
    rules: str = Field("canadian", description="A preset name")
    players: int | None = Field(None, ge=2, le=16)
    bot: str | None = Field(None, description="The bot for every other seat")
    toppings: list[str] | str | None = Field(None, description="Topping names, or 'all'")
    swap: list[str] | dict[str, str] | None = Field(
        None, description='Rounds swapped in: ["2=no-evens"] or {"2": "no-evens"}'
    )


class CreateTableIn(_In):
    name: PlayerName = Field(description="The host's display name (the host sits in seat 0)")
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
    name: PlayerName
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
    topping_text: list[str] = Field(
        default_factory=list, description="Each topping in play: its name, then what it does"
    )
    marker: str | None = Field(
        None, description="The name of the piece a seat may hold for a penalty (a token)"
    )


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
    bots: list[str]


class HealthOut(BaseModel):
    """``GET /healthz``: 200 when the server can serve, 503 when its database does not answer."""

    status: str
    database: str
    redis: str | None = None
    """A cluster node's Redis: ``ok`` or why not."""
    node: str | None = None
    """A cluster node's id."""
    tables_in_memory: int
    connections: int


# -- the websocket: what a client sends (docs/protocol.md) --------------------------------------


class _Message(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


class PingIn(_Message):
    """``{"type": "ping"}``: answered ``{"type": "pong"}``."""

    type: Literal["ping"]


class PlayIn(_Message):
    """``{"type": "play", "move": "QS"}``: the seat's move as text (``QS``, ``W+``, ``trump:H``)."""

    type: Literal["play"]
    move: str


class NextIn(_Message):
    """``{"type": "next"}``: this seat has seen the hand's summary; the next hand starts once
    every connected human seat has sent it (or the turn timer runs out)."""

    type: Literal["next"]


class HelloIn(_Message):
    """``{"type": "hello", "token": "..."}``, a connection's first message: the seat's token
    (sent here rather than in the URL, which servers and proxies write to their logs)."""

    type: Literal["hello"]
    token: str = Field(max_length=256)


# -- table talk and help against bots (salad.server.tables.talk, .assist) --

CHAT_LIMIT = 200
"""The longest chat line, in characters."""
EMOTES = ("nice", "haha", "wow", "ouch", "gg", "oops")
"""The quick reactions a client may send (each page draws its own picture of them)."""


def clean_chat_text(value: str) -> str:
    """A chat line with its spaces tidied; ValueError saying what is wrong.

    >>> clean_chat_text("  well   played ")
    'well played'
    """
    text = " ".join(value.split())
    if not text:
        raise ValueError("must not be empty")
    if len(text) > CHAT_LIMIT:
        raise ValueError(f"at most {CHAT_LIMIT} characters, not {len(text)}")
    if any(not ch.isprintable() for ch in text):
        raise ValueError("must not hold control characters")
    return text


class ChatIn(_Message):
    """``{"type": "chat", "text": "nice one"}`` or ``{"type": "chat", "emote": "gg"}``."""

    type: Literal["chat"]
    text: Annotated[str, AfterValidator(clean_chat_text)] | None = None
    emote: Literal["nice", "haha", "wow", "ouch", "gg", "oops"] | None = None


class ChatSettingsIn(_Message):
    """``{"type": "chat_settings", "spectators": true}`` (the host): may spectators write?"""

    type: Literal["chat_settings"]
    spectators: bool


class HintIn(_Message):
    """``{"type": "hint"}``: the expert's move for this seat, and why (tables of bots)."""

    type: Literal["hint"]


class UndoIn(_Message):
    """``{"type": "undo"}``: take back this seat's last move and the bots' after it."""

    type: Literal["undo"]


TalkIn = ChatIn | ChatSettingsIn
AssistIn = HintIn | UndoIn
Incoming = PingIn | PlayIn | NextIn | ChatIn | ChatSettingsIn | HintIn | UndoIn

ClientMessage = Annotated[Incoming, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Incoming] = TypeAdapter(ClientMessage)
MESSAGE_TYPES = ("play", "ping", "next", "chat", "chat_settings", "hint", "undo")


def read_client_message(text: str | None) -> Incoming:
    """A websocket message from a client; ActionError (one line) if it is not one.

    >>> read_client_message('{"type": "play", "move": "QS"}')
    PlayIn(type='play', move='QS')
    >>> read_client_message('{"type": "play", "move": 12}')
    Traceback (most recent call last):
    ...
    salad.server.errors.ActionError: play: "move" must be a card or choice as text, such as "QS"
    """
    data = _load(text)
    try:
        return _CLIENT_MESSAGE.validate_python(data)
    except ValidationError as exc:
        raise ActionError(_message_problem(data, exc)) from None


def read_hello(text: str | None) -> HelloIn | None:
    """A connection's first message as a ``hello`` (its seat's token); None if it is another
    message, ActionError (one line) if it is a bad ``hello`` or no message at all.

    >>> read_hello('{"type": "hello", "token": "abc"}')
    HelloIn(type='hello', token='abc')
    >>> read_hello('{"type": "ping"}') is None
    True
    """
    data = _load(text)
    if not isinstance(data, dict) or data.get("type") != "hello":
        return None
    try:
        return HelloIn.model_validate(data)
    except ValidationError:
        raise ActionError('hello: "token" must be the seat\'s token as text') from None


def _load(text: str | None) -> Any:
    """A websocket message's JSON; ActionError (one line) if it is none."""
    if text is None:
        raise ActionError("binary messages are not understood; send JSON text")
    if len(text) > MESSAGE_LIMIT:
        raise ActionError(f"message too long ({len(text)} characters)")
    try:
        return json.loads(text)
    except RecursionError:
        raise ActionError("not JSON that a message can be: nested too deeply") from None
    except ValueError as exc:
        raise ActionError(f"not JSON: {exc}") from None


def _message_problem(data: Any, exc: ValidationError) -> str:
    """What pydantic found wrong with a websocket message, in the protocol's own words."""
    err = exc.errors()[0]
    if err["type"] == "model_attributes_type":
        return 'a message must be a JSON object such as {"type": "ping"}'
    if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
        known = ", ".join(MESSAGE_TYPES)
        return f"unknown message type {data.get('type')!r} (known: {known})"
    if err["loc"][:2] == ("play", "move"):
        return 'play: "move" must be a card or choice as text, such as "QS"'
    if err["loc"][:2] == ("chat", "emote"):
        return f"chat: emote must be one of {', '.join(EMOTES)}"
    return one_line([err])
