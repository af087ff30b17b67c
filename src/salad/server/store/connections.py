"""Where a SQL store's statements (:mod:`~.statements`, on a synchronous ``Connection``) run:

* :class:`FileConnections` (SQLite): on the event loop itself. A commit in WAL mode with
  ``synchronous=NORMAL`` is a write to the OS, microseconds: a thread hand-over costs more;
* :class:`ServerConnections` (PostgreSQL): the asyncio engine on psycopg, a call's
  transaction in one ``AsyncConnection.run_sync``, the event loop free meanwhile.

Each keeps the connection its batches run on (a pool check-out costs as much as a batch of
moves on SQLite) until a call fails; reads :meth:`aside` take their own. On opening,
:func:`upgrade` brings the schema up to date by Alembic (``migrations/versions``), a database
made before the migrations included; on PostgreSQL under an advisory lock, so the nodes of a
cluster starting together upgrade one after the other.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, create_engine, event, inspect, text
from sqlalchemy.engine import URL, Engine, ExceptionContext
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import StaticPool

from salad.server.store.base import StoreTimeout
from salad.server.store.statements import Statement

log = logging.getLogger("salad.server")

LOCK = 7261
"""The PostgreSQL advisory lock held while the schema is upgraded."""

CONNECT_TIMEOUT = 10
"""Seconds a new connection to a server database may take (libpq's ``connect_timeout``,
unless the URL names one): a server that accepts the connection and never answers is an
error instead of a wait for ever, at start (``salad serve`` says so in one line) as later."""


def config(conn: Connection) -> Config:
    """Alembic's configuration for migrating the database of ``conn`` (no alembic.ini)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    cfg.attributes["connection"] = conn
    return cfg


TABLES = frozenset(
    {
        *("salad_tables", "salad_seats", "salad_moves", "salad_games", "salad_fences"),
        *("salad_reviews", "salad_players", "salad_signins", "salad_results"),
        *("salad_ratings", "salad_rating_history", "salad_player_stats", "salad_table_rated"),
        *("salad_groups", "salad_group_members", "salad_group_sheets"),
    }
)
"""The tables the migrations make (a test keeps this in step with a new database's)."""


def quick_check(conn: Connection) -> None:
    """:class:`DamagedDatabase` if SQLite's ``quick_check`` finds a fault in the database of
    ``conn`` (it reads the whole file: once a start, :func:`~.sql.check_database`); nothing on
    another database."""
    if conn.dialect.name != "sqlite":
        return
    found = [row[0] for row in conn.execute(text("PRAGMA quick_check"))]
    if found != ["ok"]:
        faults = f"{len(found)} faults" if len(found) > 1 else "a fault"
        raise DamagedDatabase(f"SQLite's quick_check finds {faults}: {found[0]}")


def upgrade(conn: Connection) -> None:
    """Bring the database of ``conn`` to the newest revision, in the transaction of ``conn``;
    :class:`DamagedDatabase` if it lacks a table of its revision (dropped: never made again
    over the rest of the data)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": LOCK})
    tables = set(inspect(conn).get_table_names())
    if "salad_tables" in tables and "alembic_version" not in tables:
        log.info("database made before its migrations: stamped at the first revision")
    command.upgrade(config(conn), "head")
    missing = TABLES - set(inspect(conn).get_table_names())
    if missing:
        raise DamagedDatabase(f"the table {', '.join(sorted(missing))} is missing")


class DamagedDatabase(Exception):
    """The database is damaged: a server must not serve it (the message says how)."""


DAMAGE_STATES = frozenset({"XX001", "XX002", "42P01", "42703"})
"""PostgreSQL's codes of damage: data or an index corrupted, a table or a column of the schema
missing (dropped while the server ran)."""
DAMAGE_NAMES = frozenset({"SQLITE_CORRUPT", "SQLITE_NOTADB"})
"""SQLite's (``sqlite_errorname``): a malformed file, a file that is not a database."""
MISSING = ("no such table", "no such column")
"""How SQLite says a table or a column of the schema is missing (a plain ``SQLITE_ERROR``)."""


def damage_of(exc: BaseException) -> str | None:
    """What a database error says of damage to the database, on one line; None if it is
    another error (the database does not answer, a row refused, ...).

    >>> import sqlite3
    >>> damage_of(sqlite3.OperationalError("no such table: salad_moves"))
    'no such table: salad_moves'
    >>> damage_of(sqlite3.OperationalError("database is locked")) is None
    True
    """
    said = " ".join(str(exc).split())[:200]
    if getattr(exc, "sqlstate", None) in DAMAGE_STATES:  # psycopg's
        return said
    if getattr(exc, "sqlite_errorname", None) in DAMAGE_NAMES or said.startswith(MISSING):
        return said
    return None


