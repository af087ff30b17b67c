"""Where tables live between restarts, behind one interface (:class:`TableStore`).

* :mod:`~.rows`: the rows a store holds and hands back, and its refusals;
* :mod:`~.base`: the :class:`TableStore` protocol;
* :mod:`~.sql`: :class:`SqlStore`, SQLite or PostgreSQL on SQLAlchemy, its tables in
  :mod:`~.schema`, its statements in :mod:`~.statements` (written once, on a synchronous
  connection) and the connections they run on in :mod:`~.connections` (SQLite's on the event
  loop, PostgreSQL's through the asyncio engine);
* :mod:`~.commit`: group commit, the calls of one turn of the event loop in one transaction;
* :mod:`~.migrate` and ``migrations/``: the schema brought up to date at start (Alembic);
* :mod:`~.memory`: :class:`MemoryStore`, the same semantics in a dict (tests in one process);
* :mod:`~.urls` and :mod:`~.check`: which database, and the check ``salad serve`` makes.
"""

from salad.server.store.base import STORE_TIMEOUT, Over, TableStore
from salad.server.store.check import check_database
from salad.server.store.memory import MemoryStore
from salad.server.store.rows import (
    DuplicateMove,
    GameRow,
    MoveRow,
    SeatRow,
    StaleCopy,
    StoreTimeout,
    TableRow,
    hash_token,
)
from salad.server.store.sql import SqlStore
from salad.server.store.urls import CONNECT_TIMEOUT, database_url, default_database_path

__all__ = [
    "CONNECT_TIMEOUT",
    "STORE_TIMEOUT",
    "DuplicateMove",
    "GameRow",
    "MemoryStore",
    "MoveRow",
    "Over",
    "SeatRow",
    "SqlStore",
    "StaleCopy",
    "StoreTimeout",
    "TableRow",
    "TableStore",
    "check_database",
    "database_url",
    "default_database_path",
    "hash_token",
]
