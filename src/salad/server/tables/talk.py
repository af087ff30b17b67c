"""Table talk: short chat lines and quick reactions at a table, in memory only.

A line goes to every connection of the table (seats and spectators) and nowhere else; it is
never written to the database nor to a game's record. Each table keeps its last
:data:`KEPT_LINES` lines, sent to a connection when it connects (a client that reconnects sees
them). Spectators read; they write only once the host allows it (``chat_settings``, in memory
too: a restarted server forgets it). Each seat (or spectator connection) has a ``chat`` token
bucket (:mod:`salad.server.ratelimit`; in Redis on a cluster).

On a cluster the talk follows its table from node to node: the node holding a table keeps its
room (:mod:`salad.server.tables.keeper`) before it sends a change out, and a node that takes the
table over (its holder died, or let it go) recalls it when it loads the table. A table that
leaves memory because nobody is at it forgets its talk, as one server does.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from salad.server.errors import ActionError
from salad.server.messages import ChatIn, ChatSettingsIn
from salad.server.ratelimit import RateLimits
from salad.server.tables.connection import Conn
from salad.server.tables.keeper import TALK, Keeper, keep, recall
from salad.server.tables.table import Table
from salad.view import SPECTATOR

__all__ = ["KEPT_LINES", "Talk"]

KEPT_LINES = 50
"""The recent lines a table keeps for connections that come later."""


@dataclass
class Room:
    """One table's talk: its recent lines and whether spectators may write."""

    lines: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEPT_LINES))
    spectators: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a change is kept and sent: changes go out in the order they are kept."""


class Talk:
    """The talk of every table of a manager."""

    def __init__(self, rates: RateLimits | None = None) -> None:
        self.rates = rates if rates is not None else RateLimits()
        """Set by ``create_app`` to the app's limits (``SALAD_RATE_LIMITS``)."""
        self.rooms: dict[str, Room] = {}
        self.keeper: Keeper | None = None
        """A cluster node's Redis (salad.server.cluster); None: in memory only."""

    def room(self, table: Table) -> Room:
        room = self.rooms.get(table.id)
        if room is None:
            room = self.rooms[table.id] = Room()
        return room

    def welcome(self, table: Table, conn: Conn) -> None:
        """A new connection gets the recent lines and the table's chat settings (nothing
        while the table has neither)."""
        room = self.rooms.get(table.id)
        if room is None or not (room.lines or room.spectators):
            return
        conn.push(
            json.dumps(
                {"type": "chat_log", "lines": list(room.lines), "spectators": room.spectators}
            )
        )

    async def recall(self, table: Table) -> None:
        """The table's talk as its last holder kept it (a table being loaded on a cluster
        node): ``{"lines": [...], "spectators": bool}``."""
        kept = await recall(self.keeper, table.id, TALK)
        if not isinstance(kept, dict) or not isinstance(kept.get("lines"), list):
            return
        lines = [line for line in kept["lines"] if isinstance(line, dict)]
        spectators = kept.get("spectators") is True
        if lines or spectators:
            self.rooms[table.id] = Room(deque(lines, maxlen=KEPT_LINES), spectators)

    async def _keep(self, table: Table, lines: list[dict[str, Any]], spectators: bool) -> None:
        """Keep the room as it will be (its lock held), before the change goes out."""
        room = {"lines": lines[-KEPT_LINES:], "spectators": spectators}
        await keep(self.keeper, table.id, TALK, room)

    async def say(self, table: Table, conn: Conn, message: ChatIn) -> None:
        room = self.room(table)
        seat = conn.seat
        if seat == SPECTATOR and not room.spectators:
            raise ActionError(
                "chat: spectators may read the chat; only the host can let them write", 403
            )
        if (message.text is None) == (message.emote is None):
            raise ActionError('chat: send either "text" or "emote"')
        key = f"{table.id}:{seat}" if seat != SPECTATOR else f"{table.id}:spectator:{id(conn)}"
        wait = await self.rates.take("chat", key)  # in Redis on a cluster: it follows the table
        if wait > 0:
            rate = self.rates.rates["chat"]
            raise ActionError(
                f"chat: too many messages (at most {rate}): wait {max(1, math.ceil(wait))} s",
                429,
            )
        own = None if seat == SPECTATOR else table.seats[seat].name or f"Seat {seat + 1}"
        name = own or "Spectator"
        line: dict[str, Any] = {"seat": seat, "name": name, "at": round(time.time(), 3)}
        if message.text is not None:
            line["text"] = message.text
        else:
            line["emote"] = message.emote
        text = json.dumps({"type": "chat", **line})
        async with room.lock:
            await self._keep(table, [*room.lines, line], room.spectators)
            room.lines.append(line)
            for c in table.connections():
                c.push(text)

    async def settings(self, table: Table, conn: Conn, message: ChatSettingsIn) -> None:
        if conn.seat != 0:
            raise ActionError("chat_settings: only the host (seat 0) may change who can chat", 403)
        room = self.room(table)
        text = json.dumps({"type": "chat_settings", "spectators": message.spectators})
        async with room.lock:
            await self._keep(table, list(room.lines), message.spectators)
            room.spectators = message.spectators
            for c in table.connections():
                c.push(text)
