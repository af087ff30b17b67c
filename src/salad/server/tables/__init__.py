"""Tables in memory: seats, the game, websocket fan-out, bots and timers.

- :mod:`~salad.server.tables.wire`: what is sent: a game's views and ``state`` messages as JSON;
- :mod:`~salad.server.tables.connection`: one websocket and its outbox;
- :mod:`~salad.server.tables.table`: one table: seats, game, connections, lobby;
- :mod:`~salad.server.tables.turns`: bots, away seats taken over, turn timers;
- :mod:`~salad.server.tables.talk` and :mod:`~salad.server.tables.assist`: chat; hints and undo;
- :mod:`~salad.server.tables.placement`: which tables this server plays (alone: all of them);
- the verbs, one room each: :mod:`~salad.server.tables.registry` (the tables in memory, loaded
  and let go of; the fenced store), :mod:`~salad.server.tables.lobby` (create, join, seats,
  start, rematch), :mod:`~salad.server.tables.presence` (websockets coming and going),
  :mod:`~salad.server.tables.moves` (a move: stored first, then applied and broadcast),
  :mod:`~salad.server.tables.hand_end` (Next hand), :mod:`~salad.server.tables.reads` (games,
  records) and :mod:`~salad.server.tables.dispatch` (a websocket message to its handler);
- :mod:`~salad.server.tables.manager`: the :class:`TableManager`, which composes them: the
  only thing that changes a table.
"""

from __future__ import annotations

from salad.server.tables.connection import Conn
from salad.server.tables.manager import Joined, TableManager
from salad.server.tables.placement import Placement, SingleNode
from salad.server.tables.table import Seat, Table
from salad.server.tables.wire import view_json

__all__ = [
    "Conn",
    "Joined",
    "Placement",
    "Seat",
    "SingleNode",
    "Table",
    "TableManager",
    "view_json",
]
