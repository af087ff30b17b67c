"""``salad serve``: the server process on uvicorn, alone or as one node of a cluster: its
listening socket, uvicorn's options and the garbage collector's tuning.

The limits on hostile connections are uvicorn's public options (below) and, for what uvicorn
does not bound (a request's head sent slowly), the proxy's in front (``deploy/haproxy.cfg``);
``docs/protocol.md`` lists them.
"""

from __future__ import annotations

import errno
import gc
import os
import re
import socket
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn

from salad.errors import SaladError
from salad.server.app import HEAD_LIMIT, create_app
from salad.server.cluster.names import check_node_name
from salad.server.incoming import MESSAGE_LIMIT
from salad.server.players.secret import ENV as SECRET_ENV
from salad.server.players.secret import secret_file, server_secret
from salad.server.ratelimit import RateLimits
from salad.server.store import check_database, database_url
from salad.server.tables.registry import UNLOAD_AFTER

GC_THRESHOLDS = (50_000, 20, 10)
"""Young-generation size and the older generations' ratios once the server runs (tune_gc)."""

HEAD_TIMEOUT = 10.0
"""Seconds a connection has to send a request's head whole: the proxy's ``timeout
http-request`` (uvicorn times out only idle connections after a response)."""

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
    # No "server: uvicorn" on every answer: 17 bytes each, 0.5 KB of a table page's first load.
    "server_header": False,
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
    """A listening socket on ``host:port``; SaladError (one line) if it cannot be had, naming
    the option that chooses another (``--port``, ``--host``) and ``make run``'s."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        raise SaladError(cannot_listen(host, port, exc)) from None
    listener.setblocking(False)
    return listener


def cannot_listen(host: str, port: int, exc: OSError) -> str:
    """Why ``host:port`` cannot be listened on, and what to do, in one line.

    >>> cannot_listen("127.0.0.1", 8000, OSError(errno.EADDRINUSE, "Address already in use"))
    'salad serve: port 8000 is in use: choose another with --port (make run PORT=8001)'
    """
    if exc.errno == errno.EADDRINUSE:
        other = port + 1 if port < 65535 else port - 1
        return (
            f"salad serve: port {port} is in use: choose another with --port "
            f"(make run PORT={other})"
        )
    if exc.errno == errno.EACCES:
        return (
            f"salad serve: port {port} needs privileges ({exc.strerror}): choose one above 1023 "
            "with --port (make run PORT=8000)"
        )
    return (
        f"salad serve: cannot listen on {host}:{port} ({exc.strerror or exc}): choose another "
        "address with --host (make run HOST=127.0.0.1)"
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    bot_delay: float | None = None,
    log_level: str = "info",
    echo: Callable[[str], Any] = print,
    unload_after: float | None = UNLOAD_AFTER,
    redis: str | None = None,
    node_name: str | None = None,
    proxies: Sequence[str] = (),
) -> int:
    """Run the server on uvicorn until interrupted; the exit status.

    ``redis``: run as one node of a cluster on that Redis and a PostgreSQL ``database`` (see
    :mod:`salad.server.cluster` and docs/deploy.md); ``node_name``: its name in the load
    balancer (its HAProxy ``server`` line). ``proxies``: the addresses (or networks) of the
    proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (uvicorn's
    ``forwarded_allow_ips``); none by default, when no header of the kind is read.
    """
    check_node_name(node_name, redis)
    url = database_url(database)
    shown = check_database(url)  # a bad URL or a missing folder is one line, before listening
    rates = RateLimits.from_env()  # a bad SALAD_RATE_LIMITS too
    secret = server_secret()  # a short SALAD_SECRET, a secret file that cannot be made
    if redis is not None:
        if not url.startswith("postgresql"):
            raise SaladError(
                "serve: --redis needs --database postgresql://...: every node of a cluster "
                "must use the same database"
            )
        check_redis(redis)
    shown_host = f"[{host}]" if ":" in host else host
    listener = listen(host, port)  # first, so that a port in use is one clear line
    app = create_app(
        url,
        bot_delay=bot_delay,
        rates=rates,
        unload_after=unload_after,
        redis_url=redis,
        node_name=node_name,
        secret=secret,
    )
    tune_gc()
    echo(f"salad server: http://{shown_host}:{port}/")
    echo(f"database: {shown}")
    if redis is not None:
        named = f" as {node_name!r}" if node_name else ""
        echo(f"cluster node{named} on Redis {mask_password(redis)}")
        if os.environ.get(SECRET_ENV) is None:  # the nodes of one machine share the file
            echo(f"cookies signed with {secret_file()}: give every node the same {SECRET_ENV}")
    if proxies:
        echo(f"behind the proxies at {', '.join(proxies)}: their X-Forwarded-For is believed")
    config = uvicorn.Config(
        app,
        log_level=log_level,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=list(proxies) or None,
        **UVICORN_OPTIONS,
    )
    uvicorn.Server(config).run(sockets=[listener])
    return 0


def mask_password(url: str) -> str:
    """``url`` with its password, if any, as ``***``.

    >>> mask_password("redis://:secret@host:6379/0")
    'redis://:***@host:6379/0'
    """
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def check_redis(url: str) -> None:
    """SaladError (one line) unless Redis answers at ``url``."""
    import redis  # the cluster extra's: a lone server never loads it

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (ValueError, redis.RedisError) as exc:
        raise SaladError(f"serve: Redis at {mask_password(url)} cannot be used ({exc})") from None