class DamageWatch:
    """SQLAlchemy's ``handle_error`` hook of an engine: a driver's error that says the
    database is damaged is raised as :class:`DamagedDatabase` instead, whatever statement met
    it, and :attr:`damaged` keeps the first such (what ``/healthz`` reports)."""

    def __init__(self, engine: Engine) -> None:
        self.damaged: str | None = None
        event.listen(engine, "handle_error", self.seen)

    def seen(self, context: ExceptionContext) -> BaseException | None:
        said = damage_of(context.original_exception)
        if said is None:
            return None
        if self.damaged is None:
            self.damaged = said
        return DamagedDatabase(said)


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # WAL: readers never block the writer; synchronous=NORMAL: a commit survives the process
    # being killed (the data is in the OS), only a power cut can lose the last commits.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _in_transaction(conn: Connection, fn: Statement) -> Any:
    with conn.begin():
        return fn(conn)


class FileConnections:
    """SQLite: statements run on the event loop, on a synchronous engine (``url``'s database;
    a busy file is waited for ``timeout`` seconds)."""

    def __init__(self, url: URL, timeout: float) -> None:
        kwargs: dict[str, Any] = {}
        if url.database in (None, "", ":memory:"):  # one database: one connection for all
            kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(
            url.set(drivername="sqlite+pysqlite"),
            connect_args={"timeout": timeout, "check_same_thread": False},
            paramstyle="named",  # the driver's SQL (statements.driver_sql) takes a dict a row
            **kwargs,
        )
        event.listen(self.engine, "connect", sqlite_pragmas)
        self.sync_engine = self.engine
        self.watch = DamageWatch(self.engine)
        self._conn: Connection | None = None

    async def upgrade(self) -> None:
        with self.engine.begin() as conn:
            upgrade(conn)

    def run(self, fn: Statement) -> Any:
        """``fn`` in a transaction of its own, on the kept connection."""
        conn = self._conn
        if conn is None:
            conn = self._conn = self.engine.connect()
        try:
            return _in_transaction(conn, fn)
        except BaseException:
            self._conn = None
            conn.invalidate()
            raise

    async def aside(self, fn: Statement) -> Any:
        """``fn`` on a connection of its own."""
        with self.engine.connect() as conn:
            return fn(conn)

    async def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()


class ServerConnections:
    """PostgreSQL: statements run through ``AsyncConnection.run_sync`` on an asyncio engine
    (``url``'s database); a read aside waits for the database ``timeout`` seconds at most."""

    def __init__(self, url: URL, timeout: float) -> None:
        # No pre-ping: it costs a round trip per transaction. A connection the server dropped
        # fails its first statement instead, and the pool lets go of it; the group commit runs
        # a failed batch again call by call, on new connections.
        args = {} if "connect_timeout" in url.query else {"connect_timeout": CONNECT_TIMEOUT}
        self.engine = create_async_engine(url, connect_args=args)
        self.sync_engine = self.engine.sync_engine
        self.watch = DamageWatch(self.sync_engine)
        self.timeout = timeout
        self._kept: dict[bool, AsyncConnection] = {}
        """The connections batches run on, by whether in autocommit (for moves alone)."""
        self._busy: AsyncConnection | None = None
        """The kept connection a batch is running on."""

    async def upgrade(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(upgrade)

    async def run(self, fn: Statement, auto: bool = False) -> Any:
        """``fn`` in a transaction of its own, on the kept connection (``auto``: on the one in
        autocommit, where a statement is its own transaction and no BEGIN or COMMIT is sent)."""
        conn = self._kept.get(auto)
        if conn is None:
            conn = await self.engine.connect()
            if auto:
                conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            self._kept[auto] = conn
        self._busy = conn
        try:
            if auto:
                return await conn.run_sync(fn)
            return await conn.run_sync(_in_transaction, fn)
        except BaseException:
            # A call failed (or was cancelled): the next takes a new connection.
            self._forget(conn)
            await conn.invalidate()
            raise
        finally:
            if self._busy is conn:
                self._busy = None

    def _forget(self, conn: AsyncConnection) -> None:
        """Keep ``conn`` no more: the next batch takes a new connection."""
        self._kept = {auto: kept for auto, kept in self._kept.items() if kept is not conn}

    def forget_busy(self) -> None:
        """A batch stuck (refused for taking too long): the next ones go on without its
        connection, which the batch lets go of when it ends."""
        if self._busy is not None:
            self._forget(self._busy)

    async def aside(self, fn: Statement) -> Any:
        """``fn`` on a connection of its own, not behind the batches."""
        try:
            async with asyncio.timeout(self.timeout), self.engine.connect() as conn:
                return await conn.run_sync(fn)
        except TimeoutError:
            raise StoreTimeout(f"the database did not answer in {self.timeout:g} s") from None

    async def close(self) -> None:
        kept, self._kept = self._kept, {}
        for conn in kept.values():
            await conn.invalidate()  # nothing to wait for: no round trip
        await self.engine.dispose()
