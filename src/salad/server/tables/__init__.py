"""Tables in memory: seats, the game, websocket fan-out, bots and timers.

- :mod:`~salad.server.tables.wire`: what is sent: a game's views and ``state`` messages as JSON;
- :mod:`~salad.server.tables.connection`: one websocket and its outbox;
- :mod:`~salad.server.tables.table`: one table: seats, game, connections, lobby;
- :mod:`~salad.server.tables.turns`: bots, away seats taken over, turn timers;
- :mod:`~salad.server.tables.talk` and :mod:`~salad.server.tables.assist`: chat; hints and undo;
- :mod:`~salad.server.tables.keeper`: what a cluster node keeps of a table in Redis besides its
  game (its chat, who has pressed Next hand), for the node that takes the table over;
- :mod:`~salad.server.tables.manager`: the :class:`TableManager`, the only thing that changes
  a table (stored first, then applied and broadcast).
"""

from __future__ import annotations

from salad.server.tables.connection import Conn
from salad.server.tables.manager import Joined, TableManager
from salad.server.tables.table import Seat, Table
from salad.server.tables.wire import view_json

__all__ = ["Conn", "Joined", "Seat", "Table", "TableManager", "view_json"]
