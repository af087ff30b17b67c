"""One websocket of a table: its seat and an outbox, so that a slow client never holds up a
table, and a client that never reads never holds more than :data:`OUTBOX_BYTES` of it; and
the writes of one turn of the event loop, made together at its end (:class:`TurnWrites`)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from salad.server.tables.wire import STATE_PREFIX, TrickKey, error_message

__all__ = ["BEHIND", "OUTBOX_BYTES", "OUTBOX_LIMIT", "Conn", "Socket", "TurnWrites"]

OUTBOX_LIMIT = 512
"""A connection this many messages behind is dropped (the client reconnects and catches up)."""

OUTBOX_BYTES = 4 * 1024 * 1024
"""A connection whose unsent messages hold more characters than this is dropped. States are
coalesced (only the latest waits), so only a client that stopped reading gets there."""

BEHIND = 4408
"""The close code of a connection dropped for falling behind: reconnect for a fresh state."""


class Socket(Protocol):
    """What a connection needs of a websocket (Starlette's ``WebSocket`` has it)."""

    def send_text(self, data: str) -> Coroutine[Any, Any, None]: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class _State:
    """The one ``state`` message waiting in an outbox, replaced by each newer one, and what
    the connection knows once it is sent (its lobby version and trick key)."""

    __slots__ = ("text", "known")

    def __init__(self, text: str, known: tuple[int, tuple[int, TrickKey | None] | None]) -> None:
        self.text = text
        self.known = known


class Conn:
    """One websocket: a seat (or ``SPECTATOR``) and an outbox.

    A message to an idle connection is written at once, or at the end of the turn of the event
    loop with ``writes`` (a server's connections: :class:`TurnWrites`), without waiting (the
    websocket's send completes at once while the socket takes data); only when the socket is
    full does the message go to the outbox, which a task of the connection drains in order.
    A slow client needs the latest state, not every one: while a state waits in the outbox, a
    newer one takes its place (whole: the connection is made to know nothing until the waiting
    one is sent). A connection too far behind (:data:`OUTBOX_LIMIT`, :data:`OUTBOX_BYTES`)
    loses what it had not read and is closed with :data:`BEHIND`.
    """

    __slots__ = (
        "ws",
        "seat",
        "outbox",
        "task",
        "closed",
        "kicked",
        "version",
        "tricks",
        "waiting",
        "size",
        "on_kick",
        "coalesce",
        "writes",
        "held",
        "write_now",
    )

    def __init__(self, ws: Socket, seat: int, writes: TurnWrites | None = None) -> None:
        self.ws = ws
        self.seat = seat
        self.writes = writes
        """Where the messages pushed wait for the end of the turn (None: written at once)."""
        self.held: list[str] = []
        """The messages pushed in this turn of the event loop, not written yet (``writes``)."""
        self.write_now: Callable[[str], bool] | None = getattr(ws, "write_now", None)
        """The socket's way to write a message at once, if it has one (False: it cannot now)."""
        self.version = -1
        """The version of the table's lobby this connection was last sent."""
        self.tricks: tuple[int, TrickKey | None] | None = None
        """The (game, trick) whose finished tricks, last trick, hand rounds and winners this
        connection was last sent (they change only when a trick ends)."""
        self.outbox: deque[str | _State | tuple[int, str]] = deque()
        self.waiting: _State | None = None
        """The state in the outbox, if one is."""
        self.size = 0
        """The characters of the messages in the outbox."""
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.kicked = False
        """Closed by the server: the outbox still sends an error and the close."""
        self.on_kick: Callable[[], None] | None = None
        """Called when the server closes the connection (the receiving side stops)."""
        self.coalesce = True
        """Whether a newer state replaces one still waiting (False where the texts were built
        by another node for what it believes the client knows: see salad.server.cluster)."""

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.writes is not None:
            if not self.held:
                self.writes.add(self)
            self.held.append(text)
            return
        self._deliver(text)

    def release(self) -> None:
        """Write the messages held for the end of the turn (:class:`TurnWrites` calls it).

        One message goes as a message pushed goes without ``writes``. Of several (a move and a
        chat line in one turn), each was built knowing the one before: if the socket fills
        before they are all written, the rest wait in the outbox in order, none in place of
        another."""
        held, self.held = self.held, []
        if self.closed or not held:
            return
        if len(held) == 1:
            self._deliver(held[0])
            return
        for i, text in enumerate(held):
            if self.task is None and self._send_now(text):
                continue
            for rest in held[i:]:
                self.outbox.append(rest)
                self.size += len(rest)
            self._start()
            self._check_behind()
            return

    def _deliver(self, text: str) -> None:
        if self.task is None and self._send_now(text):
            return
        if self.coalesce and text.startswith(STATE_PREFIX):
            self._push_state(text)
        else:
            self.outbox.append(text)
            self.size += len(text)
            self._start()
        self._check_behind()

    def _check_behind(self) -> None:
        if len(self.outbox) >= OUTBOX_LIMIT or self.size > OUTBOX_BYTES:
            self.kick(BEHIND, "too far behind; reconnect", drop=True)

    def _push_state(self, text: str) -> None:
        """Queue a state in place of the one waiting, if any. ``text`` was built for what
        this connection knows; while it waits, the connection knows nothing, so that the next
        state (which replaces it) is whole."""
        known = (self.version, self.tricks)
        waiting = self.waiting
        if waiting is None:
            self.waiting = _State(text, known)
            self.outbox.append(self.waiting)
            self._start()
        else:
            self.size -= len(waiting.text)
            waiting.text, waiting.known = text, known
        self.size += len(text)
        self.version, self.tricks = -1, None

    def _send_now(self, text: str) -> bool:
        """Send without a task if the send does not have to wait; False if it would."""
        write = self.write_now
        if write is not None and write(text):
            return True
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

    def _start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._drain())

    def kick(self, code: int, message: str, *, drop: bool = False) -> None:
        """Send one error message, then close (``drop``: without what was not sent yet)."""
        if self.closed:
            return
        if drop:
            self.held.clear()
            self.outbox.clear()
            self.waiting = None
            self.size = 0
            if self.task is not None:
                # It waits for the socket to take a message: nothing of it was sent.
                self.task.cancel()
                self.task = None
        else:
            self.release()  # what was pushed before the error goes before it
            if self.closed:  # too far behind meanwhile: closed already
                return
        self.outbox.append(error_message(message))
        self.outbox.append((code, message[:120]))
        self._start()
        self.closed = self.kicked = True
        if self.on_kick is not None:
            self.on_kick()

    def close_after(self, code: int, reason: str) -> None:
        """Close once what is in the outbox is sent (no error message of its own)."""
        if self.closed:
            return
        self.release()
        if self.closed:
            return
        self.outbox.append((code, reason[:120]))
        self._start()
        self.closed = self.kicked = True
        if self.on_kick is not None:
            self.on_kick()

    async def _drain(self) -> None:
        try:
            while self.outbox:
                item = self.outbox.popleft()
                if isinstance(item, tuple):
                    self.closed = True
                    await self.ws.close(code=item[0], reason=item[1])
                    return
                if isinstance(item, _State):
                    self.waiting = None
                    self.version, self.tricks = item.known
                    item = item.text
                self.size -= len(item)
                await self.ws.send_text(item)
        except Exception:  # the client went away; the receive loop notices too
            self.closed = True
        finally:
            if self.task is asyncio.current_task():
                self.task = None

    async def finish(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the outbox of a kicked connection to send
        its error and close; a client that does not read them loses them."""
        task = self.task
        if task is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout)
        except TimeoutError:
            task.cancel()
        except Exception:  # the client went away
            pass

    def stop(self) -> None:
        """The connection is gone: nothing more is sent (but the close of a kicked one)."""
        self.closed = True
        self.held.clear()
        if self.kicked:
            return
        self.outbox.clear()
        self.waiting = None
        self.size = 0
        if self.task is not None and not self.task.done():
            self.task.cancel()


class TurnWrites:
    """The messages pushed to connections during one turn of the event loop, written at its
    end, one connection after another.

    A write to a socket wakes the process that reads it (on a cluster, HAProxy) if it sleeps,
    and on a busy server it has gone back to sleep between one write and the next: waking it
    was the largest part of a write's cost. A turn's writes made together wake it once: a node
    behind HAProxy spent about 10 us less a move (see ``benchmarks/server_load.py``). The
    messages are written within the turn's callbacks already under way (a few milliseconds at
    most); each connection's stay in the order they were pushed.
    """

    __slots__ = ("_conns",)

    def __init__(self) -> None:
        self._conns: list[Conn] = []

    def add(self, conn: Conn) -> None:
        """``conn`` holds messages for the end of the turn."""
        if not self._conns:
            asyncio.get_running_loop().call_soon(self.flush)
        self._conns.append(conn)

    def flush(self) -> None:
        conns, self._conns = self._conns, []
        for conn in conns:
            conn.release()
