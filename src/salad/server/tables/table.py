"""One table in memory: its seats, its game, its connections, and the lobby it shows."""

from __future__ import annotations

import asyncio
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from salad.engine import Game
from salad.events import DEAL, END, SCORE, TRUMP
from salad.locale import current, using
from salad.moves import Move, parse_move
from salad.ruleset import Kind, Ruleset
from salad.server.info import HandsInfo, deck_info, hands_info, toppings_of
from salad.server.soon import Soon
from salad.server.store import TableRow, hash_token
from salad.server.tables.connection import Conn
from salad.server.tables.pace import TIMINGS, Pace
from salad.server.tables.passing import Choices, choices_of
from salad.server.tables.wire import (
    JsonCodes,
    Receiver,
    TricksCache,
    dumps,
    hand_summary,
    state_messages,
)
from salad.toppings import TOPPING_TEXT
from salad.view import Phase


class PlayerClaim(str):
    """A player's id as the server read it from a request's signed cookie, never a client's
    text: it holds the seat that player sits at, as the seat's token does (another device of
    theirs, a link lost). Made only where the cookie's signature and the request's origin were
    checked (:mod:`salad.server.players`)."""

    __slots__ = ()


class SeatKind(StrEnum):
    """Who sits in a seat (the value is what the database stores and the lobby sends)."""

    HUMAN = "human"
    BOT = "bot"
    OPEN = "open"


class TableStatus(StrEnum):
    """Where a table is (the value is what the database stores and the lobby sends)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"
    DROPPED = "dropped"
    """Let go by this server (another holds it): never stored, nothing more happens to it."""


HUMAN, BOT, OPEN = SeatKind.HUMAN, SeatKind.BOT, SeatKind.OPEN
LOBBY, PLAYING, OVER = TableStatus.LOBBY, TableStatus.PLAYING, TableStatus.OVER
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def token_name(rs: Ruleset) -> str | None:
    """The name of the ruleset's token (the penalty of its holder), if one of its rounds has
    one: the table draws it on its holder's plate."""
    tokens = (p for i in range(len(rs.hands)) for p in rs.hand_penalties(i) if p.kind == Kind.TOKEN)
    return next((p.name for p in tokens), None)


def just_scored(log: list[tuple[object, ...]]) -> bool:
    """Whether the game's last event is a hand's scoring: after it, only what the game does by
    itself (the game's end, the next deal, a trump the ruleset fixes), no seat's move."""
    for entry in reversed(log):
        tag = entry[0]
        if tag == SCORE:
            return True
        if tag in (END, DEAL) or (tag == TRUMP and entry[2] == -1):
            continue
        return False
    return False


@dataclass
class Seat:
    kind: SeatKind
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    player: str | None = None
    """The id of the player the site remembers who sits here (None: none, a bot, open)."""
    conns: list[Conn] = field(default_factory=list)
    away_since: float = 0.0
    """``loop.time()`` when the seat's last connection closed."""
    takeover: bool = False
    """A bot is playing for this away seat."""

    def copy(self) -> Seat:
        return replace(self)


@dataclass
class HandEnd:
    """The table's pause after a hand: its summary stays on every screen until each human seat
    that was connected when it ended has pressed Next hand (or the turn timer runs out). A
    state of the table, not an event of the game, which has already dealt the next hand."""

    hand: int
    """The finished hand's index."""
    summary: dict[str, Any]
    """What the page shows (:func:`salad.server.tables.wire.hand_summary`)."""
    waiting: set[int]
    """The seats still to press Next hand; empty at game over (nothing to wait for)."""

    def json(self) -> str:
        return dumps({**self.summary, "waiting": sorted(self.waiting)})


