"""``salad serve``: the server on uvicorn, alone or as one node of a cluster."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import uvicorn

from salad.errors import SaladError
from salad.server.app import create_app
from salad.server.process import UVICORN_OPTIONS, listen, tune_gc
from salad.server.ratelimit import RateLimits
from salad.server.store import check_database, database_url
from salad.server.tables.registry import UNLOAD_AFTER

NODE_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")
"""What a node's name may be: a server name in HAProxy's configuration and a URL's query."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    bot_delay: float = 0.6,
    log_level: str = "info",
    echo: Callable[[str], Any] = print,
    unload_after: float | None = UNLOAD_AFTER,
    redis: str | None = None,
    node_name: str | None = None,
) -> int:
    """Run the server on uvicorn until interrupted; the exit status.

    ``redis``: run as one node of a cluster on that Redis and a PostgreSQL ``database`` (see
    :mod:`salad.server.cluster` and docs/deploy.md); ``node_name``: its name in the load
    balancer (its HAProxy ``server`` line).
    """
    check_node_name(node_name, redis)
    url = database_url(database)
    shown = check_database(url)  # a bad URL or a missing folder is one line, before listening
    rates = RateLimits.from_env()  # a bad SALAD_RATE_LIMITS too
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
    )
    tune_gc()
    echo(f"salad server: http://{shown_host}:{port}/")
    echo(f"database: {shown}")
    if redis is not None:
        named = f" as {node_name!r}" if node_name else ""
        echo(f"cluster node{named} on Redis {mask_password(redis)}")
    config = uvicorn.Config(app, log_level=log_level, **UVICORN_OPTIONS)
    uvicorn.Server(config).run(sockets=[listener])
    return 0


def check_node_name(name: str | None, redis: str | None) -> None:
    """SaladError (one line) unless ``name`` is a cluster node's name (``redis`` given) or
    both are None."""
    if name is None:
        if redis is not None:
            raise SaladError(
                "serve: --redis needs --node-name NAME, this node's server name in the load "
                "balancer: the other nodes send the requests for its tables there"
            )
        return
    if redis is None:
        raise SaladError("serve: --node-name names a node of a cluster: it needs --redis")
    if not NODE_NAME.fullmatch(name):
        raise SaladError(
            f"serve: --node-name {name!r} is not a server name: use 1 to 64 letters, digits, "
            "'.', '_' or '-'"
        )


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
