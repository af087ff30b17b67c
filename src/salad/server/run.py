"""``salad serve``: the server on uvicorn, in one process or as several workers behind a port."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import uvicorn

from salad.server.app import create_app
from salad.server.process import UVICORN_OPTIONS, tune_gc
from salad.server.ratelimit import ENV as RATES_ENV
from salad.server.ratelimit import parse_rates
from salad.server.storage import check_database, database_url
from salad.server.tables.manager import UNLOAD_AFTER
from salad.server.workers import listen, serve_workers

__all__ = ["serve"]


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    bot_delay: float = 0.6,
    log_level: str = "info",
    echo: Callable[[str], Any] = print,
    workers: int = 1,
    unload_after: float | None = UNLOAD_AFTER,
) -> int:
    """Run the server on uvicorn until interrupted; the exit status.

    ``workers`` > 1 runs that many server processes behind the port, each holding its share
    of the tables (see :mod:`salad.server.workers`).
    """
    url = database_url(database)
    shown = check_database(url)  # a bad URL or a missing folder is one line, before listening
    parse_rates(os.environ.get(RATES_ENV))  # a bad SALAD_RATE_LIMITS too, workers or not
    shown_host = f"[{host}]" if ":" in host else host
    listener = listen(host, port)  # first, so that a port in use is one clear line
    if workers > 1:
        echo(f"salad server: http://{shown_host}:{port}/ ({workers} worker processes)")
        echo(f"database: {shown}")
        options = {
            "database_url": url,
            "bot_delay": bot_delay,
            "log_level": log_level,
            "unload_after": unload_after,
        }
        return serve_workers(listener, workers, options, echo=echo)
    app = create_app(url, bot_delay=bot_delay, unload_after=unload_after)
    tune_gc()
    echo(f"salad server: http://{shown_host}:{port}/")
    echo(f"database: {shown}")
    config = uvicorn.Config(app, log_level=log_level, **UVICORN_OPTIONS)
    uvicorn.Server(config).run(sockets=[listener])
    return 0
