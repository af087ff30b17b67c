"""The websocket protocol, written once: every message the server sends (``*Out``) here and
every message a client sends (``*In``) in :mod:`salad.server.incoming`, as pydantic models
(docs/protocol.md).

:mod:`salad.server.protocol_schema` generates the JSON Schema and the web client's types from
them; :func:`~salad.server.incoming.read_client_message` reads a client's message (a refusal
is one line); the fast
:mod:`salad.server.tables.wire` writes ``state`` messages, which a test checks against
:class:`StateOut`. A ``state`` may leave out the fields marked :data:`KEPT_FIELD`; a client
keeps the last of each (:func:`salad.server.protocol.complete_state`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    MISSING,
    BaseModel,
    ConfigDict,
    Field,
)

from salad.server.incoming import (
    Emote,
    PaceName,
)

KEPT_FIELD = "kept"
"""The JSON Schema keyword (true) of a field a ``state`` leaves out when its connection has it."""


def kept(description: str) -> Any:
    """A field a ``state`` may leave out (absent, never null, when left out)."""
    return Field(MISSING, description=description, json_schema_extra={KEPT_FIELD: True})


def kept_keys(model: type[BaseModel]) -> tuple[str, ...]:
    """The keys of ``model`` marked as kept, in the model's order.

    >>> kept_keys(StateOut)
    ('table', 'last_trick', 'hand_rounds', 'winners')
    >>> kept_keys(ViewOut)
    ('tricks',)
    """
    return tuple(
        name
        for name, field in model.model_fields.items()
        if isinstance(field.json_schema_extra, dict) and field.json_schema_extra.get(KEPT_FIELD)
    )


# -- what the server sends ----------------------------------------------------------------------


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a test checks many games' states against them


class SuitOut(_Out):
    """A suit of the deck: its letter in card codes (``S``), its name and its symbol (``♠``)."""

    letter: str
    name: str
    symbol: str
    art: str | MISSING = Field(MISSING, description="A drawing's name (Skip the Salad's)")


class RankOut(_Out):
    """A rank (low to high): its letter in card codes, its name, and its card face."""

    letter: str
    name: str
    label: str = Field(description="What a card shows: 10 for T")
    text: str | MISSING = Field(
        MISSING, description="How a person reads the rank where the label misleads"
    )


class WildOut(_Out):
    """A wild card of the table's deck."""

    code: str
    name: str
    symbol: str
    declare: bool = Field(description="Its player declares it high (W+) or low")


class DeckOut(_Out):
    """The concrete deck for the table's player count (salad.server.info.deck_info)."""

    suits: list[SuitOut]
    ranks: list[RankOut]
    wilds: list[WildOut]
    cards_each: int


class MarkOut(_Out):
    """A suit, or one card, that a round names itself: ``suit`` indexes the deck's suits."""

    suit: int
    card: str | MISSING = MISSING


class HandInfoOut(_Out):
    """A round of the game in playing order, its penalties by their place in the lobby's
    ``penalty_lines``."""

    number: int
    round: str
    penalties: list[int] = Field(description="Indexes into the lobby's penalty_lines")
    total: int
    marks: list[MarkOut]


class SeatOut(_Out):
    """A seat of the lobby: who sits there, and whether they are connected."""

    seat: int
    kind: Literal["human", "bot", "open"]
    name: str | None
    bot: str | None
    connected: bool
    takeover: bool = Field(description="A bot is playing for this away seat")


class TableGroupOut(_Out):
    """The group a table was made for: its members alone take its seats."""

    id: str
    name: str | None = Field(description="The group's name (null: not known to this server)")


class LobbyOut(_Out):
    """The lobby: ``GET /api/tables/{id}`` and the ``table`` of a ``state``."""

    table_id: str
    status: Literal["lobby", "playing", "over"]
    rules: str
    title: str
    players: int
    seats: list[SeatOut]
    host: int
    turn_timer: float | None
    bot_takeover: float | None
    rated: bool = Field(
        False,
        description="The table was made rated: its games against bots move ratings too (a game "
        "with two players the site knows is rated at any table)",
    )
    pace: PaceName = Field(
        description="How fast the bots play and how long a finished trick stays (the host's)"
    )
    trick_pause: float = Field(description="Seconds a finished trick stays on the table")
    game_number: int
    min_players: int
    max_players: int
    deck: DeckOut
    penalty_lines: list[str] = Field(
        description='Each penalty of the game in words, once ("Name: words"): the hands\' '
        "penalties are their indexes"
    )
    hands: list[HandInfoOut]
    highest_wins: bool
    toppings: list[str]
    passing: int = Field(description="How many cards each seat passes before a hand (0: none)")
    pass_direction: str
    topping_text: list[str] = Field(
        default_factory=list, description="Each topping in play: its name, then what it does"
    )
    marker: str | None = Field(
        None, description="The name of the piece a seat may hold for a penalty (a token)"
    )
    group: TableGroupOut | None = Field(
        None, description="The group the table is for (its members alone join), or null"
    )


class TrickOut(_Out):
    """A finished trick of the hand: its cards in the order played."""

    leader: int
    cards: list[str]
    winner: int


