"""How a server process runs, alone or as a cluster's node: its listening socket, uvicorn's
options and the garbage collector's tuning.

The limits on hostile connections are uvicorn's public options (below) and, for what uvicorn
does not bound (a request's head sent slowly), the proxy's in front (``deploy/haproxy.cfg``);
``docs/protocol.md`` lists them."""

from __future__ import annotations

import gc
import socket
from typing import Any

from salad.errors import SaladError
from salad.server.messages import MESSAGE_LIMIT

GC_THRESHOLDS = (50_000, 20, 10)
"""Young-generation size and the older generations' ratios once the server runs (tune_gc)."""

HEAD_TIMEOUT = 10.0
"""Seconds a connection has to send a request's head whole: the proxy's ``timeout
http-request`` (uvicorn times out only idle connections after a response)."""

HEAD_LIMIT = 16 * 1024
"""Bytes a request's line and headers may take (a browser's take about 1 KB): uvicorn's h11
parser answers 400 and closes past them, as the proxy does (HAProxy's buffer is 16 KB)."""

KEEP_ALIVE = 5  # seconds an idle connection stays open after a response

CONNECTION_LIMIT = 4096
"""Open connections (websockets included) and requests under way, past which a new request
gets 503 Service Unavailable."""

PING_INTERVAL = 20.0
"""Seconds between the server's pings on an idle websocket; one not answered within as many
seconds more closes it (1011)."""

UVICORN_OPTIONS: dict[str, Any] = {
    # h11: a request's head is parsed only up to HEAD_LIMIT (httptools reads any length).
    "http": "h11",
    # websockets' sans-I/O core. It answers a client's pings and reads on after its close
    # for 10 s whether or not the client reads: no public option bounds either (the
    # websockets-library protocol, "websockets", does by waiting for its writes, at 40 % more
    # CPU a move); tests/server/test_hostile_process.py says so.
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    # A client's longest message in UTF-8's bytes; a larger frame is refused (1009) unread.
    "ws_max_size": 4 * MESSAGE_LIMIT,
    "ws_ping_interval": PING_INTERVAL,
    "ws_ping_timeout": PING_INTERVAL,
    "timeout_keep_alive": KEEP_ALIVE,
    "limit_concurrency": CONNECTION_LIMIT,
    "h11_max_incomplete_event_size": HEAD_LIMIT,
}
"""How uvicorn runs the app, in one process or in each worker: its public options only."""


def tune_gc() -> None:
    """Keep the garbage collector from stalling a busy server.

    Under Python's default thresholds (700, 10, 10) a busy server spent about a fifth of its
    time in the collector, and its full collections paused every table for up to 0.2 s. The
    objects made while starting never become garbage: they are frozen out of collections, and
    the young generation is made large enough to be collected a few times a second.
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
