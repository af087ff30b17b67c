"""Tables in memory: seats, the game, websocket fan-out, bots and timers.

The :class:`TableManager` is the only thing that changes a table. Every change (a move, a seat
joining, a game starting) happens under the table's lock, is written to the database through
the :class:`~salad.server.storage.Writer` and only then applied in memory and broadcast, so a
server killed at any moment has told nobody about anything it had not stored.

Every message a seat receives is built from that seat's own view of the game (see
:func:`view_json`), so it never holds another seat's hidden cards.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import multiprocessing
import os
import re
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable, Coroutine
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from salad.cards import NO_SUIT, cards_of
from salad.engine import Game
from salad.errors import SaladError
from salad.events import PLAY, TRICK
from salad.formats.rules import load_ruleset
from salad.ruleset import Ruleset
from salad.server.botwork import RANDOM, bot_seed, choose_move
from salad.server.info import available_bots, deck_info, hands_info, toppings_of
from salad.server.storage import (
    MoveRow,
    SeatRow,
    Storage,
    TableRow,
    Writer,
    hash_token,
)
from salad.view import SPECTATOR, Phase

__all__ = [
    "ActionError",
    "Conn",
    "Seat",
    "Table",
    "TableManager",
    "shard_of",
    "view_json",
]

log = logging.getLogger("salad.server")

HUMAN, BOT, OPEN = "human", "bot", "open"
LOBBY, PLAYING, OVER = "lobby", "playing", "over"
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
NAME_LIMIT = 32
MOVE_TEXT_LIMIT = 16
OUTBOX_LIMIT = 512
"""A connection this many messages behind is closed (the client reconnects and catches up)."""
BOT_TIMEOUT = 30.0
"""A bot that has not answered after this many seconds is replaced by a random legal move."""

_COMPACT = (",", ":")


class ActionError(Exception):
    """A refused request: one line for the client and an HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class Socket(Protocol):
    """What a connection needs of a websocket (Starlette's ``WebSocket`` has it)."""

    def send_text(self, data: str) -> Coroutine[Any, Any, None]: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Conn:
    """One websocket: a seat (or ``SPECTATOR``) and an outbox, so that a slow client never
    holds up a table.

    A message to an idle connection is written at once (the websocket's send completes without
    waiting while the socket takes data); only when the socket is full does the message go to
    the outbox, which a task of the connection drains in order.
    """

    __slots__ = ("ws", "seat", "outbox", "task", "closed", "version", "tricks")

    def __init__(self, ws: Socket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.version = -1
        """The version of the table's lobby this connection was last sent."""
        self.tricks: tuple[int, tuple[int, int, Phase] | None] | None = None
        """The (game, trick) whose finished tricks, last trick, hand rounds and winners this
        connection was last sent (they change only when a trick ends)."""
        self.outbox: deque[str | tuple[int, str]] = deque()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.task is None and self._send_now(text):
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.kick(1008, "too far behind; reconnect")
            return
        self._queue(text)

    def _send_now(self, text: str) -> bool:
        """Send without a task if the send does not have to wait; False if it would."""
        coro = self.ws.send_text(text)
        try:
            coro.send(None)
        except StopIteration:
            return True
        except Exception:  # the client went away; the receive loop notices too
            self.closed = True
            return True
        coro.close()  # it waits for the socket to drain: nothing was sent, the outbox sends it
        return False

    def _queue(self, item: str | tuple[int, str]) -> None:
        self.outbox.append(item)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._drain())

    def kick(self, code: int, message: str) -> None:
        """Send one error message, then close."""
        if self.closed:
            return
        self._queue(error_message(message))
        self._queue((code, message[:120]))
        self.closed = True

    async def _drain(self) -> None:
        try:
            while self.outbox:
                item = self.outbox.popleft()
                if isinstance(item, tuple):
                    self.closed = True
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                await self.ws.send_text(item)
        except Exception:  # the client went away; the receive loop notices too
            self.closed = True
        finally:
            self.task = None

    def stop(self) -> None:
        self.closed = True
        self.outbox.clear()
        if self.task is not None and not self.task.done():
            self.task.cancel()


@dataclass
class Seat:
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    conns: list[Conn] = field(default_factory=list)
    away_since: float = 0.0
    """``loop.time()`` when the seat's last connection closed."""
    takeover: bool = False
    """A bot is playing for this away seat."""

    def row(self, seat: int) -> SeatRow:
        return SeatRow(seat, self.kind, self.name, self.bot, self.token_hash)

    def copy(self) -> Seat:
        return Seat(
            self.kind,
            self.name,
            self.bot,
            self.token_hash,
            self.conns,
            self.away_since,
            self.takeover,
        )


