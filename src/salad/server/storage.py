"""Where tables live between restarts: SQLite (a file) or PostgreSQL, through SQLAlchemy Core.

Four tables hold everything the server needs to rebuild a table exactly:

* ``salad_tables``: one row per table: ruleset (preset + settings JSON), player count, timers,
  status and the number of the current game;
* ``salad_seats``: one row per seat: kind (``human``, ``bot``, ``open``), display name, bot name
  and the SHA-256 hash of the seat's secret token (never the token itself);
* ``salad_games``: one row per game played at a table: its seed, the seats as they were at the
  start (names for the record), status, totals and winners;
* ``salad_moves``: every accepted move of every game, numbered from 1 (``seq``).

A game is rebuilt from its seed and its moves (``Game(ruleset, players, seed)`` and then every
move in order), so nothing else about a game's state is stored.

:class:`Storage` is synchronous; every method takes a SQLAlchemy connection and runs inside a
transaction the caller opens (:meth:`Storage.run` for one call, :meth:`Storage.batch` for many
in one commit). The server runs them through one :class:`Writer`, which commits many waiting
calls at once and never has the event loop wait on a server database (its moves go over the
driver's asyncio connection, the rest on the writer's thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from platformdirs import user_data_path
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from salad.errors import SaladError

__all__ = [
    "GameRow",
    "MoveRow",
    "SeatRow",
    "CONNECT_TIMEOUT",
    "STORE_TIMEOUT",
    "StaleCopy",
    "Storage",
    "StoreTimeout",
    "TableRow",
    "Writer",
    "check_database",
    "database_url",
    "default_database_path",
    "hash_token",
]

T = TypeVar("T")

metadata = MetaData()

tables_t = Table(
    "salad_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("preset", String(64), nullable=False),
    Column("settings", Text, nullable=False),
    Column("players", Integer, nullable=False),
    Column("turn_timer", Float, nullable=True),
    Column("bot_takeover", Float, nullable=True),
    Column("status", String(16), nullable=False),
    Column("game_number", Integer, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    # The tables being played, found without reading every table ever made: a server
    # resumes them at start-up, and each cluster node looks for those no node holds every
    # second (without it, 14 ms of PostgreSQL's time a look at 300 000 tables, 30 ms on SQLite).
    Index("ix_salad_tables_status", "status"),
)

seats_t = Table(
    "salad_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("salad_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

games_t = Table(
    "salad_games",
    metadata,
    Column("table_id", String(32), ForeignKey("salad_tables.id"), primary_key=True),
    Column("game_number", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("players", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("totals", Text, nullable=True),
    Column("winners", Text, nullable=True),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

moves_t = Table(
    "salad_moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game_number", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", Integer, nullable=False),
    Column("code", String(16), nullable=False),
    Column("by", String(16), nullable=False),
    Column("at", Float, nullable=False),
)

fences_t = Table(
    "salad_fences",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("epoch", Integer, nullable=False),
)
"""A cluster's fencing tokens: each time a node loads a table it raises the table's epoch, and
a move is stored only with the epoch its copy was loaded with (see :meth:`Storage.fence`)."""


class StaleCopy(Exception):
    """A move from a copy of a table that another server has loaded since: not stored."""


class StoreTimeout(Exception):
    """A batch the database did not answer in time (:data:`STORE_TIMEOUT`): refused, though
    it may have been stored after all (a move: the next move at its table finds out, see
    TableManager)."""


STORE_TIMEOUT = 10.0
"""Seconds a batch may wait for a server database (frozen, or cut off without a word: its
connection hangs rather than fails) before its calls are refused (:class:`StoreTimeout`), so
that one batch stuck does not hold up every table's. A batch of moves on the event loop then
has its statement cancelled (the driver takes up to about ten seconds more when nothing
answers); one on the writer's thread is left to end when the database answers, and the
batches after it wait for the thread in turn, each as long at most."""


CONNECT_TIMEOUT = 10
"""Seconds a new connection to a server database may take (libpq's ``connect_timeout``,
unless the URL names one): a server that accepts the connection and never answers, frozen or
behind a network that drops its packets, is an error instead of a wait for ever, when the
server starts (``salad serve`` says so in one line) as when a connection is made again."""


def hash_token(token: str) -> str:
    """The stored form of a seat token (tokens are long random strings: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def default_database_path() -> Path:
    """The SQLite file used when no database is given (in the user data directory)."""
    return user_data_path("salad", appauthor=False) / "salad.db"


def database_url(value: str | None) -> str:
    """A SQLAlchemy URL from what a user gives: nothing (the default SQLite file), a path,
    ``sqlite:///...`` or ``postgresql://...`` (mapped to the psycopg driver)."""
    if not value:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgresql://", "postgres://"):
        if value.startswith(prefix):
            return "postgresql+psycopg://" + value[len(prefix) :]
    if "://" not in value:
        return f"sqlite:///{Path(value).expanduser().resolve()}"
    return value


DIALECTS = ("sqlite", "postgresql")
"""The databases the server runs on."""


def check_database(url: str) -> str:
    """Open the database at ``url`` once (creating its tables) and return it as shown to
    people (no password); any problem is a one-line :class:`SaladError` naming it.

    >>> check_database("garbage://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: database garbage://x: not a database the server knows (use ...)
    """
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
    try:
        Storage(url).close()
    except (SQLAlchemyError, ImportError, OSError) as exc:
        reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
        raise SaladError(f"database {shown}: cannot be opened ({reason})") from None
    return shown


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None


@dataclass
class MoveRow:
    seq: int
    seat: int
    move: int
    code: str
    by: str = "human"


@dataclass
class GameRow:
    game_number: int
    seed: int
    players: list[dict[str, Any]]
    status: str
    totals: list[int] | None = None
    winners: list[int] | None = None
    started_at: float = 0.0
    finished_at: float | None = None


@dataclass
class TableRow:
    id: str
    preset: str
    settings: dict[str, Any]
    players: int
    turn_timer: float | None
    bot_takeover: float | None
    status: str
    game_number: int
    seed: int | None = None
    seats: list[SeatRow] = field(default_factory=list)
    created_at: float = 0.0


class Storage:
    """Tables, seats, games and moves in a SQL database (SQLite or PostgreSQL)."""

    def __init__(self, url: str) -> None:
        self.url = database_url(url)
        parsed = make_url(self.url)
        self.dialect = parsed.get_backend_name()
        kwargs: dict[str, Any] = {}
        self.connect_args: dict[str, Any] = {}
        """What each new connection is given besides the URL (the writer's asyncio one too)."""
        if self.dialect == "sqlite":
            self.connect_args = {"check_same_thread": False, "timeout": 30}
            if parsed.database in (None, "", ":memory:"):
                kwargs["poolclass"] = StaticPool
        elif "connect_timeout" not in parsed.query:  # a server that never answers: an error
            self.connect_args = {"connect_timeout": CONNECT_TIMEOUT}
        if self.connect_args:
            kwargs["connect_args"] = self.connect_args
        # No pre-ping on PostgreSQL: it costs a round trip per transaction (about 5% of
        # a cluster node's CPU per move). A connection the server dropped fails its first
        # statement instead, which makes the pool let go of its connections; every call
        # comes through the Writer, which runs a failed batch again call by call, each on a
        # new connection.
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.dialect == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        with self.engine.begin() as conn:
            if self.dialect == "postgresql":
                # Nodes of a cluster starting together on an empty database: one creates the
                # tables, the others wait for it (else PostgreSQL refuses a duplicate type).
                conn.execute(text("SELECT pg_advisory_xact_lock(7261)"))
            metadata.create_all(conn)
            for table in metadata.sorted_tables:  # indexes added since a database was made
                for index in table.indexes:
                    index.create(conn, checkfirst=True)

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions -------------------------------------------------------------------
    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(conn, *args)`` in a transaction of its own."""
        with self.engine.begin() as conn:
            return fn(conn, *args)

    def batch(self, calls: Sequence[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
        """Several calls in one transaction (one commit); any error rolls back all of them."""
        with self.engine.begin() as conn:
            return [fn(conn, *args) for fn, args in calls]

    @staticmethod
    def ping(conn: Connection) -> None:
        """A round trip to the database (the health check's)."""
        conn.execute(select(1))

    # -- writing ------------------------------------------------------------------------
    @staticmethod
    def create_table(conn: Connection, row: TableRow) -> None:
        now = time.time()
        conn.execute(
            insert(tables_t).values(
                id=row.id,
                preset=row.preset,
                settings=json.dumps(row.settings, sort_keys=True),
                players=row.players,
                turn_timer=row.turn_timer,
                bot_takeover=row.bot_takeover,
                status=row.status,
                game_number=row.game_number,
                seed=row.seed,
                created_at=now,
                updated_at=now,
            )
        )
        Storage.save_seats(conn, row.id, row.seats)

    @staticmethod
    def save_seats(conn: Connection, table_id: str, seats: Sequence[SeatRow]) -> None:
        """Replace every seat of a table (seats are renumbered when one is removed)."""
        conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id))
        if seats:
            conn.execute(
                insert(seats_t),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                    }
                    for s in seats
                ],
            )
        conn.execute(
            update(tables_t)
            .where(tables_t.c.id == table_id)
            .values(players=len(seats), updated_at=time.time())
        )

    @staticmethod
    def set_status(conn: Connection, table_id: str, status: str, game_number: int) -> None:
        conn.execute(
            update(tables_t)
            .where(tables_t.c.id == table_id)
            .values(status=status, game_number=game_number, updated_at=time.time())
        )

    @staticmethod
    def start_game(
        conn: Connection,
        table_id: str,
        game_number: int,
        seed: int,
        players: list[dict[str, Any]],
    ) -> None:
        """A new game row, and the table marked as playing it."""
        conn.execute(
            insert(games_t).values(
                table_id=table_id,
                game_number=game_number,
                seed=seed,
                players=json.dumps(players),
                status="playing",
                started_at=time.time(),
            )
        )
        Storage.set_status(conn, table_id, "playing", game_number)

    @staticmethod
    def add_move(
        conn: Connection,
        table_id: str,
        game_number: int,
        move: MoveRow,
        over: tuple[list[int], list[int]] | None = None,
        epoch: int | None = None,
    ) -> None:
        """One accepted move; ``over`` (totals, winners) when the move ended the game.

        With ``epoch`` (a cluster node's copy of the table), the move is stored only if no
        other node has loaded the table since this copy was (:class:`StaleCopy` otherwise).
        """
        if epoch is not None:
            Storage.hold_epoch(conn, table_id, epoch)
        Storage.insert_moves(conn, [move_params(table_id, game_number, move)])
        if over is not None:
            Storage.finish_game(conn, table_id, game_number, *over)

    @staticmethod
    def fenced(
        conn: Connection, epoch: int | None, fn: Callable[..., T], table_id: str, *args: Any
    ) -> T:
        """``fn(conn, table_id, *args)``, a change of the table from a cluster node's copy of
        ``epoch``, fenced as :meth:`add_move` is (None: not a cluster's copy, not fenced)."""
        if epoch is not None:
            Storage.hold_epoch(conn, table_id, epoch)
        return fn(conn, table_id, *args)

    @staticmethod
    def hold_epoch(conn: Connection, table_id: str, epoch: int) -> None:
        """Check that no other node loaded the table since the copy of ``epoch`` was, and hold
        its fence row until this transaction ends (:class:`StaleCopy` otherwise)."""
        kept = conn.execute(
            update(fences_t)
            .where((fences_t.c.table_id == table_id) & (fences_t.c.epoch == epoch))
            .values(epoch=epoch)
        )
        if kept.rowcount != 1:
            raise StaleCopy(f"table {table_id} was loaded by another server")

    @staticmethod
    def hold_epochs(conn: Connection, held: set[tuple[str, int]]) -> None:
        """:meth:`hold_epoch` for many tables in one statement (a writer's batch of moves)."""
        if len(held) == 1:
            ((table_id, epoch),) = held
            Storage.hold_epoch(conn, table_id, epoch)
        elif held:
            rows = sorted(held)  # the same order of row locks on every node
            hot = _hot_writes(conn.dialect)
            if hot.hold_sql is not None:
                arrays = {"ids": [t for t, _ in rows], "epochs": [e for _, e in rows]}
                kept = conn.exec_driver_sql(hot.hold_sql, arrays)
            else:
                kept = conn.execute(
                    update(fences_t)
                    .where(tuple_(fences_t.c.table_id, fences_t.c.epoch).in_(rows))
                    .values(epoch=fences_t.c.epoch)
                    .returning(fences_t.c.table_id, fences_t.c.epoch)
                )
            _check_held(held, kept)

    @staticmethod
    def insert_moves(conn: Connection, params: list[dict[str, Any]]) -> None:
        """Many moves at once (see :func:`move_params`)."""
        if params:
            _hot_writes(conn.dialect).insert(conn, params)

    @staticmethod
    def add_moves(conn: Connection, moves: Sequence[tuple[str, int, MoveRow, int | None]]) -> None:
        """Many moves, none of which ends its game, each ``(table_id, game_number, move,
        epoch)`` fenced as :meth:`add_move` fences one: all are stored, or none
        (:class:`StaleCopy` if a table was loaded elsewhere).

        On PostgreSQL (psycopg) this is one statement, so that on a connection in autocommit
        it is one round trip to the server instead of four (BEGIN, the moves, the fences,
        COMMIT): the writer's batch of moves, the cluster's one hot write. Its rows go as two
        JSON texts, on the driver's own cursor: for a batch of a few moves, SQLAlchemy's
        execution and the driver's conversion of ten arrays cost twice what the rest does
        (``benchmarks/server_load.py --cluster``); errors are SQLAlchemy's all the same."""
        hot = _hot_writes(conn.dialect)
        if hot.fenced_sql is None:
            Storage.insert_moves(conn, [move_params(t, g, m) for t, g, m, _ in moves])
            Storage.hold_epochs(conn, {(t, e) for t, _, _, e in moves if e is not None})
            return
        sql, rows, held = _fenced_moves(conn.dialect, moves)
        dbapi = conn.dialect.loaded_dbapi
        cursor = conn.connection.cursor()
        try:
            cursor.execute(sql, rows)
            kept = cursor.fetchall()
        except dbapi.Error as exc:
            raise DBAPIError.instance(sql, rows, exc, dbapi.Error) from None
        finally:
            cursor.close()
        _check_held(held, kept)

    @staticmethod
    def finish_game(
        conn: Connection, table_id: str, game_number: int, totals: list[int], winners: list[int]
    ) -> None:
        conn.execute(
            update(games_t)
            .where((games_t.c.table_id == table_id) & (games_t.c.game_number == game_number))
            .values(
                status="over",
                totals=json.dumps(totals),
                winners=json.dumps(winners),
                finished_at=time.time(),
            )
        )
        Storage.set_status(conn, table_id, "over", game_number)

    @staticmethod
    def fence(conn: Connection, table_id: str) -> int:
        """Raise the table's epoch (a cluster node loads it): the new epoch (0 for a table
        that does not exist).

        A node that loaded the table before holds an older epoch, and its moves are refused
        from now on (:meth:`add_move`). If that node is storing a move at this moment, its row
        lock makes this wait for it (at most 2 s on PostgreSQL), so the move it stored is in
        what the new node loads next.
        """
        if conn.dialect.name == "postgresql":
            conn.execute(text("SET LOCAL lock_timeout = '2s'"))
        found = conn.execute(
            update(fences_t)
            .where(fences_t.c.table_id == table_id)
            .values(epoch=fences_t.c.epoch + 1)
            .returning(fences_t.c.epoch)
        ).first()
        if found is not None:
            return int(found[0])
        # The table's first load as a cluster's (only a table that exists: a request for a
        # made-up id must write nothing).
        if not Storage.table_exists(conn, table_id):
            return 0
        conn.execute(insert(fences_t).values(table_id=table_id, epoch=1))
        return 1

    # -- reading ------------------------------------------------------------------------
    @staticmethod
    def table_exists(conn: Connection, table_id: str) -> bool:
        found = conn.execute(select(tables_t.c.id).where(tables_t.c.id == table_id)).first()
        return found is not None

    @staticmethod
    def load_table(conn: Connection, table_id: str) -> TableRow | None:
        row = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
        if row is None:
            return None
        seats = [
            SeatRow(r["seat"], r["kind"], r["name"], r["bot"], r["token_hash"])
            for r in conn.execute(
                select(seats_t).where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat)
            ).mappings()
        ]
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
            seats=seats,
            created_at=row["created_at"],
        )

    @staticmethod
    def active_tables(conn: Connection) -> list[str]:
        """The ids of the tables with a game being played (resumed at start-up)."""
        rows = conn.execute(
            select(tables_t.c.id).where(tables_t.c.status == "playing").order_by(tables_t.c.id)
        )
        return [r[0] for r in rows]

    @staticmethod
    def games(conn: Connection, table_id: str) -> list[GameRow]:
        rows = conn.execute(
            select(games_t).where(games_t.c.table_id == table_id).order_by(games_t.c.game_number)
        ).mappings()
        return [_game_row(r) for r in rows]

    @staticmethod
    def game(conn: Connection, table_id: str, game_number: int) -> GameRow | None:
        row = (
            conn.execute(
                select(games_t).where(
                    (games_t.c.table_id == table_id) & (games_t.c.game_number == game_number)
                )
            )
            .mappings()
            .first()
        )
        return None if row is None else _game_row(row)

    @staticmethod
    def moves(conn: Connection, table_id: str, game_number: int) -> list[MoveRow]:
        rows = conn.execute(
            select(moves_t.c.seq, moves_t.c.seat, moves_t.c.move, moves_t.c.code, moves_t.c.by)
            .where((moves_t.c.table_id == table_id) & (moves_t.c.game_number == game_number))
            .order_by(moves_t.c.seq)
        )
        return [MoveRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    # -- undo at a table of bots (salad.server.tables.assist) ---------------------------
    @staticmethod
    def take_back(
        conn: Connection,
        table_id: str,
        game_number: int,
        keep: int,
        players: list[dict[str, Any]],
    ) -> None:
        """Delete the moves of a game after the first ``keep`` (an undo), and store its
        players' entries (which count the undos, for the record)."""
        game = (moves_t.c.table_id == table_id) & (moves_t.c.game_number == game_number)
        conn.execute(delete(moves_t).where(game & (moves_t.c.seq > keep)))
        conn.execute(
            update(games_t)
            .where((games_t.c.table_id == table_id) & (games_t.c.game_number == game_number))
            .values(players=json.dumps(players))
        )


_INSERT_MOVE = insert(moves_t)


def _arrays(dialect: Dialect) -> bool:
    """Whether the hot writes go as arrays in one statement (PostgreSQL with psycopg)."""
    return dialect.name == "postgresql" and dialect.paramstyle == "pyformat"


def _fenced_moves(
    dialect: Dialect, moves: Sequence[tuple[str, int, MoveRow, int | None]]
) -> tuple[str, dict[str, Any], set[tuple[str, int]]]:
    """:meth:`Storage.add_moves`'s one statement (PostgreSQL), its parameters, and the fences
    it must find held."""
    held = {(t, e) for t, _, _, e in moves if e is not None}
    params = [move_params(t, g, m) for t, g, m, _ in moves]
    rows = {
        "rows": json.dumps(params, separators=(",", ":")),
        "held": json.dumps([{"table_id": t, "epoch": e} for t, e in sorted(held)]),
        "count": len(held),
    }
    sql = _hot_writes(dialect).fenced_sql
    assert sql is not None, "only where the hot writes go as arrays"
    return sql, rows, held


def _check_held(held: set[tuple[str, int]], kept: Any) -> None:
    """:class:`StaleCopy` unless every ``(table_id, epoch)`` of ``held`` came back as held."""
    stale = held - {(str(t), int(e)) for t, e in kept}
    if stale:
        tables = ", ".join(sorted({t for t, _ in stale}))
        raise StaleCopy(f"table(s) {tables} were loaded by another server")


class _HotWrites:
    """How the server's hot writes (moves, and their fences in a cluster) go into the database
    of one dialect: the driver's own SQL, compiled once. Executing a statement through the SQL
    layer costs more than SQLite's insert itself; on PostgreSQL (psycopg), one INSERT of arrays
    (``unnest``) costs about half as much a row as an INSERT a row, and a batch's fences are one
    UPDATE of two arrays instead of SQLAlchemy's IN of as many pairs built for each batch
    (``benchmarks/server_share.py``, ``make bench-cluster``)."""

    def __init__(self, dialect: Dialect) -> None:
        columns = list(moves_t.columns)
        self.names = [c.name for c in columns]
        self.order: tuple[str, ...] | None = None
        self.arrays = _arrays(dialect)
        self.hold_sql: str | None = None
        """Storage.hold_epochs in one statement (arrays ``ids`` and ``epochs``)."""
        self.fenced_sql: str | None = None
        """Storage.add_moves in one statement: the fences held, then the moves inserted if
        every fence was (the rows of the fences held come back); the rows as JSON texts."""
        if self.arrays:
            quote = dialect.identifier_preparer.quote

            def unnest(cols: Sequence[Column[Any]], names: Sequence[str]) -> str:
                arrays = [
                    f"%({n})s::{c.type.compile(dialect)}[]"
                    for c, n in zip(cols, names, strict=True)
                ]
                return f"SELECT * FROM unnest({', '.join(arrays)})"

            table_id, epoch = (quote(c.name) for c in fences_t.columns)

            def holding(rows: str) -> str:
                """The fences of these rows held (their row locks), and the rows back."""
                return (
                    f"UPDATE {quote(fences_t.name)} SET {epoch} = {epoch} "
                    f"WHERE ({table_id}, {epoch}) IN ({rows}) RETURNING {table_id}, {epoch}"
                )

            self.hold_sql = holding(unnest(list(fences_t.columns), ["ids", "epochs"]))
            names = ", ".join(map(quote, self.names))
            into = f"INSERT INTO {quote(moves_t.name)} ({names}) "
            self.sql = into + unnest(columns, self.names)

            def rows_of(table: Table, param: str, names: str) -> str:
                json_rows = f"json_populate_recordset(NULL::{quote(table.name)}, %({param})s::json)"
                return f"SELECT {names} FROM {json_rows}"

            held = holding(rows_of(fences_t, "held", f"{table_id}, {epoch}"))
            self.fenced_sql = (
                f"WITH held AS ({held}), "
                f"added AS ({into}{rows_of(moves_t, 'rows', names)} "
                "WHERE (SELECT count(*) FROM held) = %(count)s) "
                "SELECT * FROM held"
            )
        else:
            compiled = _INSERT_MOVE.compile(dialect=dialect)
            self.sql = str(compiled)
            if dialect.positional:
                self.order = tuple(compiled.positiontup or ())

    def insert(self, conn: Connection, params: list[dict[str, Any]]) -> None:
        if self.arrays:
            conn.exec_driver_sql(self.sql, {n: [p[n] for p in params] for n in self.names})
        elif self.order is not None:
            order = self.order
            conn.exec_driver_sql(self.sql, [tuple([p[k] for k in order]) for p in params])
        else:
            conn.exec_driver_sql(self.sql, params)


_HOT_WRITES: dict[tuple[str, str], _HotWrites] = {}


def _hot_writes(dialect: Dialect) -> _HotWrites:
    key = (dialect.name, dialect.paramstyle)
    found = _HOT_WRITES.get(key)
    if found is None:
        found = _HOT_WRITES[key] = _HotWrites(dialect)
    return found


def move_params(table_id: str, game_number: int, move: MoveRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "game_number": game_number,
        "seq": move.seq,
        "seat": move.seat,
        "move": move.move,
        "code": move.code,
        "by": move.by,
        "at": time.time(),
    }


def _game_row(r: Any) -> GameRow:
    return GameRow(
        game_number=r["game_number"],
        seed=r["seed"],
        players=json.loads(r["players"]),
        status=r["status"],
        totals=None if r["totals"] is None else json.loads(r["totals"]),
        winners=None if r["winners"] is None else json.loads(r["winners"]),
        started_at=r["started_at"],
        finished_at=r["finished_at"],
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers never block the writer; synchronous=NORMAL: a commit survives the process
    # being killed (the data is in the OS), only a power cut can lose the last commits.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


# -- the writer ----------------------------------------------------------------------------


class _Call:
    __slots__ = ("fn", "args", "future")

    def __init__(
        self, fn: Callable[..., Any], args: tuple[Any, ...], future: asyncio.Future[Any]
    ) -> None:
        self.fn = fn
        self.args = args
        self.future = future


class Writer:
    """Runs storage calls, committing everything that waits in one transaction.

    ``await writer.call(Storage.add_move, ...)`` returns once the call is committed (or raises
    its error). Calls are executed in the order they were made; the calls made during one turn
    of the event loop are committed together (group commit). If a batch fails, its calls are
    run again one by one, each in its own transaction, so one bad call fails alone.

    With SQLite (a local file, a commit is a write to the OS, not a network round trip) the
    batch runs on the event loop itself at the end of the turn: no thread hand-over. With a
    server database the batches run one after the other, each with everything that arrived
    while the one before was under way, so the event loop never waits on the network: a batch
    of moves alone (almost all of them) on the event loop, with the driver's asyncio
    connection (:meth:`_add_moves`), any other batch on the writer's thread.

    The writer keeps its connections (taking one from the pool and giving it back costs as much
    as a batch of moves on SQLite); a call that fails lets them go, and the next takes new ones.
    On PostgreSQL a batch of moves alone is one statement (:meth:`Storage.add_moves`) on a
    connection in autocommit: one round trip instead of four, which cost a cluster node more
    CPU than the moves themselves; on the event loop, without the hand-over to a thread and
    back, which cost it as much again.
    """

    MAX_BATCH = 1024

    def __init__(
        self, storage: Storage, inline: bool | None = None, store_timeout: float = STORE_TIMEOUT
    ) -> None:
        self.storage = storage
        self.inline = storage.dialect == "sqlite" if inline is None else inline
        self.store_timeout = store_timeout
        """Seconds a batch may wait for the database (:data:`STORE_TIMEOUT`)."""
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="salad-storage")
        self._pending: list[_Call] = []
        """The calls of this turn of the event loop."""
        self._waiting: list[_Call] = []
        """The calls handed over, not yet run (a server database)."""
        self._drainer: asyncio.Task[None] | None = None
        self._conn: Connection | None = None
        self._auto: Connection | None = None
        """A second connection, in autocommit, for batches of moves alone (on the thread)."""
        self._aio: Any = None
        """PostgreSQL's (psycopg): an asyncio connection in autocommit, for batches of moves
        alone on the event loop."""
        self._one_statement = _arrays(storage.engine.dialect)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._hand_over)
        self._pending.append(_Call(fn, args, future))
        return await future

    def _hand_over(self) -> None:
        calls, self._pending = self._pending, []
        if not calls:
            return
        if self.inline:
            _settle(calls, self._execute(calls))
            return
        self._waiting.extend(calls)
        if self._drainer is None:
            self._drainer = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """Run the calls waiting, a batch at a time, until none is left."""
        try:
            while self._waiting:
                calls = self._waiting[: self.MAX_BATCH]
                del self._waiting[: len(calls)]
                _settle(calls, await self._execute_soon(calls))
        finally:
            self._drainer = None

    def _moves_alone(self, calls: list[_Call]) -> list[tuple[str, int, MoveRow, int | None]] | None:
        """The calls' moves if the calls are moves alone, none ending its game, and go in one
        statement (:meth:`Storage.add_moves` on PostgreSQL); else None."""
        if not self._one_statement:
            return None
        moves = [m for m in map(_move_of, calls) if m is not None]
        return moves if len(moves) == len(calls) else None

    async def _execute_soon(self, calls: list[_Call]) -> list[tuple[bool, Any]]:
        moves = self._moves_alone(calls)
        if moves is not None:
            try:
                async with asyncio.timeout(self.store_timeout):
                    await self._add_moves(moves)
                return [(True, None)] * len(calls)
            except TimeoutError:  # the thread would wait as long: refused, all of them
                await self._drop_aio()
                return self._refused(calls)
            except Exception:  # the thread runs them again, one by one if need be
                await self._drop_aio()
        running = asyncio.get_running_loop().run_in_executor(self._pool, self._execute, calls)
        try:
            async with asyncio.timeout(self.store_timeout):
                return await asyncio.shield(running)
        except TimeoutError:  # the thread goes on with it; what it stores is stored
            return self._refused(calls)

    def _refused(self, calls: list[_Call]) -> list[tuple[bool, Any]]:
        said = f"the database did not answer in {self.store_timeout:g} s"
        return [(False, StoreTimeout(said))] * len(calls)

    async def _add_moves(self, moves: list[tuple[str, int, MoveRow, int | None]]) -> None:
        """:meth:`Storage.add_moves` on the asyncio connection (opened if need be)."""
        if self._aio is None:
            engine = self.storage.engine
            args, kwargs = engine.dialect.create_connect_args(engine.url)
            kwargs.update(self.storage.connect_args)
            connect = engine.dialect.loaded_dbapi.AsyncConnection.connect
            self._aio = await connect(*args, **kwargs, autocommit=True)
        sql, rows, held = _fenced_moves(self.storage.engine.dialect, moves)
        async with self._aio.cursor() as cursor:
            await cursor.execute(sql, rows)
            kept = await cursor.fetchall()
        _check_held(held, kept)

    async def _drop_aio(self) -> None:
        aio, self._aio = self._aio, None
        if aio is not None:
            with contextlib.suppress(Exception):  # a connection already broken
                await aio.close()

    def _run(self, fn: Callable[..., T], *args: Any, auto: bool = False) -> T:
        """``fn(conn, *args)`` in a transaction of its own, on the writer's connection (``auto``:
        on its connection in autocommit, where a statement is its own transaction and no BEGIN
        or COMMIT is sent: :meth:`Storage.add_moves`, one round trip to PostgreSQL)."""
        conn = self._auto if auto else self._conn
        if conn is None:
            conn = self.storage.engine.connect()
            if auto:
                conn = self._auto = conn.execution_options(isolation_level="AUTOCOMMIT")
            else:
                self._conn = conn
        try:
            with conn.begin():
                return fn(conn, *args)
        except BaseException:
            self._drop()
            raise

    def _drop(self) -> None:
        for conn in (self._conn, self._auto):
            if conn is not None:
                with contextlib.suppress(Exception):  # a connection already broken
                    conn.close()
        self._conn = self._auto = None

    def _execute(self, calls: list[_Call]) -> list[tuple[bool, Any]]:
        try:
            moves = self._moves_alone(calls)
            if moves is not None:
                self._run(Storage.add_moves, moves, auto=True)
                return [(True, None)] * len(calls)
            return [(True, r) for r in self._run(_batch, calls)]
        except Exception:
            outcomes: list[tuple[bool, Any]] = []
            for c in calls:
                try:
                    outcomes.append((True, self._run(c.fn, *c.args)))
                except Exception as exc:  # handed to the caller
                    outcomes.append((False, exc))
            return outcomes

    async def close(self, timeout: float = 10.0) -> None:
        """Run what waits (for at most ``timeout`` seconds), then let the connections go (the
        thread's once it is free: it may wait on a database that does not answer)."""
        if self._drainer is not None:
            await asyncio.wait([self._drainer], timeout=timeout)
        await self._drop_aio()
        dropping = asyncio.get_running_loop().run_in_executor(self._pool, self._drop)
        await asyncio.wait([dropping], timeout=timeout)
        self._pool.shutdown(wait=False)


