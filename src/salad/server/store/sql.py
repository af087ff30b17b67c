"""The SQL store: SQLite (a file) or PostgreSQL (psycopg), on SQLAlchemy's public API and Core.

Every call goes through group commit (:mod:`~.commit`): the calls of a turn of the event loop
are one transaction, on a connection the store keeps (:mod:`~.connections`). On SQLite the
batch runs on the event loop itself, at the end of the turn (:class:`~.commit.InlineCommit`);
on PostgreSQL one after the other while the event loop goes on (:class:`~.commit.GroupCommit`).
The looks that must never wait behind the moves (whether a table exists, the tables being
played) read on a connection of their own.

On PostgreSQL a batch of moves alone (almost every batch of a busy server) is one statement on
a connection in autocommit: one round trip instead of four (BEGIN, the moves, the fences,
COMMIT), which cost a cluster node more CPU than the moves themselves.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import Connection, delete, insert, select, text, update
from sqlalchemy.engine import make_url

from salad.server.store.base import STORE_TIMEOUT, Over
from salad.server.store.commit import GroupCommit, InlineCommit
from salad.server.store.connections import FileConnections, ServerConnections
from salad.server.store.rows import KEPT, GameRow, MoveRow, SeatRow, TableRow
from salad.server.store.schema import (
    fences_t,
    games_t,
    moves_t,
    reviews_t,
    seats_t,
    tables_t,
)
from salad.server.store.statements import (
    Moves,
    Op,
    Statement,
    batch,
    exists,
    fenced,
    fenced_moves,
    game_row,
    review_key,
    save_seats,
    set_status,
)
from salad.server.store.urls import CONNECT_TIMEOUT, database_url

__all__ = ["SqlStore"]


class SqlStore:
    """Tables, seats, games, moves, reviews and fences in a SQL database (a
    :class:`~.base.TableStore`); ``url`` as :func:`~.urls.database_url` takes it."""

    def __init__(self, url: str, store_timeout: float = STORE_TIMEOUT) -> None:
        self.url = database_url(url)
        parsed = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        self.arrays = self.dialect == "postgresql"
        """Whether a batch of moves alone goes in one statement (:data:`FENCED_MOVES`)."""
        self.connections: FileConnections | ServerConnections
        self.commit: InlineCommit[Op] | GroupCommit[Op]
        if self.dialect == "sqlite":
            files = self.connections = FileConnections(parsed, store_timeout)
            self.commit = InlineCommit(
                lambda ops: files.run(lambda conn: batch(conn, ops)),
                lambda op: files.run(lambda conn: batch(conn, [op]))[0],
            )
        else:
            connect_args: dict[str, Any] = {}
            if "connect_timeout" not in parsed.query:  # a server that never answers: an error
                connect_args = {"connect_timeout": CONNECT_TIMEOUT}
            self.connections = ServerConnections(parsed, connect_args, store_timeout)
            self.commit = GroupCommit(
                self._run_batch, self._run_one, store_timeout, self.connections.forget_busy
            )
        self.engine = self.connections.engine
        self.sync_engine = self.connections.sync_engine
        """The engine SQLAlchemy's events are listened for on."""
        self._opened = False

    # -- life -----------------------------------------------------------------------------
    async def open(self) -> None:
        if not self._opened:
            await self.connections.upgrade()
            self._opened = True

    async def close(self, timeout: float = 10.0) -> None:
        """Store what waits (``timeout`` seconds at most), then let every connection go."""
        await self.commit.close(timeout)
        await self.connections.close()

    # -- batches (PostgreSQL) -------------------------------------------------------------
    async def _run_batch(self, ops: list[Op]) -> list[Any]:
        assert isinstance(self.connections, ServerConnections)
        moves = [op.move for op in ops if op.move is not None and op.move[3] is None]
        if len(moves) == len(ops):
            alone = [(t, g, m, e) for t, g, m, _, e in moves]
            await self.connections.run(lambda conn: fenced_moves(conn, alone), auto=True)
            return [None] * len(ops)
        return list(await self.connections.run(lambda conn: batch(conn, ops)))

    async def _run_one(self, op: Op) -> Any:
        assert isinstance(self.connections, ServerConnections)
        return (await self.connections.run(lambda conn: batch(conn, [op])))[0]

    async def _call(self, fn: Statement) -> Any:
        return await self.commit.call(Op(fn=fn))

    async def _aside(self, fn: Statement) -> Any:
        """``fn`` on a connection of its own, not behind the batches."""
        return await self.connections.aside(fn)

    async def ping(self) -> None:
        await self._call(lambda conn: conn.execute(select(1)))

    # -- writes ---------------------------------------------------------------------------
    async def create_table(self, row: TableRow) -> None:
        now = time.time()
        values = {
            "id": row.id,
            "preset": row.preset,
            "settings": json.dumps(row.settings, sort_keys=True),
            "players": row.players,
            "turn_timer": row.turn_timer,
            "bot_takeover": row.bot_takeover,
            "status": row.status,
            "game_number": row.game_number,
            "seed": row.seed,
            "created_at": now,
            "updated_at": now,
        }

        def create(conn: Connection) -> None:
            conn.execute(insert(tables_t).values(**values))
            save_seats(conn, row.id, row.seats)

        await self._call(create)

    async def save_seats(
        self, table_id: str, seats: list[SeatRow], *, epoch: int | None = None
    ) -> None:
        await self._call(fenced(table_id, epoch, lambda conn: save_seats(conn, table_id, seats)))

    async def set_status(self, table_id: str, status: str, game_number: int) -> None:
        await self._call(lambda conn: set_status(conn, table_id, status, game_number))

    async def start_game(
        self,
        table_id: str,
        game_number: int,
        seed: int,
        players: list[dict[str, Any]],
        *,
        epoch: int | None = None,
    ) -> None:
        def start(conn: Connection) -> None:
            values = {"seed": seed, "players": json.dumps(players), "status": "playing"}
            conn.execute(
                insert(games_t).values(
                    table_id=table_id, game_number=game_number, started_at=time.time(), **values
                )
            )
            set_status(conn, table_id, "playing", game_number)

        await self._call(fenced(table_id, epoch, start))

    async def add_move(
        self,
        table_id: str,
        game_number: int,
        move: MoveRow,
        over: Over | None = None,
        epoch: int | None = None,
    ) -> None:
        await self.commit.call(Op(move=(table_id, game_number, move, over, epoch)))

    async def add_moves(self, moves: Moves) -> None:
        if self.arrays:
            await self._call(lambda conn: fenced_moves(conn, moves))
        else:
            await self._call(
                lambda conn: batch(conn, [Op(move=(*m[:3], None, m[3])) for m in moves])
            )

    async def take_back(
        self,
        table_id: str,
        game_number: int,
        keep: int,
        players: list[dict[str, Any]],
        *,
        epoch: int | None = None,
    ) -> None:
        def take_back(conn: Connection) -> None:
            game = (moves_t.c.table_id == table_id) & (moves_t.c.game_number == game_number)
            conn.execute(delete(moves_t).where(game & (moves_t.c.seq > keep)))
            conn.execute(
                update(games_t)
                .where((games_t.c.table_id == table_id) & (games_t.c.game_number == game_number))
                .values(players=json.dumps(players))
            )

        await self._call(fenced(table_id, epoch, take_back))

    async def fence(self, table_id: str) -> int:
        def fence(conn: Connection) -> int:
            if conn.dialect.name == "postgresql":  # a move being stored: waited for, 2 s at most
                conn.execute(text("SET LOCAL lock_timeout = '2s'"))
            found = (
                conn.execute(
                    update(fences_t)
                    .where(fences_t.c.table_id == table_id)
                    .values(epoch=fences_t.c.epoch + 1)
                    .returning(fences_t.c.epoch)
                )
            ).first()
            if found is not None:
                return int(found[0])
            # The table's first load as a cluster's (only a table that exists: a request for
            # a made-up id must write nothing).
            if not exists(conn, table_id):
                return 0
            conn.execute(insert(fences_t).values(table_id=table_id, epoch=1))
            return 1

        return int(await self._call(fence))

    async def keep(self, table_id: str, part: str, value: Any, *, epoch: int | None = None) -> None:
        if part not in KEPT:
            raise ValueError(f"a table keeps no {part!r}")
        kept = update(tables_t).where(tables_t.c.id == table_id).values({part: json.dumps(value)})
        await self._call(fenced(table_id, epoch, lambda conn: conn.execute(kept)))

    async def save_review(
        self, table_id: str, game_number: int, seat: int, worlds: int, review: str
    ) -> None:
        key = {"table_id": table_id, "game_number": game_number, "seat": seat, "worlds": worlds}

        def save(conn: Connection) -> None:
            conn.execute(delete(reviews_t).where(review_key(key)))
            conn.execute(insert(reviews_t).values(**key, review=review, created_at=time.time()))

        await self._call(save)

    # -- reads ----------------------------------------------------------------------------
    async def load_table(self, table_id: str) -> TableRow | None:
        def load(conn: Connection) -> TableRow | None:
            found = conn.execute(select(tables_t).where(tables_t.c.id == table_id))
            row = found.mappings().first()
            if row is None:
                return None
            seats = conn.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            )
            return TableRow(
                id=row["id"],
                preset=row["preset"],
                settings=json.loads(row["settings"]),
                players=row["players"],
                turn_timer=row["turn_timer"],
                bot_takeover=row["bot_takeover"],
                status=row["status"],
                game_number=row["game_number"],
                seed=row["seed"],
                seats=[
                    SeatRow(r["seat"], r["kind"], r["name"], r["bot"], r["token_hash"])
                    for r in seats.mappings()
                ],
                created_at=row["created_at"],
                **{part: json.loads(row[part] or "null") for part in KEPT},
            )

        found: TableRow | None = await self._call(load)
        return found

    async def table_exists(self, table_id: str) -> bool:
        return bool(await self._aside(lambda conn: exists(conn, table_id)))

    async def active_tables(self) -> list[str]:
        def active(conn: Connection) -> list[str]:
            rows = conn.execute(
                select(tables_t.c.id).where(tables_t.c.status == "playing").order_by(tables_t.c.id)
            )
            return [r[0] for r in rows]

        found: list[str] = await self._aside(active)
        return found

    async def games(self, table_id: str) -> list[GameRow]:
        def games(conn: Connection) -> list[GameRow]:
            rows = conn.execute(
                select(games_t)
                .where(games_t.c.table_id == table_id)
                .order_by(games_t.c.game_number)
            )
            return [game_row(r) for r in rows.mappings()]

        found: list[GameRow] = await self._call(games)
        return found

    async def game(self, table_id: str, game_number: int) -> GameRow | None:
        def game(conn: Connection) -> GameRow | None:
            rows = conn.execute(
                select(games_t).where(
                    (games_t.c.table_id == table_id) & (games_t.c.game_number == game_number)
                )
            )
            row = rows.mappings().first()
            return None if row is None else game_row(row)

        found: GameRow | None = await self._call(game)
        return found

    async def moves(self, table_id: str, game_number: int) -> list[MoveRow]:
        def moves(conn: Connection) -> list[MoveRow]:
            rows = conn.execute(
                select(moves_t.c.seq, moves_t.c.seat, moves_t.c.move, moves_t.c.code, moves_t.c.by)
                .where((moves_t.c.table_id == table_id) & (moves_t.c.game_number == game_number))
                .order_by(moves_t.c.seq)
            )
            return [MoveRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

        found: list[MoveRow] = await self._call(moves)
        return found

    async def load_review(
        self, table_id: str, game_number: int, seat: int, worlds: int
    ) -> str | None:
        key = {"table_id": table_id, "game_number": game_number, "seat": seat, "worlds": worlds}

        def load(conn: Connection) -> str | None:
            row = conn.execute(select(reviews_t.c.review).where(review_key(key))).first()
            return None if row is None else str(row[0])

        found: str | None = await self._call(load)
        return found