class Table:
    """One table in memory: what the database holds, plus connections and timers."""

    def __init__(self, row: TableRow, ruleset: Ruleset) -> None:
        self.id = row.id
        self.ruleset = ruleset
        self.turn_timer = row.turn_timer
        self.bot_takeover = row.bot_takeover
        self.pace = next((p for p in Pace if p == row.pace), Pace.NORMAL)
        self.group = row.group_id
        """The group the table was made for (its members alone join it), or None."""
        self.rated = False
        """The table was made rated: its games against bots move ratings too (set by
        :mod:`salad.server.ratings`, which keeps it)."""
        self.group_name: str | None = None
        """That group's name, as the table entered memory (None: unknown)."""
        self.status = TableStatus(row.status)
        self.game_number = row.game_number
        self.first_seed = row.seed
        self.seats = [
            Seat(SeatKind(s.kind), s.name, s.bot, s.token_hash, s.player) for s in row.seats
        ]
        self.game: Game | None = None
        self.moves = 0
        self.epoch: int | None = None
        """The fencing epoch this copy was loaded with (a cluster node's; see TableStore.fence)."""
        self.game_players: list[dict[str, Any]] = []
        self.lock = asyncio.Lock()
        self.spectators: list[Conn] = []
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        self.turn_start = 0.0
        self._lobby_json: dict[str, str] = {}
        """The lobby's JSON in each language asked for (its words: the hands' penalties)."""
        self.version = 0
        """Of the lobby: a connection that has seen this version is not sent it again."""
        self.tricks_cache = TricksCache()
        self.codes: JsonCodes | None = None
        self._drawing: tuple[int, str, dict[str, Any], HandsInfo] | None = None
        self.hand_end: HandEnd | None = None
        self.passes: Choices | None = None
        """The choices of the pass phase under way made before their turn (:mod:`.passing`):
        set by the server's turns when a pass phase begins, None out of one."""
        self.pressing: dict[int, Conn] = {}
        """Next-hand presses waiting to be kept together, by seat (a cluster node's: see
        TableManager.next_hand), and the task that keeps them."""
        self.keeping: asyncio.Task[None] | None = None
        self._soon = False
        """A :meth:`broadcast_soon` waits for the end of this turn of the event loop."""
        self._later: Soon[Table] = Soon(Table._broadcast_if_soon)

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_name(self, seat: int) -> str:
        """How a message to people names a seat: its player's name (counted from 1 if none)."""
        s = self.seats[seat] if 0 <= seat < self.players else None
        return (s.name if s is not None else None) or f"Player {seat + 1}"

    def seat_of_token(self, token: str) -> int | None:
        if isinstance(token, PlayerClaim):  # the seat the player sits at, as its token would
            seats = [i for i, s in enumerate(self.seats) if s.kind == SeatKind.HUMAN]
            return next((i for i in seats if self.seats[i].player == token), None)
        digest = hash_token(token)
        found = None
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = i
        return found

    def changed(self) -> None:
        """Something in the lobby changed: rebuild its JSON next time, and send it again."""
        self._lobby_json = {}
        self.version += 1

    def lobby(self) -> dict[str, Any]:
        """The lobby: seats, status and what a client needs to draw the table, its words in
        the current language."""
        n = self.players
        lang = current().code
        if self._drawing is None or self._drawing[:2] != (n, lang):
            self._drawing = (n, lang, deck_info(self.ruleset, n), hands_info(self.ruleset, n))
        _n, _lang, deck, (lines, hands) = self._drawing
        rs = self.ruleset
        return {
            "table_id": self.id,
            "status": self.status,
            "rules": rs.preset,
            "title": rs.title,
            "players": n,
            "seats": [
                {
                    "seat": i,
                    "kind": s.kind,
                    "name": s.name,
                    "bot": s.bot,
                    "connected": s.kind == BOT or bool(s.conns),
                    "takeover": s.takeover,
                }
                for i, s in enumerate(self.seats)
            ],
            "host": 0,
            "turn_timer": self.turn_timer,
            "bot_takeover": self.bot_takeover,
            "rated": self.rated,
            "pace": self.pace,
            "trick_pause": TIMINGS[self.pace].trick,
            "game_number": self.game_number,
            "min_players": rs.min_players,
            "max_players": rs.max_players,
            "deck": deck,
            "penalty_lines": lines,
            "hands": hands,
            "highest_wins": rs.highest_wins,
            "toppings": toppings_of(rs),
            "passing": rs.passing,
            "pass_direction": rs.pass_direction,
            "topping_text": [TOPPING_TEXT[t] for t in toppings_of(rs) if t in TOPPING_TEXT],
            "marker": token_name(rs),
            "group": None if self.group is None else {"id": self.group, "name": self.group_name},
        }

    def lobby_json(self, lang: str | None = None) -> str:
        """The lobby's JSON in ``lang`` (by default the current language), made once a
        version."""
        lang = current().code if lang is None else lang
        made = self._lobby_json.get(lang)
        if made is None:
            with using(lang):
                made = self._lobby_json[lang] = dumps(self.lobby())
        return made

    def read_move(self, seat: int, text: str) -> Move:
        """The move ``text`` names for ``seat`` (the seat to move): a legal move written exactly
        so (as in ``legal``), else the text read by :func:`salad.moves.parse_move`, which
        raises CardParseError for text that names no move."""
        game = self.game
        assert game is not None
        codes = self.json_codes()
        for move in game.legal_moves():
            if codes.text(move) == text:
                return move
        among = game.hand(seat)
        if game.phase == Phase.PASS:
            among &= ~game.passed[seat]
        return parse_move(game.deck, text, trump=game.phase == Phase.TRUMP, among=among)

    def json_codes(self) -> JsonCodes:
        assert self.game is not None
        self.codes = JsonCodes.of(self.game, self.codes)
        return self.codes

    # -- the pause after a hand --------------------------------------------------------------
    def note_hand_end(self, hands_before: int) -> None:
        """After a move: if it ended a hand, show its summary and wait for every connected human
        seat to press Next hand (no wait when none is connected, or at game over)."""
        game = self.game
        if game is None or len(game.hand_points) <= hands_before:
            return
        end = self._last_hand(game, connected=True)
        self.hand_end = end if end.waiting or game.is_over() else None

    def resume_hand_end(self) -> None:
        """On loading the table: if the game's last event is a hand's scoring, show that hand's
        summary again and wait for every human seat (who had pressed Next hand is not stored);
        one that does not come back is let go as one that leaves (:class:`~.turns.Turns`)."""
        game = self.game
        if game is not None and game.hand_points and just_scored(game.log):
            self.hand_end = self._last_hand(game, connected=False)

    def _last_hand(self, game: Game, *, connected: bool) -> HandEnd:
        """The summary of the game's last finished hand, waiting for every human seat (only
        those ``connected``) unless the game is over."""
        index = len(game.hand_points) - 1
        seats = [] if game.is_over() else enumerate(self.seats)
        waiting = {i for i, s in seats if s.kind == HUMAN and (s.conns or not connected)}
        return HandEnd(index, hand_summary(game, index), waiting)

    def waiting(self) -> bool:
        """Whether the table waits for Next hand (no move is played meanwhile)."""
        return self.hand_end is not None and bool(self.hand_end.waiting)

    def waits_for(self, seat: int) -> bool:
        """Whether a hand's summary waits for ``seat`` to press Next hand."""
        return self.hand_end is not None and seat in self.hand_end.waiting

    def press_next(self, seat: int) -> bool:
        """``seat`` pressed Next hand (or left): True when that ended the wait."""
        end = self.hand_end
        if end is None or seat not in end.waiting:
            return False
        end.waiting.discard(seat)
        if not end.waiting:
            self.hand_end = None
        return self.hand_end is None

    def end_wait(self) -> None:
        """Deal on without waiting for the rest (the turn timer ran out)."""
        if self.waiting():
            self.hand_end = None

    def choices(self) -> Choices | None:
        """The pass phase's choices held (:mod:`.passing`), if the game is in the one they are
        for: the turns start them (:meth:`~.turns.Turns.schedule`)."""
        game, held = self.game, self.passes
        if held is None or choices_of(game, self.game_number, held) is not held:
            return None
        return held

    def connections(self) -> list[Conn]:
        conns = [*self.spectators]
        for s in self.seats:
            conns += s.conns
        return conns

    def state_messages(self) -> Callable[[Receiver], str]:
        """A function giving the ``state`` message for a connection (see
        :func:`salad.server.tables.wire.state_messages`)."""
        return state_messages(
            self.game,
            game_number=self.game_number,
            moves=self.moves,
            deadline=self.deadline,
            lobby_json=self.lobby_json,
            version=self.version,
            cache=self.tricks_cache,
            codes=self.json_codes() if self.game is not None else None,
            hand_end=self.hand_end.json() if self.hand_end is not None else None,
            choices=self.choices(),
        )

    def broadcast(self) -> None:
        """Send every connection the table's state as it is now."""
        self._soon = False  # what a broadcast_soon waiting would send is sent now
        conns = self.connections()
        if conns:
            message = self.state_messages()
            for c in conns:
                c.push(message(c))

    def broadcast_soon(self) -> None:
        """:meth:`broadcast` once this turn of the event loop is over, however often it is asked
        meanwhile (the Next-hand presses of a hand end come together); a broadcast meanwhile
        makes it nothing."""
        if not self._soon:
            self._soon = True
            self._later.add(self)

    @staticmethod
    def _broadcast_if_soon(tables: list[Table]) -> None:
        for table in tables:
            if table._soon:
                table.broadcast()
