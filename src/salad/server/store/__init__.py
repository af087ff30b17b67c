"""Where tables live between restarts, behind one interface (:class:`TableStore`).

* :mod:`~.base`: the :class:`TableStore` protocol, its rows and its refusals;
* :mod:`~.sql`: :class:`SqlStore`, SQLite or PostgreSQL on SQLAlchemy (and which database);
  its tables and statements in :mod:`~.statements`, the connections they run on in
  :mod:`~.connections` (with the schema brought up to date at start by ``migrations/``,
  Alembic's), group commit in :mod:`~.commit`;
* :mod:`~.memory`: :class:`MemoryStore`, the same semantics in a dict (tests in one process).
"""

from salad.server.store.base import (
    DuplicateMove,
    GameRow,
    MoveRow,
    SeatRow,
    StaleCopy,
    StoreTimeout,
    TableRow,
    TableStore,
    hash_token,
)
from salad.server.store.memory import MemoryStore
from salad.server.store.sql import SqlStore, check_database, database_url

__all__ = [
    "DuplicateMove",
    "GameRow",
    "MemoryStore",
    "MoveRow",
    "SeatRow",
    "SqlStore",
    "StaleCopy",
    "StoreTimeout",
    "TableRow",
    "TableStore",
    "check_database",
    "database_url",
    "hash_token",
]