class ViewOut(_Out):
    """What a seat (or a spectator, seat -1) sees of the game: ``View.to_dict()``."""

    seat: int
    players: int
    phase: Literal["deal", "pass", "trump", "play", "over"]
    hand: int = Field(description="From 1")
    round: str
    dealer: int
    to_move: int
    cards: list[str] = Field(description="The seat's own cards (none for a spectator)")
    legal: list[str] = Field(description="The seat's legal moves now")
    leader: int
    trick: list[tuple[int, str]] = Field(description="Seat and card of each card of this trick")
    led_suit: str | None
    trump: str | None
    tricks: list[TrickOut] | MISSING = kept("This hand's finished tricks")
    hand_sizes: list[int]
    tricks_won: list[int]
    running: list[int] = Field(description="This hand's penalties so far, seat by seat")
    token: int | None
    hand_points: list[list[int]]
    totals: list[int]
    passed: list[str]
    received: list[str]


class LastTrickOut(_Out):
    """The game's last finished trick (it may be of the previous hand)."""

    leader: int
    cards: list[tuple[int, str]]
    winner: int


class HandRoundOut(_Out):
    """A finished hand: its round and each seat's points."""

    number: int
    round: str
    points: list[int]


class PenaltyOut(_Out):
    """A penalty of a hand's summary: its id (the key of its points), its name and its cost."""

    id: str
    name: str
    each: int | None = Field(None, description="Points a trick or card of it costs (null: Moon)")


class HandEndOut(_Out):
    """The summary of the hand just finished while the table waits for Next hand (and of the
    last hand once the game is over; salad.server.tables.wire.hand_summary)."""

    hand: int
    round: str
    penalties: list[PenaltyOut]
    seats: list[dict[str, int]] = Field(description="Each seat's points by penalty id, and moon")
    moon: int = Field(description="The seat that shot the moon, or -1")
    points: list[int]
    totals: list[int]
    standings: list[int]
    waiting: list[int] = Field(description="The seats whose Next hand the table waits for")


class PassingOut(_Out):
    """A pass phase played at once, every seat choosing when it likes (docs/protocol.md,
    "Passing at once"): what this seat may choose now and has chosen, who is still choosing."""

    legal: list[str] = Field(description="The cards this seat may choose now (none once done)")
    chosen: list[str] = Field(description="The cards it has chosen, before its turn or at it")
    choosing: list[int] = Field(description="The seats still choosing, the next to pass first")


class StateOut(_Out):
    """``state``: the table as one seat (``you``, -1 for a spectator) sees it, sent on connect
    and after every change; the kept fields are left out when the connection has them."""

    type: Literal["state"]
    you: int
    view: ViewOut | None = Field(description="null before the game starts")
    deadline: float | None = Field(description="When the turn timer runs out (Unix seconds)")
    moves: int = Field(description="The moves of the current game so far")
    hand_end: HandEndOut | None
    passing: PassingOut | MISSING = Field(
        MISSING, description="In a pass phase played at once (the view stays the engine's)"
    )
    table: LobbyOut | MISSING = kept("The lobby, when it changed since the last one sent")
    last_trick: LastTrickOut | None | MISSING = kept("The game's last finished trick")
    hand_rounds: list[HandRoundOut] | MISSING = kept("Every finished hand")
    winners: list[int] | MISSING = kept("The winning seats once the game is over")


class ErrorMessageOut(_Out):
    """``error``: one line saying what was refused; nothing changed."""

    type: Literal["error"]
    message: str


class PongOut(_Out):
    """``pong``: the answer to a ``ping``."""

    type: Literal["pong"]


class ChatLineOut(_Out):
    """A chat line or reaction (``text`` or ``emote``) and who said it when."""

    seat: int = Field(description="-1: a spectator")
    name: str
    at: float = Field(description="Unix seconds")
    text: str | MISSING = MISSING
    emote: Emote | MISSING = MISSING


class ChatOut(ChatLineOut):
    """``chat``: a line or reaction said at the table, to every connection of it."""

    type: Literal["chat"]


class ChatLogOut(_Out):
    """The table's recent lines, oldest first, and whether spectators may write: on connect."""

    type: Literal["chat_log"]
    lines: list[ChatLineOut]
    spectators: bool


class ChatSettingsOut(_Out):
    """``chat_settings``: whether spectators may write, as the host just set it."""

    type: Literal["chat_settings"]
    spectators: bool


class HintOut(_Out):
    """The expert's move for the seat and why; ``moves`` says for which state."""

    type: Literal["hint"]
    move: str
    reason: str
    bot: str
    moves: int


class UndoneOut(_Out):
    """A seat took back ``count`` moves (its own and the bots' after it); ``moves`` are left."""

    type: Literal["undone"]
    seat: int
    count: int
    moves: int


TalkOut = ChatOut | ChatLogOut | ChatSettingsOut
"""The table talk's messages."""
Outgoing = StateOut | ErrorMessageOut | PongOut | TalkOut | HintOut | UndoneOut
ServerMessage = Annotated[Outgoing, Field(discriminator="type")]
"""Every message the server sends."""
