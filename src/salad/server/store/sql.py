"""The SQL store: SQLite (a file) or PostgreSQL (psycopg), on SQLAlchemy's public API and Core.

Every call goes through group commit (:mod:`~.commit`): the calls of a turn of the event loop
are one transaction, on a connection the store keeps (:mod:`~.connections`). On PostgreSQL a
batch of moves and of what tables keep (almost every batch of a busy server) is one statement in
autocommit: one round trip instead of four or more (BEGIN, the moves, the fences, COMMIT).
The looks that must never wait behind the moves (whether a table exists, the tables being
played) read aside.

Which database: :func:`database_url` makes its URL from what a user gives, and
:func:`check_database` is the one-line check ``salad serve`` makes before it listens.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from alembic.util import CommandError
from platformdirs import user_data_path
from sqlalchemy import Connection, delete, insert, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from salad.errors import SaladError
from salad.server.store.base import (
    KEPT,
    STORE_TIMEOUT,
    Epoch,
    GameRow,
    MoveRow,
    Over,
    Players,
    SeatRow,
    TableRow,
)
from salad.server.store.commit import GroupCommit, InlineCommit
from salad.server.store.connections import (
    DamagedDatabase,
    FileConnections,
    ServerConnections,
    damage_of,
    quick_check,
)
from salad.server.store.statements import (
    Op,
    batch,
    exists,
    fenced,
    fenced_moves,
    fences_t,
    games_of,
    games_t,
    match,
    moves_t,
    reviews_t,
    save_seats,
    seats_t,
    set_status,
    tables_t,
)

T = TypeVar("T")

DIALECTS = ("sqlite", "postgresql")
"""The databases the server runs on."""


def database_url(value: str | None) -> str:
    """A SQLAlchemy URL from what a user gives: nothing (``salad.db`` in the user data
    directory), a path, ``sqlite:///...`` or ``postgresql://...`` (mapped to psycopg)."""
    if not value:
        path = user_data_path("salad", appauthor=False) / "salad.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgresql://", "postgres://"):
        if value.startswith(prefix):
            return "postgresql+psycopg://" + value[len(prefix) :]
    if "://" not in value:
        return f"sqlite:///{Path(value).expanduser().resolve()}"
    return value


COPIED = (
    "id",
    "preset",
    "players",
    "turn_timer",
    "bot_takeover",
    "status",
    "game_number",
    "seed",
    "pace",
    "group_id",
)
"""The columns of ``salad_tables`` stored as a :class:`~.base.TableRow` has them."""


