"""Where tables live between restarts, behind one interface (:class:`TableStore`, in
:mod:`~.base`): :class:`SqlStore` (SQLite or PostgreSQL, :mod:`~.sql`) and :class:`MemoryStore`
(a dict, for tests in one process)."""

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
from salad.server.store.connections import DamagedDatabase
from salad.server.store.memory import MemoryStore
from salad.server.store.sql import SqlStore, check_database, database_url

__all__ = [
    "DamagedDatabase",
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
