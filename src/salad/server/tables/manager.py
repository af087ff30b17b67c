"""The :class:`TableManager`: every table of the server, and the only thing that changes one.

Every change (a move, a seat joining, a game starting) happens under the table's lock, is
written to the store (:class:`~salad.server.store.TableStore`, which commits the changes of a
turn of the event loop together) and only then applied
in memory and broadcast, so a server killed at any moment has told nobody about anything it had
not stored. Every message a seat receives is built from that seat's own view of the game (see
:mod:`salad.server.tables.wire`), so it never holds another seat's hidden cards.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar

from sqlalchemy.exc import IntegrityError

from salad.engine import Game
from salad.errors import CardParseError, IllegalMoveError
from salad.formats.records import record_from_game
from salad.moves import Move, format_move
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.server.info import available_bots
from salad.server.schemas import AssistIn, NextIn, PingIn, TalkIn, read_client_message
from salad.server.store import (
    MoveRow,
    SeatRow,
    StaleCopy,
    StoreTimeout,
    TableRow,
    TableStore,
    hash_token,
)
from salad.server.tables import assist
from salad.server.tables.connection import Conn
from salad.server.tables.keeper import PRESSED, Keeper, keep, recall
from salad.server.tables.table import (
    BOT,
    HUMAN,
    LOBBY,
    OPEN,
    OVER,
    PLAYING,
    TABLE_ID,
    Seat,
    Table,
    TableStatus,
)
from salad.server.tables.talk import Talk
from salad.server.tables.turns import (
    STOP_WAIT,
    Turns,
    bot_display_name,
    check_bot,
    default_bot,
)
from salad.server.tables.wire import TricksCache, error_message, illegal_words
from salad.settings import from_ref, to_ref
from salad.view import SPECTATOR, Phase

__all__ = ["Joined", "TableManager"]

log = logging.getLogger("salad.server")

T = TypeVar("T")

MOVE_TEXT_LIMIT = 16

STALE = 1012
"""The close code of connections to a table this server lets go of: reconnect."""

NO_TABLE = 4404
"""The close code of a connection to a table that does not exist: the web client stops."""

DROPPED = TableStatus.DROPPED
"""The status of a table this server let go of (another holds it): nothing more happens to it."""

UNLOAD_AFTER = 600.0
"""Seconds a table no one uses stays in memory before it leaves (:meth:`TableManager.sweep`)."""


@dataclass
class Joined:
    table_id: str
    seat: int
    token: str


def new_token() -> str:
    return secrets.token_urlsafe(24)


async def _yes(_table_id: str) -> bool:
    return True


def game_seed(table: Table) -> tuple[int, bool]:
    """The seed of the game about to start, and whether it is the host's practice seed.

    A client's seed deals the first game as chosen only at a table of the host against bots
    (practice). With any other human at the table it is mixed with 64 secret random bits of the
    server's, so that no one can foretell a hand: the seed actually dealt is seen only in the
    finished game's record. Later games always draw a fresh seed.
    """
    chosen = table.first_seed if table.game_number == 1 else None
    if chosen is None:
        return secrets.randbelow(2**63), False
    if all(s.kind == BOT for s in table.seats[1:]):
        return chosen, True
    secret = secrets.token_bytes(8)
    mixed = hashlib.blake2b(chosen.to_bytes(8, "big"), key=secret, digest_size=8).digest()
    return int.from_bytes(mixed, "big") >> 1, False


class TableManager:
    """Every table of the server; creates, loads, changes and plays them."""

    def __init__(
        self,
        storage: TableStore,
        bot_delay: float = 0.0,
        bot_workers: int | None = None,
        unload_after: float | None = UNLOAD_AFTER,
    ) -> None:
        self.storage = storage
        """Where the tables live (opened and closed with the manager)."""
        self.unload_after = unload_after
        """Seconds after which a table no one uses leaves memory (None: never)."""
        self.turns = Turns(self._accept, bot_delay, bot_workers)
        self.talk = Talk()  # chat (tables/talk.py); create_app gives it the app's rate limits
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._used: dict[str, float] = {}
        """When each table in memory was last asked for or changed (the loop's clock)."""
        self._sweeper: asyncio.Task[None] | None = None
        # What a cluster (salad.server.cluster) changes; alone, a server holds every table.
        self.owns: Callable[[str], bool] = lambda _table_id: True
        """Whether this server may hold the table (a cluster node: whether it has its lease)."""
        self.claim: Callable[[str], Awaitable[bool]] = _yes
        """Take a new table's id for this server (a cluster node: its lease)."""
        self.fencing = False
        """Load each table under a new fencing epoch and store moves only with it (a cluster
        node: another node may load the table while this one is frozen)."""
        self.sure: Callable[[str], Awaitable[bool]] = _yes
        """Whether this server surely holds the table right now, asked before each move is
        stored (a cluster node that was frozen longer than its lease may not)."""
        self.resume = True
        """Load every table with a game in progress at start (a cluster node does not: it
        takes those no node holds, one by one)."""
        self.on_unload: Callable[[str, bool], None] = lambda _table_id, _idle: None
        """Told the id of each table that leaves memory, and whether it left for being idle
        (nobody at it: its talk is forgotten) rather than for another server to play it."""

    @property
    def keeper(self) -> Keeper | None:
        """Where a cluster node keeps what a table holds besides its game, its talk and who
        has pressed Next hand (salad.server.tables.keeper); None on one server. The talk's
        keeper: one for both."""
        return self.talk.keeper

    @keeper.setter
    def keeper(self, keeper: Keeper | None) -> None:
        self.talk.keeper = keeper

    def busy(self, table_id: str) -> bool:
        """Whether the table is in memory or being loaded."""
        return table_id in self.tables or table_id in self._loading

    # -- life cycle -----------------------------------------------------------------------
    async def open(self) -> None:
        """Resume every table with a game in progress."""
        # Find the bots that load here now (it imports them), not during a request.
        await asyncio.get_running_loop().run_in_executor(None, available_bots)
        await self.storage.open()
        ids = await self.storage.active_tables() if self.resume else []
        for table_id in ids:
            try:
                await self.get(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
        if ids:
            log.info("resumed %d table(s) with a game in progress", len(ids))
        if self.unload_after is not None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.wait([self._sweeper], timeout=STOP_WAIT)  # as the bot turns
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for c in table.connections():
                c.stop()
        await self.turns.close()
        await self.storage.close()

    # -- finding tables -------------------------------------------------------------------
    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            self._used[table_id] = asyncio.get_running_loop().time()
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise ActionError(f"no table {table_id!r}", 404)
        if not self.owns(table_id):  # a cluster node routes requests to the table's node
            raise ActionError(f"table {table_id!r} is served by another server: retry", 503)
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
        # The epoch is raised before anything is read: a move stored by a node that loaded the
        # table before is either in what is read below, or refused.
        epoch = await self.storage.fence(table_id) if self.fencing else None
        row = await self.storage.load_table(table_id)
        if row is None:
            return None
        rs = from_ref({"preset": row.preset, "settings": row.settings}, f"table {table_id}")
        table = Table(row, rs)
        table.epoch = epoch
        if row.status in (PLAYING, OVER):
            game_row = await self.storage.game(table_id, row.game_number)
            moves = await self.storage.moves(table_id, row.game_number)
            if game_row is None:
                raise RuntimeError(f"table {table_id}: game {row.game_number} is missing")
            game = Game(rs, len(table.seats), seed=game_row.seed)
            for m in moves:
                game.play(m.move)
            table.game = game
            table.moves = len(moves)
            table.game_players = game_row.players
            table.resume_hand_end()
        await self.talk.recall(table)  # on a cluster, the chat of the table's last holder
        await self._recall_presses(table)
        now = asyncio.get_running_loop().time()
        for s in table.seats:
            s.away_since = now
        table.turn_start = now
        self.tables[table_id] = table
        self._used[table_id] = now
        self.turns.schedule(table)
        return table

    # -- unloading idle tables ----------------------------------------------------------------
    def idle(self, table: Table, now: float) -> bool:
        """Whether ``table`` may leave memory: no one is connected, nothing is under way (no
        change holds its lock, no bot or timer is due) and no one has asked for it lately.

        Everything a table is lives in the database (every change is stored before it is
        applied), so an unloaded table comes back as it was on the next request (:meth:`get`).
        A game that bots are playing is never idle: its next bot move is always due.
        """
        if self.unload_after is None or table.lock.locked() or table.timer is not None:
            return False
        if table.spectators or any(s.conns for s in table.seats):
            return False
        return now - self._used.get(table.id, now) >= self.unload_after

    def sweep(self) -> list[str]:
        """Unload every idle table; the ids unloaded.

        It runs without awaiting, so no request sees a table between the check and its removal;
        a request holding a table it got before will find it gone in :meth:`connect`.
        """
        now = asyncio.get_running_loop().time()
        gone = [t.id for t in self.tables.values() if self.idle(t, now)]
        for table_id in gone:
            del self.tables[table_id]
            self._used.pop(table_id, None)
            self.talk.rooms.pop(table_id, None)  # its chat was for those at the table
            self.on_unload(table_id, True)
        if gone:
            log.info("unloaded %d idle table(s); %d in memory", len(gone), len(self.tables))
        return gone

    def drop(self, table_id: str, code: int, reason: str) -> None:
        """Let go of a table at once (another server holds it now): its timers stop and its
        connections close with ``code``, for their clients to reconnect."""
        table = self.tables.pop(table_id, None)
        self._used.pop(table_id, None)
        self.talk.rooms.pop(table_id, None)
        if table is None:
            return
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.status = DROPPED
        for conn in table.connections():
            conn.kick(code, reason)

    def _let_go(self, table_id: str, reason: str) -> None:
        """Drop a copy of a table that another server may play now (its connections close
        with :data:`STALE` and ``reason``), and say it left memory."""
        self.drop(table_id, STALE, reason)
        self.on_unload(table_id, False)

    async def _sweep_forever(self) -> None:
        assert self.unload_after is not None
        every = min(60.0, max(0.2, self.unload_after / 4))
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # a sweep that fails leaves tables in memory, nothing worse
                log.exception("unloading idle tables failed")

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
            if table_id not in self.tables and await self.claim(table_id):
                break
        row = TableRow(
            id=table_id,
            **to_ref(ruleset),
            players=len(rows),
            turn_timer=turn_timer,
            bot_takeover=bot_takeover,
            status=LOBBY,
            game_number=1,
            seed=seed,
            seats=rows,
        )
        await self.storage.create_table(row)
        table = Table(row, ruleset)
        if self.fencing:
            table.epoch = await self.storage.fence(table_id)
        table.turn_start = now = asyncio.get_running_loop().time()
        for s in table.seats:
            s.away_since = now
        self.tables[table_id] = table
        self._used[table_id] = now
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

    # -- storing a table's changes -----------------------------------------------------------
    async def store(self, table: Table, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Store a change of ``table`` from this copy, ``fn(table.id, *args, epoch=...)`` (a
        method of :attr:`storage`), unless another server may play the table now (a cluster's;
        :meth:`TableStore.fence`): then this copy is let go and the change refused."""
        await self._check_sure(table)
        try:
            return await fn(table.id, *args, epoch=table.epoch)
        except StaleCopy:
            self._stale(table, fn.__name__)

    async def _check_sure(self, table: Table) -> None:
        if not await self.sure(table.id):
            # Another server may play this table now: store nothing from this copy.
            log.warning("table %s: not sure this server still holds it; letting go", table.id)
            self._let_go(table.id, "this table moved to another server: reconnect")
            raise ActionError("this table moved to another server: reconnect", 503)

    def _stale(self, table: Table, what: str) -> NoReturn:
        """Another server loaded this table since this copy was (a cluster node that took it
        over while this one was cut off or frozen): let go of the copy, whose next request
        loads the table as the database has it, and refuse the change."""
        log.warning("table %s: %s refused, another server played it; reloading", table.id, what)
        self._let_go(table.id, "this table was played elsewhere meanwhile: reconnect")
        raise ActionError("the table changed meanwhile: reload it and try again", 409)

    async def _save_seats(self, table: Table, seats: list[Seat]) -> None:
        await self.store(table, self.storage.save_seats, [s.row(i) for i, s in enumerate(seats)])
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
                raise ActionError(f"seat {seat} ({table.seat_name(seat)}'s) is taken", 409)
            token = new_token()
            seats = [s.copy() for s in table.seats]
            seats[seat] = Seat(HUMAN, name, None, hash_token(token))
            seats[seat].away_since = asyncio.get_running_loop().time()
            await self._save_seats(table, seats)
            table.broadcast()
            self.turns.schedule(table)
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
                c.kick(4403, "the host gave your seat to someone else")
            table.broadcast()
            self.turns.schedule(table)
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
                c.kick(4403, "the host removed your seat")
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
            listed = ", ".join(str(i + 1) for i in open_seats)  # people count seats from 1
            raise ActionError(f"seat(s) {listed} are still open: fill them or remove them", 409)
        table.ruleset.check_players(table.players)
        seed, practice = game_seed(table)
        players: list[dict[str, Any]] = [
            {"name": s.name or f"Seat {i}", **({"bot": s.bot} if s.kind == BOT else {})}
            for i, s in enumerate(table.seats)
        ]
        if practice:  # the host chose the deal: the record says so
            players[0]["practice"] = True
        game = Game(table.ruleset, table.players, seed=seed)
        await self.store(table, self.storage.start_game, table.game_number, seed, players)
        table.game = game
        table.hand_end = None
        table.tricks_cache = TricksCache()
        table.moves = 0
        table.game_players = players
        table.status = PLAYING
        table.turn_start = asyncio.get_running_loop().time()
        table.changed()
        self.turns.schedule(table)
        table.broadcast()

    # -- connections ----------------------------------------------------------------------
    async def connect(self, table: Table, conn: Conn) -> Table:
        """Add ``conn`` to the table; the table in memory it joined (which is a fresh load of
        ``table`` if that was unloaded meanwhile: the caller uses the one returned).

        A seat's coming and going is a change like any other, made under the table's lock: a
        bot's move for the seat while it was away, being stored as the seat's owner comes back,
        is played before the owner is counted in (who then sees it), never after."""
        while True:
            if self.tables.get(table.id) is not table:
                table = await self.get(table.id)
            async with table.lock:
                if self.tables.get(table.id) is table:
                    self._join(table, conn)
                    return table

    def _join(self, table: Table, conn: Conn) -> None:
        self._used[table.id] = asyncio.get_running_loop().time()
        self.talk.welcome(table, conn)  # the table's recent chat lines
        if conn.seat == SPECTATOR:
            table.spectators.append(conn)
            conn.push(table.state_messages()(conn))
            return
        seat = table.seats[conn.seat]
        seat.conns.append(conn)
        if len(seat.conns) == 1:
            seat.takeover = False
            table.changed()
            self.turns.schedule(table)
            table.broadcast()
        else:
            conn.push(table.state_messages()(conn))

    async def disconnect(self, table: Table, conn: Conn) -> None:
        """Take ``conn`` off the table. Not under the lock: a connection closed by the server
        (a table dropped) is closed at once, not after a store that may hang (the database
        away); a bot's move decided for a seat just left is as good as one decided after."""
        conn.stop()
        if table.id in self.tables:
            self._used[table.id] = asyncio.get_running_loop().time()
        if conn in table.spectators:
            table.spectators.remove(conn)
            return
        for s in table.seats:
            if conn in s.conns:
                s.conns.remove(conn)
                if not s.conns:
                    s.away_since = asyncio.get_running_loop().time()
                    table.changed()
                    self.turns.schedule(table)
                    table.broadcast()
                return

    async def handle(self, table: Table, conn: Conn, text: str | None) -> bool:
        """One message from a client; a bad one gets one ``error`` back and changes nothing
        (False: the caller counts refusals, see salad.server.sockets)."""
        try:
            message = read_client_message(text)
            if isinstance(message, PingIn):
                conn.push('{"type":"pong"}')
            elif isinstance(message, NextIn):
                await self.next_hand(table, conn)
            elif isinstance(message, TalkIn):  # chat (tables/talk.py)
                await self.talk.handle(table, conn, message)
            elif isinstance(message, AssistIn):  # hint and undo (tables/assist.py)
                await assist.handle(table, conn, message, self, self.turns)
            else:
                await self.play(table, conn.seat, message.move, conn)
        except ActionError as exc:
            conn.push(error_message(exc.message))
            return False
        return True

    # -- the pause after a hand (see salad.server.tables.table.HandEnd) --------------------
    async def next_hand(self, table: Table, conn: Conn) -> None:
        """A seat pressed Next hand: the next hand starts once every waited-for seat has.

        A press that changes nothing (pressed already, or no summary waits for the seat) tells
        nobody anything: it is a double click, or a client that would have every seat sent a
        whole state for each message it sends.

        On a cluster a press is kept before it is made (:meth:`_keep_presses`); the presses
        that come in one turn of the event loop, or while those before them are being kept, are
        kept in one write and shown in one state, as one server shows them."""
        async with table.lock:
            if not self._may_press(table, conn.seat, conn):
                return
            if self.keeper is None:
                self._press(table, [conn.seat])
                return
            table.pressing[conn.seat] = conn
            if table.keeping is None:
                table.keeping = self.turns.spawn(self._keep_presses(table))
            keeping = table.keeping
        await asyncio.shield(keeping)

    @staticmethod
    def _may_press(table: Table, seat: int, conn: Conn) -> bool:
        """Whether ``conn`` holds ``seat`` and the table waits for it to press Next hand."""
        if conn.closed or seat == SPECTATOR or conn not in table.seats[seat].conns:
            return False
        return table.waits_for(seat)

    def _press(self, table: Table, seats: list[int]) -> None:
        """Make the presses of ``seats`` (the table's lock is held)."""
        started = False
        for seat in seats:
            started = table.press_next(seat) or started
        if started:
            table.turn_start = asyncio.get_running_loop().time()
            self.turns.schedule(table)
        table.broadcast_soon()

    async def _keep_presses(self, table: Table) -> None:
        """On a cluster, keep who is still waited for once the presses waiting have been made,
        then make them: a node that takes the table over waits for those only (a player who
        pressed is not asked again). Presses that come while this one keeps wait for the next."""
        async with table.lock:
            pressing, table.pressing, table.keeping = table.pressing, {}, None
            seats = sorted(s for s, conn in pressing.items() if self._may_press(table, s, conn))
            end = table.hand_end
            if end is None or not seats:
                return
            waiting = sorted(end.waiting.difference(seats))
            kept = {"game": table.game_number, "moves": table.moves, "waiting": waiting}
            await keep(self.keeper, table.id, PRESSED, kept)
            self._press(table, seats)

    async def _recall_presses(self, table: Table) -> None:
        """A table loaded at a hand's end (it waits for every human seat again) waits only for
        those its last holder still waited for, if it kept them for this very hand end."""
        end = table.hand_end
        if self.keeper is None or end is None or not end.waiting:
            return
        kept = await recall(self.keeper, table.id, PRESSED)
        if not isinstance(kept, dict) or not isinstance(kept.get("waiting"), list):
            return
        if (kept.get("game"), kept.get("moves")) != (table.game_number, table.moves):
            return  # kept at an earlier hand's end
        end.waiting &= {s for s in kept["waiting"] if isinstance(s, int)}
        if not end.waiting:
            table.hand_end = None  # everyone had pressed: the next hand had begun

    # -- moves ----------------------------------------------------------------------------
    async def play(self, table: Table, seat: int, text: str, conn: Conn | None = None) -> None:
        """A human's move, given as text (``QS``, ``W+``, ``trump:H``), from ``conn``.

        The move may have waited for the lock while the host gave the seat away: it is played
        only if ``conn`` still holds the seat once the lock is taken.
        """
        if seat == SPECTATOR:
            raise ActionError("spectators cannot play")
        shown = text if len(text) <= MOVE_TEXT_LIMIT else text[:MOVE_TEXT_LIMIT] + "..."
        if len(text) > MOVE_TEXT_LIMIT or not text.isprintable():
            raise ActionError(f"You cannot play {shown!r}: it is not a card or choice")
        async with table.lock:
            if conn is not None:
                seat = conn.seat
                if conn.closed or seat >= table.players or conn not in table.seats[seat].conns:
                    raise ActionError("this seat is no longer yours", 409)
            game = table.game
            if table.status == LOBBY or game is None:
                raise ActionError("the game has not started yet", 409)
            if table.status == OVER:
                raise ActionError("the game is over", 409)
            if table.waiting():
                raise ActionError("the next hand starts once everyone has pressed Next hand", 409)
            if seat >= table.players:
                raise ActionError(f"there is no seat {seat + 1} at this table")
            if game.to_move != seat:
                verb = "pass" if game.phase == Phase.PASS else "play"
                name = table.seat_name(game.to_move)
                raise ActionError(f"Wait for {name} to {verb}: it is {name}'s turn", 409)
            try:
                move = table.read_move(seat, text)
            except CardParseError as exc:
                raise ActionError(f"You cannot play {shown!r}: {exc}") from None
            await self._accept(table, seat, move, "human")

    async def _accept(self, table: Table, seat: int, move: Move, by: str) -> None:
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
            except IllegalMoveError as exc:  # said to the player from its reason code
                raise ActionError(illegal_words(game, move, exc), 409) from None
        seq = table.moves + 1
        hands_before = len(game.hand_points)
        over = (list(after.totals), after.winners()) if after and after.is_over() else None
        row = MoveRow(seq, seat, move, format_move(game.deck, move), by)
        await self._check_sure(table)
        try:
            await self.storage.add_move(table.id, table.game_number, row, over, table.epoch)
        except (IntegrityError, StaleCopy):
            # Move ``seq`` is in the database already, or another server loaded this table
            # since this copy was.
            self._stale(table, f"move {seq}")
        except StoreTimeout as exc:  # the database froze or was cut off: one line, no trace
            log.warning("table %s: move %d could not be stored: %s", table.id, seq, exc)
            raise ActionError("the server could not store that move; try again", 503) from None
        except BaseException:
            log.exception("table %s: move %d could not be stored", table.id, seq)
            raise ActionError("the server could not store that move; try again", 503) from None
        if after is None:
            game.play(move)  # legal: checked above, and nothing ran in between
            after = game
        table.game = after
        table.moves = seq
        self._used[table.id] = table.turn_start = asyncio.get_running_loop().time()
        if over is not None:
            table.status = OVER
            table.changed()
        table.note_hand_end(hands_before)
        self.turns.schedule(table)
        table.broadcast()

    # -- reading --------------------------------------------------------------------------
    async def games(self, table_id: str) -> list[dict[str, Any]]:
        table = await self.get(table_id)
        rows = await self.storage.games(table_id)
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
        row = await self.storage.game(table_id, n)
        if row is None:
            raise ActionError(f"table {table_id} has no game {n}", 404)
        moves = await self.storage.moves(table_id, n)
        game = Game(table.ruleset, len(row.players), seed=row.seed)
        for m in moves:
            game.play(m.move)
        return record_from_game(game, row.players)