class SqlStore:
    """A :class:`~.base.TableStore` in a SQL database (``url`` as :func:`database_url` takes it)."""

    def __init__(self, url: str, store_timeout: float = STORE_TIMEOUT) -> None:
        self.url = database_url(url)
        parsed = make_url(self.url)
        self.connections: FileConnections | ServerConnections
        self.commit: InlineCommit[Op] | GroupCommit[Op]
        if parsed.get_backend_name() == "sqlite":
            files = self.connections = FileConnections(parsed, store_timeout)
            self.commit = InlineCommit(lambda ops: files.run(lambda conn: batch(conn, ops)))
        else:
            self.connections = ServerConnections(parsed, store_timeout)
            self.commit = GroupCommit(
                self._run_batch, self._run_one, store_timeout, self.connections.forget_busy
            )
        self.engine = self.connections.engine
        self.sync_engine = self.connections.sync_engine
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
        kept = [op.kept for op in ops if op.kept is not None]
        if len(moves) + len(kept) == len(ops):
            alone = [(t, g, m, e) for t, g, m, _, e in moves]
            await self.connections.run(lambda conn: fenced_moves(conn, alone, kept), auto=True)
            return [None] * len(ops)
        return list(await self.connections.run(lambda conn: batch(conn, ops)))

    async def _run_one(self, op: Op) -> Any:
        assert isinstance(self.connections, ServerConnections)
        return (await self.connections.run(lambda conn: batch(conn, [op])))[0]

    async def call(self, fn: Callable[[Connection], T]) -> T:
        """``fn``'s result, run on a connection in a batch's transaction (group commit): how
        the stores beside this one in the same database (:mod:`~.players`) read and write."""
        return cast(T, await self.commit.call(Op(fn=fn)))

    async def ping(self) -> None:
        """Return once the database answers; :class:`DamagedDatabase` if a statement has found
        it damaged since the start (it stays so: a damaged database is not served)."""
        damaged = self.connections.watch.damaged
        if damaged is not None:
            raise DamagedDatabase(damaged)
        await self.call(lambda conn: conn.execute(select(1)))

    # -- writes ---------------------------------------------------------------------------
    async def create_table(self, row: TableRow) -> None:
        values = {name: getattr(row, name) for name in COPIED}
        values["settings"] = json.dumps(row.settings, sort_keys=True)
        values["created_at"] = values["updated_at"] = time.time()

        def create(conn: Connection) -> None:
            conn.execute(insert(tables_t).values(**values))
            save_seats(conn, row.id, row.seats)

        await self.call(create)

    async def save_seats(self, table_id: str, seats: list[SeatRow], *, epoch: Epoch = None) -> None:
        await self.call(fenced(table_id, epoch, lambda conn: save_seats(conn, table_id, seats)))

    async def set_pace(self, table_id: str, pace: str, *, epoch: Epoch = None) -> None:
        change = update(tables_t).where(tables_t.c.id == table_id).values(pace=pace)
        await self.call(fenced(table_id, epoch, lambda conn: conn.execute(change)))

    async def start_game(
        self, table_id: str, game_number: int, seed: int, players: Players, *, epoch: Epoch = None
    ) -> None:
        def start(conn: Connection) -> None:
            values = {"seed": seed, "players": json.dumps(players), "status": "playing"}
            conn.execute(
                insert(games_t).values(
                    table_id=table_id, game_number=game_number, started_at=time.time(), **values
                )
            )
            set_status(conn, table_id, "playing", game_number)

        await self.call(fenced(table_id, epoch, start))

    async def add_move(
        self,
        table_id: str,
        game_number: int,
        move: MoveRow,
        over: Over | None = None,
        epoch: Epoch = None,
    ) -> None:
        await self.commit.call(Op(move=(table_id, game_number, move, over, epoch)))

    async def take_back(
        self, table_id: str, game_number: int, keep: int, players: Players, *, epoch: Epoch = None
    ) -> None:
        def take_back(conn: Connection) -> None:
            game = match(moves_t, table_id=table_id, game_number=game_number)
            conn.execute(delete(moves_t).where(game & (moves_t.c.seq > keep)))
            conn.execute(
                update(games_t)
                .where(match(games_t, table_id=table_id, game_number=game_number))
                .values(players=json.dumps(players))
            )

        await self.call(fenced(table_id, epoch, take_back))

    async def fence(self, table_id: str) -> int:
        def fence(conn: Connection) -> int:
            if conn.dialect.name == "postgresql":  # a move being stored: waited for, 2 s at most
                conn.execute(text("SET LOCAL lock_timeout = '2s'"))
            found = conn.execute(
                update(fences_t)
                .where(fences_t.c.table_id == table_id)
                .values(epoch=fences_t.c.epoch + 1)
                .returning(fences_t.c.epoch)
            ).first()
            if found is not None:
                return int(found[0])
            # The table's first load as a cluster's (only a table that exists: a request for
            # a made-up id must write nothing).
            if not exists(conn, table_id):
                return 0
            conn.execute(insert(fences_t).values(table_id=table_id, epoch=1))
            return 1

        return await self.call(fence)

    async def keep(self, table_id: str, part: str, value: Any, *, epoch: Epoch = None) -> None:
        if part not in KEPT:
            raise ValueError(f"a table keeps no {part!r}")
        await self.commit.call(Op(kept=(table_id, part, json.dumps(value), epoch)))

    async def save_review(
        self, table_id: str, game_number: int, seat: int, worlds: int, review: str
    ) -> None:
        key = {"table_id": table_id, "game_number": game_number, "seat": seat, "worlds": worlds}

        def save(conn: Connection) -> None:
            conn.execute(delete(reviews_t).where(match(reviews_t, **key)))
            conn.execute(insert(reviews_t).values(**key, review=review, created_at=time.time()))

        await self.call(save)

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
                **{name: row[name] for name in COPIED},
                settings=json.loads(row["settings"]),
                seats=[
                    SeatRow(
                        r["seat"], r["kind"], r["name"], r["bot"], r["token_hash"], r["player_id"]
                    )
                    for r in seats.mappings()
                ],
                created_at=row["created_at"],
                **{part: json.loads(row[part] or "null") for part in KEPT},
            )

        return await self.call(load)

    async def table_exists(self, table_id: str) -> bool:
        return bool(await self.connections.aside(lambda conn: exists(conn, table_id)))

    async def active_tables(self) -> list[str]:
        ids = tables_t.c.id
        playing = select(ids).where(tables_t.c.status == "playing").order_by(ids)
        return list(await self.connections.aside(lambda conn: conn.scalars(playing).all()))

    async def games(self, table_id: str) -> list[GameRow]:
        return await self.call(lambda conn: games_of(conn, table_id))

    async def game(self, table_id: str, game_number: int) -> GameRow | None:
        found = await self.call(lambda conn: games_of(conn, table_id, game_number))
        return found[0] if found else None

    async def moves(self, table_id: str, game_number: int) -> list[MoveRow]:
        def moves(conn: Connection) -> list[MoveRow]:
            rows = conn.execute(
                select(moves_t.c.seq, moves_t.c.seat, moves_t.c.move, moves_t.c.code, moves_t.c.by)
                .where(match(moves_t, table_id=table_id, game_number=game_number))
                .order_by(moves_t.c.seq)
            )
            return [MoveRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

        return await self.call(moves)

    async def load_review(
        self, table_id: str, game_number: int, seat: int, worlds: int
    ) -> str | None:
        key = {"table_id": table_id, "game_number": game_number, "seat": seat, "worlds": worlds}

        def load(conn: Connection) -> str | None:
            row = conn.execute(select(reviews_t.c.review).where(match(reviews_t, **key))).first()
            return None if row is None else str(row[0])

        return await self.call(load)


def shown_url(url: str) -> str:
    """``url`` as shown to people (no password), once checked without opening anything: a
    database the server knows, in a folder that exists; else a one-line :class:`SaladError`."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SaladError(f"database {url}: not a database URL or a file path") from None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() not in DIALECTS:
        raise SaladError(
            f"database {shown}: not a database the server knows (use a SQLite file path, "
            "sqlite:///FILE or postgresql://user:password@host/name)"
        )
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).expanduser().parent
        if not folder.is_dir():
            raise SaladError(f"database {shown}: the folder {folder} does not exist")
    return shown


RECOVER = ": restore it from a backup, or serve a new database (--database another path)"
"""What a damaged database's line says to do."""


def check_database(url: str) -> str:
    """Open the database at ``url`` once (checked whole on SQLite, its schema brought up to
    date) and return it as :func:`shown_url` does; any problem (a database of a newer salad
    too, a damaged one) is a one-line :class:`SaladError`. Called where no event loop runs
    (``salad serve`` before it listens).

    >>> check_database("garbage://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: database garbage://x: not a database the server knows (use ...)
    """
    shown = shown_url(url)

    async def opened() -> None:
        store = SqlStore(url)
        try:
            await store.connections.aside(quick_check)  # before anything is written to it
            await store.open()
        finally:
            await store.close()

    try:
        asyncio.run(opened())
    except DamagedDatabase as exc:
        raise SaladError(f"database {shown}: damaged ({exc}){RECOVER}") from None
    except (SQLAlchemyError, CommandError, ImportError, OSError) as exc:
        cause = getattr(exc, "orig", None) or exc
        damage = damage_of(cause)  # met where no statement ran (the watch saw none)
        if damage is not None:
            raise SaladError(f"database {shown}: damaged ({damage}){RECOVER}") from None
        reason = " ".join(str(cause).split())
        raise SaladError(f"database {shown}: cannot be opened ({reason})") from None
    return shown
