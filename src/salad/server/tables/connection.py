"""One websocket of a table: its seat and an outbox, so that a slow client never holds up a
table."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Coroutine
from typing import Any, Protocol

from salad.server.tables.wire import TrickKey, error_message

__all__ = ["OUTBOX_LIMIT", "Conn", "Socket"]

OUTBOX_LIMIT = 512
"""A connection this many messages behind is closed (the client reconnects and catches up)."""


class Socket(Protocol):
    """What a connection needs of a websocket (Starlette's ``WebSocket`` has it)."""

    def send_text(self, data: str) -> Coroutine[Any, Any, None]: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Conn:
    """One websocket: a seat (or ``SPECTATOR``) and an outbox.

    A message to an idle connection is written at once (the websocket's send completes without
    waiting while the socket takes data); only when the socket is full does the message go to
    the outbox, which a task of the connection drains in order.
    """

    __slots__ = ("ws", "seat", "outbox", "task", "closed", "version", "tricks")

    def __init__(self, ws: Socket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.version = -1
        """The version of the table's lobby this connection was last sent."""
        self.tricks: tuple[int, TrickKey | None] | None = None
        """The (game, trick) whose finished tricks, last trick, hand rounds and winners this
        connection was last sent (they change only when a trick ends)."""
        self.outbox: deque[str | tuple[int, str]] = deque()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.task is None and self._send_now(text):
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.kick(1008, "too far behind; reconnect")
            return
        self._queue(text)

    def _send_now(self, text: str) -> bool:
        """Send without a task if the send does not have to wait; False if it would."""
        coro = self.ws.send_text(text)
        try:
            coro.send(None)
        except StopIteration:
            return True
        except Exception:  # the client went away; the receive loop notices too
            self.closed = True
            return True
        coro.close()  # it waits for the socket to drain: nothing was sent, the outbox sends it
        return False

    def _queue(self, item: str | tuple[int, str]) -> None:
        self.outbox.append(item)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._drain())

    def kick(self, code: int, message: str) -> None:
        """Send one error message, then close."""
        if self.closed:
            return
        self._queue(error_message(message))
        self._queue((code, message[:120]))
        self.closed = True

    async def _drain(self) -> None:
        try:
            while self.outbox:
                item = self.outbox.popleft()
                if isinstance(item, tuple):
                    self.closed = True
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                await self.ws.send_text(item)
        except Exception:  # the client went away; the receive loop notices too
            self.closed = True
        finally:
            self.task = None

    def stop(self) -> None:
        self.closed = True
        self.outbox.clear()
        if self.task is not None and not self.task.done():
            self.task.cancel()