def shard_of(table_id: str, workers: int) -> int:
    """The worker process (of ``workers``) that holds a table: a stable hash of its id.

    >>> shard_of("abc", 1), shard_of("abc", 2), shard_of("abd", 2)
    (0, 0, 1)
    """
    return zlib.crc32(table_id.encode()) % workers


def error_message(message: str) -> str:
    return json.dumps({"type": "error", "message": " ".join(message.split())})


def check_name(value: Any, what: str = "name") -> str:
    if not isinstance(value, str):
        raise ActionError(f"{what}: must be text")
    name = " ".join(value.split())
    if not name:
        raise ActionError(f"{what}: must not be empty")
    if len(name) > NAME_LIMIT:
        raise ActionError(f"{what}: at most {NAME_LIMIT} characters, not {len(name)}")
    if any(not ch.isprintable() for ch in name):
        raise ActionError(f"{what}: must not hold control characters")
    return name


def bot_display_name(bot: str, seat: int) -> str:
    return f"{bot.replace('-', ' ').title()} bot {seat}"


def check_bot(value: Any, what: str = "bot") -> str:
    bots = available_bots()
    if value is None:
        return default_bot()
    if not isinstance(value, str) or value.strip().lower() not in bots:
        raise ActionError(f"{what}: unknown bot {value!r} (known: {', '.join(bots)})")
    return value.strip().lower()


def default_bot() -> str:
    """The bot that fills seats when none is named, and plays for away or timed-out seats."""
    return "basic" if "basic" in available_bots() else RANDOM


def new_token() -> str:
    return secrets.token_urlsafe(24)


# -- views --------------------------------------------------------------------------------


def view_json(
    game: Game, seat: int, common: str | None = None, codes: JsonCodes | None = None
) -> str:
    """``json.dumps(game.view(seat).to_dict())``, built fast for many seats at once.

    Only five fields of a view depend on the seat (``seat``, ``cards``, ``legal``, ``passed``,
    ``received``); everything else is the same for every seat and is passed as ``common`` (see
    :func:`common_view_json`). The seat's fields come from that seat's own hand only.
    """
    if common is None:
        common = common_view_json(game)
    return _seat_part(game, seat, codes) + common + "}"


def _seat_part(game: Game, seat: int, codes: JsonCodes | None = None) -> str:
    """The start of a view's JSON: its five fields that depend on the seat, and a comma."""
    if seat == SPECTATOR:
        return '{"seat":-1,"cards":[],"legal":[],"passed":[],"received":[],'
    if codes is None or codes.deck is not game.deck:
        codes = JsonCodes(game)
    cards = codes.cards
    legal = ""
    if seat == game.to_move:
        legal = ",".join([codes.move(game, m) for m in game.legal_moves()])
    return (
        f'{{"seat":{seat:d},"cards":['
        + ",".join([cards[c] for c in cards_of(game.hand(seat))])
        + '],"legal":['
        + legal
        + '],"passed":['
        + (",".join([cards[c] for c in cards_of(passed)]) if (passed := game.passed[seat]) else "")
        + '],"received":['
        + (",".join([cards[c] for c in cards_of(got)]) if (got := game.received[seat]) else "")
        + "],"
    )


class JsonCodes:
    """A deck's card codes and moves as JSON strings (each made once)."""

    def __init__(self, game: Game) -> None:
        self.deck = game.deck
        self.cards = tuple(json.dumps(code) for code in game.deck.codes)
        self.moves: dict[int, str] = {}
        self.texts: dict[int, str] = {}

    def text(self, game: Game, move: int) -> str:
        """A move as the server writes it (``QS``, ``W+``, ``trump:H``)."""
        text = self.texts.get(move)
        if text is None:
            text = self.texts[move] = game.format_move(move)
        return text

    def move(self, game: Game, move: int) -> str:
        text = self.moves.get(move)
        if text is None:
            text = self.moves[move] = json.dumps(game.format_move(move))
        return text


def common_view_json(game: Game, cache: TricksCache | None = None) -> str:
    """The fields of a view that every seat shares, as the inside of a JSON object.

    The same fields, with the same values, as ``game.view(SPECTATOR).to_dict()`` (a test
    checks it after every move of many games); built from the game's public state directly,
    with the finished tricks of the hand (the bulk of it) cached until the next trick ends.
    """
    public, tricks = common_view_parts(game, cache)
    return public + ',"tricks":' + tricks


