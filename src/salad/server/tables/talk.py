"""Table talk: short chat lines and quick reactions at a table.

A line goes to every connection of the table (seats and spectators) and nowhere else, never to a
game's record. Each table keeps its last :data:`KEPT_LINES` lines, sent to a connection when it
connects (a client that reconnects sees them). Spectators read; they write only once the host
allows it (``chat_settings``). Each seat (or spectator connection) has a ``chat`` token bucket
(:mod:`salad.server.ratelimit`; in Redis on a cluster).

The lines and the setting are kept in the store (:meth:`~salad.server.store.TableStore.keep`)
before a change goes out, so the table gets them back when it is loaded again: after a restart,
after it left memory for being idle, on the cluster node that takes it over.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from salad.locale import _
from salad.server.errors import ActionError
from salad.server.incoming import ChatIn, ChatSettingsIn
from salad.server.messages import ChatLogOut, ChatOut, ChatSettingsOut
from salad.server.ratelimit import RateLimits
from salad.server.store import TableStore
from salad.server.tables.connection import Conn
from salad.server.tables.table import Table
from salad.view import SPECTATOR

log = logging.getLogger("salad.server")

KEPT_LINES = 50
"""The recent lines a table keeps for connections that come later."""


async def keep(storage: TableStore, table: Table, part: str, value: Any) -> None:
    """Keep ``value`` as the table's ``part``, fenced with the epoch of this copy; a store that
    refuses it (another node holds the table now) or fails is logged, and play goes on: neither
    the chat nor a press of Next hand is worth refusing for."""
    try:
        await storage.keep(table.id, part, value, epoch=table.epoch)
    except Exception as exc:
        log.warning("table %s: its %s could not be kept (%r)", table.id, part, exc)


@dataclass
class Room:
    """One table's talk: its recent lines and whether spectators may write."""

    lines: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=KEPT_LINES))
    spectators: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a change is kept and sent: changes go out in the order they are kept."""


class Talk:
    """The talk of every table of a manager."""

    def __init__(self, storage: TableStore) -> None:
        self.storage = storage
        self.rates = RateLimits()
        """Set by ``create_app`` to the app's limits (``SALAD_RATE_LIMITS``)."""
        self.rooms: dict[str, Room] = {}

    def welcome(self, table: Table, conn: Conn) -> None:
        """A new connection gets the recent lines and the table's chat settings (nothing
        while the table has neither)."""
        room = self.rooms.get(table.id)
        if room is None or not (room.lines or room.spectators):
            return
        said = {"type": "chat_log", "lines": list(room.lines), "spectators": room.spectators}
        conn.push(ChatLogOut.model_validate(said).model_dump_json())

    def restore(self, table: Table, kept: Any) -> None:
        """Give a table being loaded its talk as last kept (``{"lines", "spectators"}``)."""
        if kept is not None:
            lines = deque(kept["lines"], maxlen=KEPT_LINES)
            self.rooms[table.id] = Room(lines, kept["spectators"])

    async def say(self, table: Table, conn: Conn, message: ChatIn) -> None:
        room = self.rooms.setdefault(table.id, Room())
        seat = conn.seat
        if seat == SPECTATOR and not room.spectators:
            raise ActionError(
                _("chat: spectators may read the chat; only the host can let them write"), 403
            )
        if (message.text is None) == (message.emote is None):
            raise ActionError(_('chat: send either "text" or "emote"'))
        key = f"{table.id}:{seat}" if seat != SPECTATOR else f"{table.id}:spectator:{id(conn)}"
        wait = await self.rates.take("chat", key)  # in Redis on a cluster: it follows the table
        if wait > 0:
            rate = self.rates.rates["chat"]
            raise ActionError(
                _("chat: too many messages (at most {rate}): wait {seconds} s").format(
                    rate=rate, seconds=max(1, math.ceil(wait))
                ),
                429,
            )
        # Who says it, unnamed, in the sender's language (as the seated bots' names are).
        own = None if seat == SPECTATOR else table.seats[seat].name
        name = own or (_("Seat {n}").format(n=seat + 1) if seat != SPECTATOR else _("Spectator"))
        line: dict[str, Any] = {"seat": seat, "name": name, "at": round(time.time(), 3)}
        line |= message.model_dump(include={"text", "emote"}, exclude_none=True)
        text = ChatOut(type="chat", **line).model_dump_json()
        async with room.lock:
            lines = [*room.lines, line][-KEPT_LINES:]  # the room as it will be, kept before
            await keep(self.storage, table, "talk", {"lines": lines, "spectators": room.spectators})
            room.lines.append(line)
            for c in table.connections():
                c.push(text)

    async def settings(self, table: Table, conn: Conn, message: ChatSettingsIn) -> None:
        if conn.seat != 0:
            raise ActionError(
                _("chat_settings: only the host (seat 0) may change who can chat"), 403
            )
        room = self.rooms.setdefault(table.id, Room())
        said = ChatSettingsOut(type="chat_settings", spectators=message.spectators)
        text = said.model_dump_json()
        async with room.lock:
            kept = {"lines": list(room.lines), "spectators": message.spectators}
            await keep(self.storage, table, "talk", kept)
            room.spectators = message.spectators
            for c in table.connections():
                c.push(text)
