"""One websocket of a table (:class:`Conn`), and the writes of one turn of the event loop, made
together at its end (:class:`TurnWrites`). Every message goes out through the socket's
``send_text`` (on a server, the ASGI ``send``)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from websockets.exceptions import ConnectionClosed

from salad.locale import N_, _, current, using
from salad.server.soon import Soon
from salad.server.tables.wire import STATE_PREFIX, TrickKey, error_message

log = logging.getLogger("salad.server")

OUTBOX_LIMIT = 512
"""A connection this many messages behind is dropped (the client reconnects and catches up)."""

OUTBOX_BYTES = 4 * 1024 * 1024
"""A connection whose unsent messages hold more characters than this is dropped. States are
coalesced (only the latest waits), so only a client that stopped reading gets there."""

BEHIND = 4408
"""The close code of a connection dropped for falling behind: reconnect for a fresh state."""

GONE: tuple[type[Exception], ...] = (OSError, ConnectionClosed)
"""What a websocket's send or receive raises when its client went away: an ASGI server's
``OSError`` (uvicorn's ``ClientDisconnected`` is one) or the websockets library's close."""


class Socket(Protocol):
    """What a connection needs of a websocket (Starlette's ``WebSocket`` has it)."""

    def send_text(self, data: str) -> Awaitable[None]: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


@dataclass(slots=True)
class _State:
    """The one ``state`` message waiting in an outbox, replaced by each newer one, and what
    the connection knows once it is sent (its lobby version and trick key)."""

    text: str
    known: tuple[int, tuple[int, TrickKey | None] | None]


class Conn:
    """One websocket: a seat (or ``SPECTATOR``) and an outbox, so that a slow client never
    holds up a table.

    With ``writes`` (a server's), what is pushed in a turn of the event loop is written at its
    end (:class:`TurnWrites`); without, through the outbox, drained in order by one task. A
    slow client needs the latest state, not every one: a newer state takes the place of one
    waiting in the outbox. A connection too far behind (:data:`OUTBOX_LIMIT`,
    :data:`OUTBOX_BYTES`) loses what it had not read and is closed with :data:`BEHIND`.
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
        "writes",
        "held",
        "lang",
    )

    def __init__(self, ws: Socket, seat: int, writes: TurnWrites | None = None) -> None:
        self.ws = ws
        self.seat = seat
        self.writes = writes
        self.held: list[str] = []
        self.lang = current().code
        """The language of the connection (made in its handshake's: :mod:`salad.server.speech`):
        what another task says to it alone, a close, is said in it."""
        """The messages pushed in this turn of the event loop, not written yet (``writes``)."""
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
        """The task writing to the socket while one does; it drains the outbox."""
        self.closed = False
        self.kicked = False
        """Closed by the server: the outbox still sends an error and the close."""
        self.on_kick: Callable[[], None] | None = None
        """Called when the server closes the connection (the receiving side stops)."""

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.writes is not None:
            if not self.held:
                self.writes.add(self)
            self.held.append(text)
            return
        self._queue([text])

    def release(self) -> None:
        """Move the messages held for the end of the turn to the outbox now (what was pushed
        before an error or a close goes before it)."""
        held, self.held = self.held, []
        if not self.closed and held:
            self._queue(held)

    def take_held(self, writer: asyncio.Task[Any] | None) -> bool:
        """Move the messages held for the end of the turn to the outbox (:class:`TurnWrites`);
        True when the task ``writer`` is to send them now (:meth:`drain`): no task writes to the
        socket yet. A send that waits makes ``writer`` the connection's writer until its outbox
        is empty."""
        held, self.held = self.held, []
        if self.closed or not held:
            return False
        if self.task is not None:
            self._queue(held)
            return False
        self.outbox.extend(held)
        self.size += sum(map(len, held))
        self.task = writer
        return True

    def _queue(self, texts: list[str]) -> None:
        """Messages for the outbox, written by its task. One alone may be a state that takes
        the place of one waiting; of several (a move and a chat line in one turn) each was
        built knowing the one before, so they wait in order, none in place of another."""
        if len(texts) == 1 and texts[0].startswith(STATE_PREFIX):
            self._push_state(texts[0])
        else:
            self.outbox.extend(texts)
            self.size += sum(map(len, texts))
            self._start()
        self._check_behind()

    def _check_behind(self) -> None:
        if len(self.outbox) >= OUTBOX_LIMIT or self.size > OUTBOX_BYTES:
            self.kick(BEHIND, N_("too far behind; reconnect"), drop=True)

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

    def _start(self) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.drain())

    def kick(self, code: int, message: str, *, drop: bool = False) -> None:
        """Send one error message, then close (``drop``: without what was not sent yet).
        ``message`` is said in the connection's language: a message of the catalog (marked
        ``N_``) is translated, one said already (in this connection's task) stays."""
        if self.closed:
            return
        with using(self.lang):
            message = _(message)
        if drop:
            self._drop()
        self.release()  # what was pushed before the error goes before it
        if self.closed:  # too far behind meanwhile: closed already
            return
        self.outbox.append(error_message(message))
        self.outbox.append((code, message[:120]))
        self._start()
        self.closed = self.kicked = True
        if self.on_kick is not None:
            self.on_kick()

    def _drop(self) -> None:
        """Forget what was not sent. A task still writing waits for the socket to take a
        message (nothing of it was sent): it is cancelled."""
        self.held.clear()
        self.outbox.clear()
        self.waiting = None
        self.size = 0
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def drain(self, me: asyncio.Task[Any] | None = None) -> None:
        """Send what the outbox holds, in order (the connection's ``task``, ``me``, runs it)."""
        me = me or asyncio.current_task()
        try:
            while self.outbox:
                item = self.outbox[0]
                if isinstance(item, str):
                    # It stays in the outbox until the socket takes it (a send that waits
                    # is cancelled when the connection is dropped, with the outbox emptied).
                    await self.ws.send_text(item)
                    self.outbox.popleft()
                    self.size -= len(item)
                elif isinstance(item, _State):
                    self.outbox.popleft()  # sent from now on: a newer state waits after it
                    self.waiting = None
                    self.version, self.tricks = item.known
                    self.size -= len(item.text)
                    await self.ws.send_text(item.text)
                else:  # a close
                    self.outbox.popleft()
                    self.closed = True
                    await self.ws.close(code=item[0], reason=item[1])
                    return
        except GONE:  # the client went away; the receive loop notices too
            self.closed = True
        except Exception:
            log.exception("a websocket's send failed (seat %s)", self.seat)
            self.closed = True
        finally:
            if self.task is me:
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
        if not self.kicked:
            self._drop()


class TurnWrites(Soon["Conn"]):
    """The messages pushed to connections during one turn of the event loop, written at its
    end, one connection after another, each connection's in the order pushed.

    A write wakes the process reading the socket (on a cluster, HAProxy) if it sleeps: on a
    busy server, the largest part of a write's cost. A turn's writes made together wake it once
    (``benchmarks/server_load.py``). One task writes them all, in one step when every socket
    takes its data at once; a check right behind that step finds it still running only if a
    send waited (a full socket): that connection keeps the task to itself, and the ones not
    written yet go to a new task. One slow client never holds up the others.
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(self._write_all)

    def _write_all(self, conns: list[Conn]) -> None:
        loop = asyncio.get_running_loop()
        left = deque(conns)
        task = loop.create_task(self._write(left))
        loop.call_soon(self._check, task, left)

    @staticmethod
    async def _write(left: deque[Conn]) -> None:
        me = asyncio.current_task()
        while left:
            conn = left.popleft()
            if conn.take_held(me):
                await conn.drain(me)

    def _check(self, task: asyncio.Task[None], left: deque[Conn]) -> None:
        """Right after the task's first step: if a send waits, the rest go to a new task."""
        if left and not task.done():
            rest = list(left)
            left.clear()
            self._write_all(rest)