def common_view_parts(game: Game, cache: TricksCache | None = None) -> tuple[str, str]:
    """:func:`common_view_json` in two parts: every field but ``tricks``, and ``tricks``."""
    phase = game.phase
    in_trick = phase == Phase.PLAY
    deck = game.deck
    fmt = game.format_move
    suits = deck.suits
    hand, done = game.hand_index, game.trick_no
    key = (hand, done, phase)
    if cache is not None and cache.key == key:
        tricks = cache.text
    else:
        if done == 0 and phase != Phase.OVER:
            tricks = "[]"  # no trick of this hand has been finished yet
        elif cache is not None and cache.key == (hand, done - 1, phase) and phase == Phase.PLAY:
            # One more trick: add it to the list.
            last = last_trick(game)
            assert last is not None
            entry = {
                "leader": last["leader"],
                "cards": [code for _, code in last["cards"]],
                "winner": last["winner"],
            }
            text = json.dumps(entry, separators=_COMPACT)
            tricks = cache.text[:-1] + ("," if cache.text != "[]" else "") + text + "]"
        else:
            tricks = json.dumps(game.view(SPECTATOR).to_dict()["tricks"], separators=_COMPACT)
        if cache is not None:
            cache.key, cache.text = key, tricks
    leader = game.leader
    n = game.players
    moving = {
        "phase": phase.name.lower(),
        "to_move": game.to_move,
        "leader": leader,
        "trick": [[(leader + i) % n, fmt(m)] for i, m in enumerate(game.trick)] if in_trick else [],
        "led_suit": suits[game.led].letter if in_trick and game.led != NO_SUIT else None,
        "hand_sizes": [h.bit_count() for h in game.hands],
    }
    # The rest changes only when a trick (or the phase) ends: cached with the tricks.
    if cache is not None and cache.public_key == key:
        settled = cache.public
    else:
        settled = json.dumps(
            {
                "players": n,
                "hand": game.hand_index + 1,
                "round": game.round_name,
                "dealer": game.dealer,
                "trump": suits[game.trump].letter if game.trump != NO_SUIT else None,
                "tricks_won": list(game.tricks_won),
                "running": game.running_points(),
                "token": game.token,
                "hand_points": [list(p) for p in game.hand_points],
                "totals": list(game.totals),
            },
            separators=_COMPACT,
        )[1:-1]
        if cache is not None:
            cache.public_key, cache.public = key, settled
    return json.dumps(moving, separators=_COMPACT)[1:-1] + "," + settled, tricks


@dataclass
class TricksCache:
    """The JSON of the finished tricks of the hand, and the (hand, trick, phase) it is for."""

    key: tuple[int, int, Phase] | None = None
    text: str = "[]"
    extras_key: tuple[int, int, Phase] | None = None
    extras: str = ""
    public_key: tuple[int, int, Phase] | None = None
    public: str = ""


def last_trick(game: Game) -> dict[str, Any] | None:
    """The most recently finished trick of the game (it may belong to the previous hand)."""
    entries = game.log
    n = game.players
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        if entry[0] != TRICK:
            continue
        plays = [e for e in entries[max(0, i - n) : i] if e[0] == PLAY]
        cards = [[int(e[1]), game.format_move(int(e[2]))] for e in plays]  # type: ignore[call-overload]
        return {
            "leader": cards[0][0] if cards else -1,
            "cards": cards,
            "winner": int(entry[3]),  # type: ignore[call-overload]
        }
    return None


def hand_rounds(game: Game) -> list[dict[str, Any]]:
    return [
        {"number": i + 1, "round": game.rules.hands[i].round.name, "points": list(points)}
        for i, points in enumerate(game.hand_points)
    ]


# -- a table ------------------------------------------------------------------------------


