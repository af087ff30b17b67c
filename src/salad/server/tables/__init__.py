"""Tables in memory: seats, the game, websocket fan-out, bots and timers.

:mod:`~salad.server.tables.table` is one table, :mod:`~salad.server.tables.connection` one
websocket and its outbox, :mod:`~salad.server.tables.wire` what is sent (JSON), and
:mod:`~salad.server.tables.turns` who moves when no human does (bots, turn timers). The verbs
have one room each, composed by the :class:`TableManager` (its module lists them): the only
thing that changes a table.
"""

from __future__ import annotations

from salad.server.tables.connection import Conn
from salad.server.tables.manager import Joined, TableManager
from salad.server.tables.table import Table

__all__ = ["Conn", "Joined", "Table", "TableManager"]
