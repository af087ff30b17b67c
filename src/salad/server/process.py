"""How a server process runs: its listening socket, uvicorn's options and the garbage
collector's tuning, the same for a lone ``salad serve`` and each node of a cluster; and the
guard on each HTTP connection that keeps idle or half-sent requests from locking everyone
out (the limits are listed in ``docs/protocol.md``; a public server's proxy in
``docs/deploying.md``)."""

from __future__ import annotations

import asyncio
import gc
import socket
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from salad.errors import SaladError

__all__ = [
    "CONNECTION_LIMIT",
    "GC_THRESHOLDS",
    "HEAD_GRACE",
    "HEAD_LIMIT",
    "HEAD_TIMEOUT",
    "KEEP_ALIVE",
    "WAITING_PER_ADDRESS",
    "GuardedHTTP",
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


UVICORN_OPTIONS: dict[str, Any] = {
    "http": GuardedHTTP,
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "ws_max_size": 64 * 1024,  # a client message is a few dozen bytes
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
