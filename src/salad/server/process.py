"""How a server process runs: its listening socket, uvicorn's options and the garbage
collector's tuning, the same for a lone ``salad serve`` and each node of a cluster; and the
guard on each HTTP connection that keeps idle or half-sent requests from locking everyone
out (the limits are listed in ``docs/protocol.md``; a public server's proxy in
``docs/deploying.md``)."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame
from websockets.protocol import State

from salad.errors import SaladError
from salad.server.schemas import MESSAGE_LIMIT

log = logging.getLogger("salad.server")

__all__ = [
    "CLOSE_GRACE",
    "CLOSE_READ_LIMIT",
    "CONNECTION_LIMIT",
    "CONTROL_LIMIT",
    "CONTROL_WINDOW",
    "GC_THRESHOLDS",
    "HEAD_GRACE",
    "HEAD_LIMIT",
    "HEAD_TIMEOUT",
    "KEEP_ALIVE",
    "WAITING_PER_ADDRESS",
    "GuardedHTTP",
    "GuardedWebSocket",
    "UVICORN_OPTIONS",
    "listen",
    "tune_gc",
]

GC_THRESHOLDS = (50_000, 20, 10)
"""Young-generation size and the older generations' ratios once the server runs (see below)."""

HEAD_TIMEOUT = 10.0
"""Seconds a connection has to send a request's line and headers whole, from its opening or
from the end of its previous response."""

HEAD_LIMIT = 16 * 1024
"""Bytes a request's line and headers may take (a browser's take about 1 KB)."""

WAITING_PER_ADDRESS = 32
"""Connections of one client address that may wait for their request's head at once; one more
closes the one that has waited longest, if it has waited :data:`HEAD_GRACE` (a real client's
head comes in microseconds, but a burst of connections is accepted before any head is read)."""

HEAD_GRACE = 1.0
"""Seconds a connection may wait for its head before another of its address may close it."""

KEEP_ALIVE = 5
"""Seconds an idle connection stays open after a response."""

CLOSE_READ_LIMIT = 64 * 1024
"""Bytes of a websocket read once the server has sent its close; the rest is left unread (a
client answers a close at once; what it had already sent is a few messages)."""

CLOSE_GRACE = 2.0
"""Seconds such a websocket is then left open, unread, for the client to read what the server
sent last, before it is closed."""

CONTROL_LIMIT = 30
"""Pings and pongs a websocket may send in :data:`CONTROL_WINDOW` seconds, before it is cut."""

CONTROL_WINDOW = 10.0
"""Seconds in which :data:`CONTROL_LIMIT` pings and pongs are counted (from the first)."""

CONNECTION_LIMIT = 4096
"""Open connections (websockets included) and requests under way, past which a new request
gets 503 Service Unavailable."""