class Table:
    """One table in memory: what the database holds, plus connections and timers."""

    def __init__(self, row: TableRow, ruleset: Ruleset) -> None:
        self.id = row.id
        self.ruleset = ruleset
        self.turn_timer = row.turn_timer
        self.bot_takeover = row.bot_takeover
        self.status = row.status
        self.game_number = row.game_number
        self.first_seed = row.seed
        self.seats = [Seat(s.kind, s.name, s.bot, s.token_hash) for s in row.seats]
        self.game: Game | None = None
        self.moves = 0
        self.game_players: list[dict[str, Any]] = []
        self.lock = asyncio.Lock()
        self.spectators: list[Conn] = []
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None
        self.turn_start = 0.0
        self._lobby_json: str | None = None
        self.version = 0
        """Of the lobby: a connection that has seen this version is not sent it again."""
        self.tricks_cache = TricksCache()
        self.codes: JsonCodes | None = None
        self._drawing: tuple[int, dict[str, Any], list[dict[str, Any]]] | None = None

    @property
    def players(self) -> int:
        return len(self.seats)

    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        found = None
        for i, s in enumerate(self.seats):
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                found = i
        return found

    def changed(self) -> None:
        """Something in the lobby changed: rebuild its JSON next time, and send it again."""
        self._lobby_json = None
        self.version += 1

    def lobby(self) -> dict[str, Any]:
        n = self.players
        if self._drawing is None or self._drawing[0] != n:
            self._drawing = (n, deck_info(self.ruleset, n), hands_info(self.ruleset, n))
        _, deck, hands = self._drawing
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
            "game_number": self.game_number,
            "min_players": rs.min_players,
            "max_players": rs.max_players,
            "deck": deck,
            "hands": hands,
            "highest_wins": rs.highest_wins,
            "toppings": toppings_of(rs),
            "passing": rs.passing,
            "pass_direction": rs.pass_direction,
        }

    def lobby_json(self) -> str:
        if self._lobby_json is None:
            self._lobby_json = json.dumps(self.lobby(), separators=_COMPACT)
        return self._lobby_json

    def legal_move(self, text: str) -> int | None:
        """The legal move written exactly ``text`` (as in ``legal``), if there is one."""
        game = self.game
        if game is None:
            return None
        codes = self.json_codes()
        for move in game.legal_moves():
            if codes.text(game, move) == text:
                return move
        return None

    def json_codes(self) -> JsonCodes:
        assert self.game is not None
        if self.codes is None or self.codes.deck is not self.game.deck:
            self.codes = JsonCodes(self.game)
        return self.codes

    def connections(self) -> list[Conn]:
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def state_messages(self) -> Callable[[Conn], str]:
        """A function giving the ``state`` message for a connection; the parts every seat
        shares are built once.

        What a connection already has is left out: the lobby (``table``) when it has this
        version of it, and the parts that change only when a trick ends (the view's
        ``tricks``, ``last_trick``, ``hand_rounds``, ``winners``: most of a message) when it
        has them for this trick. A client keeps the last of each (docs/protocol.md).
        """
        game = self.game
        public = ""
        tricks = "[]"
        slow = '"winners":[],"last_trick":null,"hand_rounds":[]'
        key: tuple[int, tuple[int, int, Phase] | None] = (self.game_number, None)
        if game is not None:
            public, tricks = common_view_parts(game, self.tricks_cache)
            self.json_codes()
            # These change only when a trick ends: cached with the tricks.
            cache = self.tricks_cache
            if cache.extras_key != cache.key:
                cache.extras_key = cache.key
                cache.extras = json.dumps(
                    {
                        "winners": game.winners(),
                        "last_trick": last_trick(game),
                        "hand_rounds": hand_rounds(game),
                    },
                    separators=_COMPACT,
                )[1:-1]
            slow = cache.extras
            key = (self.game_number, cache.key)
        deadline = "null" if self.deadline is None else repr(float(self.deadline))
        tail = f',"deadline":{deadline},"moves":{self.moves:d}'
        lobby = ',"table":' + self.lobby_json()
        version = self.version
        per_seat: dict[tuple[int, bool], str] = {}

        def message(conn: Conn) -> str:
            seat = conn.seat
            full = conn.tricks != key
            text = per_seat.get((seat, full))
            if text is None:
                if game is None:
                    view = "null"
                else:
                    view = _seat_part(game, seat, self.codes) + public
                    view += ',"tricks":' + tricks + "}" if full else "}"
                text = '{"type":"state","you":' + str(seat) + ',"view":' + view + tail
                if full:
                    text += "," + slow
                per_seat[seat, full] = text
            conn.tricks = key
            if conn.version == version:
                return text + "}"
            conn.version = version
            return text + lobby + "}"

        return message

    def broadcast(self) -> None:
        message: Callable[[Conn], str] | None = None
        for s in self.seats:
            for c in s.conns:
                if message is None:
                    message = self.state_messages()
                c.push(message(c))
        for c in self.spectators:
            if message is None:
                message = self.state_messages()
            c.push(message(c))


# -- the manager --------------------------------------------------------------------------


@dataclass
class Joined:
    table_id: str
    seat: int
    token: str