def _add_move_args(
    args: tuple[Any, ...],
) -> tuple[str, int, MoveRow, tuple[list[int], list[int]] | None, int | None]:
    """:meth:`Storage.add_move`'s arguments, its defaults filled in: ``(table_id,
    game_number, move, over, epoch)``."""
    table_id, game_number, move, *rest = args
    return table_id, game_number, move, *(rest + [None, None])[:2]


def _move_of(call: _Call) -> tuple[str, int, MoveRow, int | None] | None:
    """A call's move as :meth:`Storage.add_moves` takes it (None: not a move, or one that
    ends its game)."""
    if call.fn is not Storage.add_move:
        return None
    table_id, game_number, move, over, epoch = _add_move_args(call.args)
    return None if over is not None else (table_id, game_number, move, epoch)


def _batch(conn: Connection, calls: list[_Call]) -> list[Any]:
    """Every call in order; consecutive moves go in together, with one statement."""
    results: list[Any] = []
    moves: list[dict[str, Any]] = []
    held: set[tuple[str, int]] = set()
    for c in calls:
        if c.fn is Storage.add_move:
            table_id, game_number, move, over, epoch = _add_move_args(c.args)
            if epoch is not None:
                held.add((table_id, epoch))
            moves.append(move_params(table_id, game_number, move))
            if over is not None:
                Storage.insert_moves(conn, moves)
                moves = []
                Storage.finish_game(conn, table_id, game_number, *over)
            results.append(None)
        else:
            Storage.insert_moves(conn, moves)
            moves = []
            results.append(c.fn(conn, *c.args))
    Storage.insert_moves(conn, moves)
    # The moves are fenced as add_move fences one (a stale copy fails the batch, and is then
    # refused alone), all in one statement, after everything else of the batch: a load's
    # fence among it counts too. Checked before the commit, in the same transaction, the rows
    # stay locked until then, so a load elsewhere either comes before (refused) or waits.
    Storage.hold_epochs(conn, held)
    return results


