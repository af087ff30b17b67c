"""Who is at a table: its websockets (a seat's or a spectator's) coming and going."""

from __future__ import annotations

import asyncio

from salad.server.tables.connection import Conn
from salad.server.tables.registry import Registry
from salad.server.tables.table import Table
from salad.server.tables.talk import Talk
from salad.server.tables.turns import Turns
from salad.view import SPECTATOR


class Presence:
    """Adds connections to their tables and takes them off."""

    def __init__(self, registry: Registry, talk: Talk, turns: Turns) -> None:
        self.registry = registry
        self.talk = talk
        self.turns = turns

    async def connect(self, table: Table, conn: Conn) -> Table:
        """Add ``conn`` to the table; the table in memory it joined (which is a fresh load of
        ``table`` if that was unloaded meanwhile: the caller uses the one returned).

        A seat's coming and going is a change like any other, made under the table's lock: a
        bot's move for the seat while it was away, being stored as the seat's owner comes back,
        is played before the owner is counted in (who then sees it), never after."""
        tables = self.registry.tables
        while True:
            if tables.get(table.id) is not table:
                table = await self.registry.get(table.id)
            async with table.lock:
                if tables.get(table.id) is table:
                    self._join(table, conn)
                    return table

    def _join(self, table: Table, conn: Conn) -> None:
        self.registry.touch(table.id)
        self.talk.welcome(table, conn)  # the table's recent chat lines
        if conn.seat == SPECTATOR:
            table.spectators.append(conn)
            conn.push(table.state_messages()(conn))
            return
        seat = table.seats[conn.seat]
        seat.conns.append(conn)
        if len(seat.conns) == 1:
            seat.takeover = False
            table.changed()
            self.turns.schedule(table)
            table.broadcast()
        else:
            conn.push(table.state_messages()(conn))

    async def disconnect(self, table: Table, conn: Conn) -> None:
        """Take ``conn`` off the table. Not under the lock: a connection closed by the server
        (a table dropped) is closed at once, not after a store that may hang (the database
        away); a bot's move decided for a seat just left is as good as one decided after."""
        conn.stop()
        if table.id in self.registry.tables:
            self.registry.touch(table.id)
        if conn in table.spectators:
            table.spectators.remove(conn)
            return
        for s in table.seats:
            if conn in s.conns:
                s.conns.remove(conn)
                if not s.conns:
                    s.away_since = asyncio.get_running_loop().time()
                    table.changed()
                    self.turns.schedule(table)
                    table.broadcast()
                return