class TableManager:
    """Every table of the server; creates, loads, changes and plays them."""

    def __init__(
        self,
        storage: Storage,
        bot_delay: float = 0.0,
        bot_workers: int | None = None,
        shard: tuple[int, int] = (0, 1),
    ) -> None:
        self.storage = storage
        self.shard = shard
        """(this process, of how many): the tables this manager holds are those it
        :meth:`owns` (see :mod:`salad.server.workers`)."""
        # With several processes on one SQLite file, a commit may wait for another
        # process's: let it wait on the writer thread, never on the event loop.
        self.writer = Writer(storage, inline=False if shard[1] > 1 else None)
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._pool: Executor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    def owns(self, table_id: str) -> bool:
        """Whether the table is this manager's (always, unless the server has workers)."""
        index, count = self.shard
        return count == 1 or shard_of(table_id, count) == index

    # -- life cycle -----------------------------------------------------------------------
    async def open(self) -> None:
        """Start the writer and resume every table (of this shard) with a game in progress."""
        self.writer.start()
        # Find the bots that load here now (it imports them), not during a request.
        await asyncio.get_running_loop().run_in_executor(None, available_bots)
        ids = [t for t in await self.writer.call(Storage.active_tables) if self.owns(t)]
        for table_id in ids:
            try:
                await self.get(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
        if ids:
            log.info("resumed %d table(s) with a game in progress", len(ids))

    async def close(self) -> None:
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for c in table.connections():
                c.stop()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await asyncio.get_running_loop().run_in_executor(None, self.writer.stop)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _bot_pool(self) -> Executor:
        if self._pool is None:
            workers = self.bot_workers or max(1, os.cpu_count() or 1)
            self._pool = ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    # -- finding tables -------------------------------------------------------------------
    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise ActionError(f"no table {table_id!r}", 404)
        if not self.owns(table_id):  # the parent routes every request to its table's worker
            raise ActionError(f"table {table_id!r} is served by another worker", 421)
        loading = self._loading.get(table_id)
        if loading is None:
            # One load per table, however many requests ask for it meanwhile.
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        table = await asyncio.shield(loading)
        if table is None:
            raise ActionError(f"no table {table_id!r}", 404)
        return table

    async def _load(self, table_id: str) -> Table | None:
        row = await self.writer.call(Storage.load_table, table_id)
        if row is None:
            return None
        rs = load_ruleset(row.preset, row.settings or None)
        table = Table(row, rs)
        if row.status in (PLAYING, OVER):
            game_row = await self.writer.call(Storage.game, table_id, row.game_number)
            moves = await self.writer.call(Storage.moves, table_id, row.game_number)
            if game_row is None:
                raise RuntimeError(f"table {table_id}: game {row.game_number} is missing")
            game = Game(rs, len(table.seats), seed=game_row.seed)
            for m in moves:
                game.play(m.move)
            table.game = game
            table.moves = len(moves)
            table.game_players = game_row.players
        now = asyncio.get_running_loop().time()
        for s in table.seats:
            s.away_since = now
        table.turn_start = now
        self.tables[table_id] = table
        self.schedule(table)
        return table

    # -- creating and changing tables ------------------------------------------------------
    async def create(
        self,
        ruleset: Ruleset,
        host_name: str,
        seats: list[tuple[str, str | None]],
        turn_timer: float | None = None,
        bot_takeover: float | None = None,
        seed: int | None = None,
        start: bool = False,
    ) -> Joined:
        """A new table: the host in seat 0 and ``seats`` (kind, bot) for the others."""
        ruleset.check_players(len(seats) + 1)
        token = new_token()
        rows = [SeatRow(0, HUMAN, host_name, None, hash_token(token))]
        for i, (kind, bot) in enumerate(seats, start=1):
            if kind == BOT:
                b = bot or default_bot()
                rows.append(SeatRow(i, BOT, bot_display_name(b, i), b))
            else:
                rows.append(SeatRow(i, OPEN))
        while True:
            table_id = secrets.token_urlsafe(6)
            if table_id not in self.tables and self.owns(table_id):
                break
        row = TableRow(
            id=table_id,
            preset=ruleset.preset,
            settings=ruleset.settings,
            players=len(rows),
            turn_timer=turn_timer,
            bot_takeover=bot_takeover,
            status=LOBBY,
            game_number=1,
            seed=seed,
            seats=rows,
        )
        await self.writer.call(Storage.create_table, row)
        table = Table(row, ruleset)
        table.turn_start = now = asyncio.get_running_loop().time()
        for s in table.seats:
            s.away_since = now
        self.tables[table_id] = table
        if start:
            async with table.lock:
                await self._start_game(table)
        return Joined(table_id, 0, token)

    def _host(self, table: Table, token: str | None) -> None:
        seat = self._seat(table, token)
        if seat != 0:
            raise ActionError("only the host (seat 0) may do that", 403)

    def _seat(self, table: Table, token: str | None) -> int:
        if not token:
            raise ActionError("missing token: send Authorization: Bearer TOKEN", 401)
        seat = table.seat_of_token(token)
        if seat is None:
            raise ActionError(f"wrong token for table {table.id}", 401)
        return seat

    async def _save_seats(self, table: Table, seats: list[Seat]) -> None:
        await self.writer.call(
            Storage.save_seats, table.id, [s.row(i) for i, s in enumerate(seats)]
        )
        table.seats = seats
        for i, s in enumerate(seats):
            for c in s.conns:
                c.seat = i
        table.changed()

    async def join(self, table_id: str, name: str, seat: int | None) -> Joined:
        table = await self.get(table_id)
        async with table.lock:
            if table.status == OVER:
                raise ActionError("the game is over; the host may start a rematch", 409)
            if seat is None:
                free = [i for i, s in enumerate(table.seats) if s.kind == OPEN]
                if not free:
                    raise ActionError(f"table {table_id} has no open seat", 409)
                seat = free[0]
            elif not 0 <= seat < table.players:
                raise ActionError(f"seat: {seat} is not a seat of this {table.players}-seat table")
            elif table.seats[seat].kind != OPEN:
                raise ActionError(f"seat {seat} is taken", 409)
            token = new_token()
            seats = [s.copy() for s in table.seats]
            seats[seat] = Seat(HUMAN, name, None, hash_token(token))
            seats[seat].away_since = asyncio.get_running_loop().time()
            await self._save_seats(table, seats)
            table.broadcast()
            self.schedule(table)
            return Joined(table_id, seat, token)

    async def set_seat(
        self, table_id: str, token: str | None, seat: int, kind: str, bot: str | None
    ) -> Table:
        table = await self.get(table_id)
        async with table.lock:
            self._host(table, token)
            if not 0 <= seat < table.players:
                raise ActionError(f"seat: {seat} is not a seat of this {table.players}-seat table")
            if seat == 0:
                raise ActionError("seat 0 is the host's own seat", 409)
            if table.status != LOBBY and kind == OPEN:
                raise ActionError("a seat can only be opened before the game starts", 409)
            seats = [s.copy() for s in table.seats]
            old = seats[seat]
            if kind == BOT:
                name = check_bot(bot)
                seats[seat] = Seat(BOT, bot_display_name(name, seat), name)
            else:
                seats[seat] = Seat(OPEN)
            await self._save_seats(table, seats)
            for c in old.conns:
                c.kick(4403, f"the host gave seat {seat} to someone else")
            table.broadcast()
            self.schedule(table)
            return table

    async def remove_seat(self, table_id: str, token: str | None, seat: int) -> Table:
        table = await self.get(table_id)
        async with table.lock:
            self._host(table, token)
            if table.status != LOBBY:
                raise ActionError("seats can only be removed before the game starts", 409)
            if not 0 <= seat < table.players:
                raise ActionError(f"seat: {seat} is not a seat of this {table.players}-seat table")
            if seat == 0:
                raise ActionError("seat 0 is the host's own seat", 409)
            if table.players - 1 < table.ruleset.min_players:
                raise ActionError(
                    f"{table.ruleset.title} needs at least {table.ruleset.min_players} players",
                    409,
                )
            seats = [s.copy() for s in table.seats]
            old = seats.pop(seat)
            await self._save_seats(table, seats)
            for c in old.conns:
                c.kick(4403, f"the host removed seat {seat}")
            table.broadcast()
            return table

    async def start(self, table_id: str, token: str | None) -> Table:
        table = await self.get(table_id)
        async with table.lock:
            self._host(table, token)
            if table.status != LOBBY:
                raise ActionError(f"the game has already started (it is {table.status})", 409)
            await self._start_game(table)
            return table

    async def rematch(self, table_id: str, token: str | None) -> Table:
        table = await self.get(table_id)
        async with table.lock:
            self._host(table, token)
            if table.status != OVER:
                raise ActionError("a rematch needs a finished game", 409)
            table.game_number += 1
            try:
                await self._start_game(table)
            except BaseException:
                table.game_number -= 1
                raise
            return table

    async def _start_game(self, table: Table) -> None:
        open_seats = [i for i, s in enumerate(table.seats) if s.kind == OPEN]
        if open_seats:
            listed = ", ".join(str(i) for i in open_seats)
            raise ActionError(f"seat(s) {listed} are still open: fill them or remove them", 409)
        table.ruleset.check_players(table.players)
        seed = table.first_seed if table.game_number == 1 else None
        if seed is None:
            seed = secrets.randbelow(2**63)
        players = [
            {"name": s.name or f"Seat {i}", **({"bot": s.bot} if s.kind == BOT else {})}
            for i, s in enumerate(table.seats)
        ]
        game = Game(table.ruleset, table.players, seed=seed)
        await self.writer.call(Storage.start_game, table.id, table.game_number, seed, players)
        table.game = game
        table.tricks_cache = TricksCache()
        table.moves = 0
        table.game_players = players
        table.status = PLAYING
        table.turn_start = asyncio.get_running_loop().time()
        table.changed()
        self.schedule(table)
        table.broadcast()

    # -- connections ----------------------------------------------------------------------
    async def connect(self, table: Table, conn: Conn) -> None:
        if conn.seat == SPECTATOR:
            table.spectators.append(conn)
            conn.push(table.state_messages()(conn))
            return
        seat = table.seats[conn.seat]
        seat.conns.append(conn)
        if len(seat.conns) == 1:
            seat.takeover = False
            table.changed()
            self.schedule(table)
            table.broadcast()
        else:
            conn.push(table.state_messages()(conn))

    async def disconnect(self, table: Table, conn: Conn) -> None:
        conn.stop()
        if conn in table.spectators:
            table.spectators.remove(conn)
            return
        for s in table.seats:
            if conn in s.conns:
                s.conns.remove(conn)
                if not s.conns:
                    s.away_since = asyncio.get_running_loop().time()
                    table.changed()
                    self.schedule(table)
                    table.broadcast()
                return

    async def handle(self, table: Table, conn: Conn, text: str | None) -> None:
        """One message from a client; a bad one gets one ``error`` back and changes nothing."""
        try:
            reply = await self._handle(table, conn, text)
        except ActionError as exc:
            conn.push(error_message(exc.message))
            return
        if reply is not None:
            conn.push(reply)

    async def _handle(self, table: Table, conn: Conn, text: str | None) -> str | None:
        if text is None:
            raise ActionError("binary messages are not understood; send JSON text")
        if len(text) > 4096:
            raise ActionError(f"message too long ({len(text)} characters)")
        try:
            msg = json.loads(text)
        except ValueError as exc:
            raise ActionError(f"not JSON: {exc}") from None
        if not isinstance(msg, dict):
            raise ActionError('a message must be a JSON object such as {"type": "ping"}')
        kind = msg.get("type")
        if kind == "ping":
            return '{"type":"pong"}'
        if kind == "play":
            await self.play(table, conn.seat, msg.get("move"))
            return None
        raise ActionError(f"unknown message type {kind!r} (known: play, ping)")

    # -- moves ----------------------------------------------------------------------------
    async def play(self, table: Table, seat: int, text: Any) -> None:
        """A human's move, given as text (``QS``, ``W+``, ``trump:H``)."""
        if seat == SPECTATOR:
            raise ActionError("spectators cannot play")
        if not isinstance(text, str):
            raise ActionError('play: "move" must be a card or choice as text, such as "QS"')
        shown = text if len(text) <= MOVE_TEXT_LIMIT else text[:MOVE_TEXT_LIMIT] + "..."
        if len(text) > MOVE_TEXT_LIMIT or not text.isprintable():
            raise ActionError(f"seat {seat} cannot play {shown!r}: not a card or choice")
        async with table.lock:
            game = table.game
            if table.status == LOBBY or game is None:
                raise ActionError("the game has not started yet", 409)
            if table.status == OVER:
                raise ActionError("the game is over", 409)
            if seat >= table.players:
                raise ActionError(f"seat {seat} is not at this table")
            if game.to_move != seat:
                verb = "pass" if game.phase == Phase.PASS else "play"
                raise ActionError(
                    f"seat {seat} cannot {verb} {shown}: it is seat {game.to_move}'s turn", 409
                )
            move = table.legal_move(text)
            if move is None:  # not written as the server writes moves: parse it
                try:
                    move = game.parse_move(text)
                except SaladError as exc:
                    raise ActionError(f"seat {seat} cannot play {shown!r}: {exc}") from None
            await self._accept(table, seat, move, "human")

    async def _accept(self, table: Table, seat: int, move: int, by: str) -> None:
        """Play, store, then tell everyone (the table's lock is held).

        The move is played only once it is stored, so that nothing (a client connecting
        meanwhile, a lobby request) ever sees a move the database does not hold yet. An illegal
        move, or the last card of a hand (which may end the game, whose result is stored with
        it), is first played on a copy of the game.
        """
        game = table.game
        assert game is not None
        after: Game | None = None
        if move not in game.legal_moves() or sum(h.bit_count() for h in game.hands) <= 1:
            after = game.copy()
            try:
                after.play(move)
            except SaladError as exc:
                raise ActionError(str(exc), 409) from None
        seq = table.moves + 1
        over = (list(after.totals), after.winners()) if after and after.is_over() else None
        row = MoveRow(seq, seat, move, game.format_move(move), by)
        try:
            await self.writer.call(Storage.add_move, table.id, table.game_number, row, over)
        except BaseException:
            log.exception("table %s: move %d could not be stored", table.id, seq)
            raise ActionError("the server could not store that move; try again", 503) from None
        if after is None:
            game.play(move)  # legal: checked above, and nothing ran in between
            after = game
        table.game = after
        table.moves = seq
        if over is not None:
            table.status = OVER
            table.changed()
        table.turn_start = asyncio.get_running_loop().time()
        self.schedule(table)
        table.broadcast()

    # -- bots and timers ------------------------------------------------------------------
    def schedule(self, table: Table) -> None:
        """Arrange for a bot to move if the seat to move is a bot, is away past the takeover
        time, or runs out of its turn timer; sets the ``deadline`` shown to clients."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.deadline = None
        game = table.game
        if table.status != PLAYING or game is None or game.is_over():
            return
        seat = game.to_move
        if not 0 <= seat < table.players:
            return
        s = table.seats[seat]
        loop = asyncio.get_running_loop()
        now = loop.time()
        when: float | None = None
        reason = ""
        if s.kind == BOT:
            when, reason = now + self.bot_delay, BOT
        elif s.kind == HUMAN:
            if table.bot_takeover is not None and not s.conns:
                when = max(now + self.bot_delay, s.away_since + table.bot_takeover)
                reason = "takeover"
            if table.turn_timer:
                expiry = table.turn_start + table.turn_timer
                table.deadline = round(time.time() + (expiry - now), 3)
                if when is None or expiry < when:
                    when, reason = expiry, "timer"
        if when is None:
            return
        seq, number = table.moves, table.game_number
        table.timer = loop.call_later(
            max(0.0, when - now),
            lambda: self._spawn(self._bot_turn(table, seat, seq, number, reason)),
        )

    async def _bot_turn(self, table: Table, seat: int, seq: int, number: int, reason: str) -> None:
        game = table.game
        if game is None or not self._still(table, seat, seq, number, reason):
            return
        s = table.seats[seat]
        name = s.bot if reason == BOT and s.bot else default_bot()
        view = game.view(seat)
        seed = bot_seed(game.seed, seat, seq)
        try:
            if name == RANDOM:
                move = choose_move(name, seed, view)
            else:
                future = asyncio.get_running_loop().run_in_executor(
                    self._bot_pool(), choose_move, name, seed, view
                )
                move = await asyncio.wait_for(future, BOT_TIMEOUT)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if isinstance(exc, BrokenExecutor):  # a worker died: start afresh next time
                self._pool = None
            log.exception("table %s: bot %s failed; playing a random legal move", table.id, name)
            move = choose_move(RANDOM, seed, view)
        async with table.lock:
            if not self._still(table, seat, seq, number, reason):
                return
            if reason == "takeover" and not s.takeover:
                s.takeover = True
                table.changed()
            try:
                await self._accept(table, seat, move, reason)
            except ActionError as exc:
                log.error("table %s: bot move refused: %s", table.id, exc.message)
                if table.timer is None:
                    self.schedule(table)

    def _still(self, table: Table, seat: int, seq: int, number: int, reason: str) -> bool:
        """Whether a bot move decided for (seat, seq) is still wanted."""
        game = table.game
        if (
            game is None
            or table.status != PLAYING
            or table.moves != seq
            or table.game_number != number
            or game.to_move != seat
            or seat >= table.players
        ):
            return False
        s = table.seats[seat]
        if reason == BOT:
            return s.kind == BOT
        if reason == "takeover":
            return s.kind == HUMAN and not s.conns
        return s.kind == HUMAN  # the turn timer ran out

    # -- reading --------------------------------------------------------------------------
    async def games(self, table_id: str) -> list[dict[str, Any]]:
        table = await self.get(table_id)
        rows = await self.writer.call(Storage.games, table_id)
        out = []
        for r in rows:
            item: dict[str, Any] = {
                "game_number": r.game_number,
                "status": r.status,
                "totals": r.totals,
                "winners": r.winners or [],
            }
            if r.game_number == table.game_number and table.game is not None:
                item["totals"] = list(table.game.totals)
            out.append(item)
        return out

    async def record(self, table_id: str, number: int | None) -> dict[str, Any]:
        from salad.formats.records import record_from_game

        table = await self.get(table_id)
        n = table.game_number if number is None else number
        if not 1 <= n <= table.game_number:
            raise ActionError(f"table {table_id} has no game {n}", 404)
        if n == table.game_number:
            if table.status == LOBBY:
                raise ActionError(f"game {n} has not started yet", 409)
            if table.status == PLAYING or table.game is None:
                raise ActionError(f"game {n} is still being played", 409)
            return record_from_game(table.game, table.game_players)
        row = await self.writer.call(Storage.game, table_id, n)
        if row is None:
            raise ActionError(f"table {table_id} has no game {n}", 404)
        moves = await self.writer.call(Storage.moves, table_id, n)
        game = Game(table.ruleset, len(row.players), seed=row.seed)
        for m in moves:
            game.play(m.move)
        return record_from_game(game, row.players)
