"""The :class:`TableManager`: every table of the server, and the only thing that changes one.

Every change (a move, a seat joining, a game starting) happens under the table's lock, is
written to the database through the :class:`~salad.server.storage.Writer` and only then applied
in memory and broadcast, so a server killed at any moment has told nobody about anything it had
not stored. Every message a seat receives is built from that seat's own view of the game (see
:mod:`salad.server.tables.wire`), so it never holds another seat's hidden cards.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from salad.engine import Game
from salad.errors import CardParseError, IllegalMoveError
from salad.formats.records import record_from_game
from salad.moves import Move, format_move
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.server.info import available_bots
from salad.server.schemas import NextIn, PingIn, read_client_message
from salad.server.storage import MoveRow, SeatRow, Storage, TableRow, Writer, hash_token
from salad.server.tables.connection import Conn
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
    shard_of,
)
from salad.server.tables.turns import Turns, bot_display_name, check_bot, default_bot
from salad.server.tables.wire import TricksCache, error_message, illegal_words
from salad.settings import from_ref, to_ref
from salad.view import SPECTATOR, Phase

__all__ = ["Joined", "TableManager"]

log = logging.getLogger("salad.server")

MOVE_TEXT_LIMIT = 16


@dataclass
class Joined:
    table_id: str
    seat: int
    token: str


def new_token() -> str:
    return secrets.token_urlsafe(24)


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
        self.turns = Turns(self._accept, bot_delay, bot_workers)
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}

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
        await self.turns.close()
        await asyncio.get_running_loop().run_in_executor(None, self.writer.stop)

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
        rs = from_ref({"preset": row.preset, "settings": row.settings}, f"table {table_id}")
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
        self.turns.schedule(table)
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
            **to_ref(ruleset),
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
        await self.writer.call(Storage.start_game, table.id, table.game_number, seed, players)
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
            self.turns.schedule(table)
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
                    self.turns.schedule(table)
                    table.broadcast()
                return

    async def handle(self, table: Table, conn: Conn, text: str | None) -> None:
        """One message from a client; a bad one gets one ``error`` back and changes nothing."""
        try:
            message = read_client_message(text)
            if isinstance(message, PingIn):
                conn.push('{"type":"pong"}')
                return
            if isinstance(message, NextIn):
                await self.next_hand(table, conn)
                return
            await self.play(table, conn.seat, message.move, conn)
        except ActionError as exc:
            conn.push(error_message(exc.message))

    # -- the pause after a hand (see salad.server.tables.table.HandEnd) --------------------
    async def next_hand(self, table: Table, conn: Conn) -> None:
        """A seat pressed Next hand: the next hand starts once every waited-for seat has."""
        async with table.lock:
            if conn.closed or conn.seat == SPECTATOR or conn not in table.seats[conn.seat].conns:
                return
            if table.press_next(conn.seat):
                table.turn_start = asyncio.get_running_loop().time()
                self.turns.schedule(table)
            table.broadcast()

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
        table.note_hand_end(hands_before)
        table.turn_start = asyncio.get_running_loop().time()
        self.turns.schedule(table)
        table.broadcast()

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