class GuardedHTTP(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools) with a deadline and a size cap on each request's head,
    and a cap on the heads one address keeps waiting: uvicorn times out only idle connections
    after a response, so a connection that sent part of a request line stayed open forever, and
    enough of them left no room for anyone else."""

    waiting: ClassVar[dict[str, dict[GuardedHTTP, None]]] = {}
    """Per client address, its connections waiting for a head, oldest first (one event loop
    per process: no lock needed)."""

    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes = 0
    _head_since = 0.0
    _address = ""
    _cycle_seen: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self._wait_for_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_came()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._head_timer is None:
            return
        if self.transport.get_protocol() is not self or self.cycle is not self._cycle_seen:
            self._head_came()  # a new request (or a websocket) began: its head is whole
            return
        self._head_bytes += len(data)
        if self._head_bytes > HEAD_LIMIT:
            self._drop()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._head_timer is None and not self.transport.is_closing():
            self._wait_for_head()

    def _wait_for_head(self) -> None:
        self._cycle_seen = self.cycle
        self._head_bytes = 0
        self._head_since = self.loop.time()
        self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_too_slow)
        waiting = self.waiting.setdefault(self._address, {})
        while len(waiting) >= WAITING_PER_ADDRESS:
            oldest = next(iter(waiting))
            if self._head_since - oldest._head_since < HEAD_GRACE:
                break
            oldest._drop()
        waiting[self] = None

    def _head_came(self) -> None:
        if self._head_timer is None:
            return
        self._head_timer.cancel()
        self._head_timer = None
        waiting = self.waiting.get(self._address, {})
        waiting.pop(self, None)
        if not waiting:
            self.waiting.pop(self._address, None)

    def _head_too_slow(self) -> None:
        if self.cycle is not None and not self.cycle.response_complete:
            self._head_came()  # a (pipelined) request is under way: its end waits again
            return
        self._drop()

    def _drop(self) -> None:
        self._head_came()
        if not self.transport.is_closing():
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol (websockets' sans-I/O core), guarded against the frames
    that never reach the app, which its limits (``salad.server.ratelimit``) cannot count.

    - Pings and pongs: uvicorn answers each ping itself, and reads on while the client sends
      them (it stops reading only while a message waits for the app). A client sending pings
      and never reading kept a core busy, and the pongs it did not read piled up in memory
      (340 MB in 10 s). Past :data:`CONTROL_LIMIT` of them in :data:`CONTROL_WINDOW`
      seconds, the connection is cut (a client's keepalive sends one every 20 s or so).
    - Anything after the server's close: uvicorn reads on for up to 10 s, waiting for the
      client's close, and parses every frame that comes meanwhile. A client closed for a flood
      of messages (4429) that kept flooding was read at full speed for those 10 s. Past
      :data:`CLOSE_READ_LIMIT` bytes after the close, nothing more is read, and the connection
      is closed :data:`CLOSE_GRACE` seconds later: the client can still read the error and
      the close that were sent before.

    Cut means dropped at once (pings and pongs): nothing more is read or sent, and the app is
    told the client left.
    """

    _after_close = 0
    _deaf = False
    _controls = 0
    _controls_since = 0.0

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing() or self._deaf:
            return
        if self.close_sent:
            self._after_close += len(data)
            if self._after_close > CLOSE_READ_LIMIT:
                # Read no more, and close in CLOSE_GRACE seconds instead of uvicorn's 10: the
                # error and the close already sent are there for the client to read.
                self._deaf = True
                self.transport.pause_reading()
                if self.close_timer is not None:
                    self.close_timer.cancel()
                self.close_timer = self.loop.call_later(CLOSE_GRACE, self.transport.close)
                return
        super().data_received(data)

    def write_text(self, data: str) -> bool:
        """What the ASGI ``send`` of a text message does, done at once: the table websockets'
        hot path (salad.server.sockets.RawSocket), without the message's dict, the send's
        coroutine and its wait on ``writable`` (a cluster node spent 5 - 7 us less a move).
        False, with nothing done, wherever that send would wait or do anything else (the
        socket full, the handshake not made, the connection closing or gone): the caller then
        goes through the ASGI ``send``."""
        if (
            self.disconnected
            or not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
        ):
            return False
        self.conn.send_text(data.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))
        return True

    def handle_ping(self) -> None:
        if self._control_frame():
            super().handle_ping()

    def handle_pong(self, event: Frame) -> None:
        if self._control_frame():
            super().handle_pong(event)

    def _control_frame(self) -> bool:
        """Count a ping or pong from the client; False (and the connection cut) past the
        limit, or once it is cut."""
        if self.transport.is_closing():
            return False
        now = self.loop.time()
        if now - self._controls_since >= CONTROL_WINDOW:
            self._controls_since, self._controls = now, 0
        self._controls += 1
        if self._controls > CONTROL_LIMIT:
            self._cut(f"more than {CONTROL_LIMIT} pings or pongs in {CONTROL_WINDOW:g} s")
            return False
        return True

    def _cut(self, why: str) -> None:
        address = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        log.warning("websocket from %s cut: %s", address, why)
        self.transport.abort()


UVICORN_OPTIONS: dict[str, Any] = {
    "http": GuardedHTTP,
    "ws": GuardedWebSocket,
    "ws_per_message_deflate": False,
    # The longest message a client may send, in UTF-8's bytes (a client message is a few dozen
    # bytes; a larger frame is refused before it is read, and a message of many small
    # fragments is parsed only up to this).
    "ws_max_size": 4 * MESSAGE_LIMIT,
    "timeout_keep_alive": KEEP_ALIVE,
    "limit_concurrency": CONNECTION_LIMIT,
    "h11_max_incomplete_event_size": HEAD_LIMIT,  # if uvicorn is told to use h11 after all
}
"""How uvicorn runs the app, in one process or in each worker."""


def tune_gc() -> None:
    """Keep the garbage collector from stalling a busy server.

    A server making thousands of small objects a second under Python's default thresholds
    (700, 10, 10) spent about a fifth of its time in the collector, and its full collections
    (scanning every table in memory) paused every table at once for up to 0.2 s: the slowest
    moves of the load benchmark. The objects made while starting (modules, the app) never
    become garbage, so they are frozen out of every collection, and the young generation is
    made large enough that it is collected a few times a second instead of hundreds.
    Reference cycles are still collected; memory is still freed by reference counting.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; SaladError (one line) if it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        raise SaladError(f"serve: cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    listener.setblocking(False)
    return listener