def _settle(calls: list[_Call], outcomes: list[tuple[bool, Any]]) -> None:
    for c, (ok, value) in zip(calls, outcomes, strict=True):
        if c.future.done():
            continue
        if ok:
            c.future.set_result(value)
        else:
            c.future.set_exception(value)


# -- game reviews (salad.server.reviews) ---------------------------------------------------------
# A finished game's review of one seat, stored with the game so a second look is instant and
# the same for everyone: the review's JSON (salad.lab.review_model.GameReview), per world count.

reviews_t = Table(
    "salad_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("salad_tables.id"), primary_key=True),
    Column("game_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("worlds", Integer, primary_key=True),
    Column("review", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


def save_review(
    conn: Connection, table_id: str, game_number: int, seat: int, worlds: int, review: str
) -> None:
    """Store a review (replacing one of the same key: both are the same review)."""
    key = (
        (reviews_t.c.table_id == table_id)
        & (reviews_t.c.game_number == game_number)
        & (reviews_t.c.seat == seat)
        & (reviews_t.c.worlds == worlds)
    )
    conn.execute(delete(reviews_t).where(key))
    conn.execute(
        insert(reviews_t).values(
            table_id=table_id,
            game_number=game_number,
            seat=seat,
            worlds=worlds,
            review=review,
            created_at=time.time(),
        )
    )


def load_review(
    conn: Connection, table_id: str, game_number: int, seat: int, worlds: int
) -> str | None:
    """The stored review's JSON, or None."""
    row = conn.execute(
        select(reviews_t.c.review).where(
            (reviews_t.c.table_id == table_id)
            & (reviews_t.c.game_number == game_number)
            & (reviews_t.c.seat == seat)
            & (reviews_t.c.worlds == worlds)
        )
    ).first()
    return None if row is None else str(row[0])
