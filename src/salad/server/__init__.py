"""The web server of ``salad serve``: REST lobby, table websockets, storage, bots and timers.

>>> from salad.server.storage import database_url
>>> database_url("postgresql://u@localhost/salad")
'postgresql+psycopg://u@localhost/salad'
"""

from __future__ import annotations

import gc
from typing import Any

__all__ = ["create_app", "serve", "tune_gc"]

GC_THRESHOLDS = (50_000, 20, 10)
"""Young-generation size and the older generations' ratios once the server runs (see below)."""


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


def create_app(database_url: str | None = None, **options: Any) -> Any:
    """The FastAPI app (see :func:`salad.server.app.create_app`)."""
    from salad.server.app import create_app as _create_app

    return _create_app(database_url, **options)


UVICORN_OPTIONS: dict[str, Any] = {
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "ws_max_size": 64 * 1024,  # a client message is a few dozen bytes
}
"""How uvicorn runs the app, in one process or in each worker."""


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str | None = None,
    bot_delay: float = 0.6,
    log_level: str = "info",
    echo: Any = print,
    workers: int = 1,
) -> int:
    """Run the server on uvicorn until interrupted; the exit status.

    ``workers`` > 1 runs that many server processes behind the port, each holding its share
    of the tables (see :mod:`salad.server.workers`).
    """
    import uvicorn
    from sqlalchemy.engine import make_url

    from salad.server.app import create_app as _create_app
    from salad.server.storage import Storage, database_url
    from salad.server.workers import listen, serve_workers

    url = database_url(database)
    shown = make_url(url).render_as_string(hide_password=True)
    shown_host = f"[{host}]" if ":" in host else host
    listener = listen(host, port)  # first, so that a port in use is one clear line
    if workers > 1:
        Storage(url).close()  # create the database once, before the workers share it
        echo(f"salad server: http://{shown_host}:{port}/ ({workers} worker processes)")
        echo(f"database: {shown}")
        options = {"database_url": url, "bot_delay": bot_delay, "log_level": log_level}
        return serve_workers(listener, workers, options, echo=echo)
    app = _create_app(url, bot_delay=bot_delay)
    tune_gc()
    echo(f"salad server: http://{shown_host}:{port}/")
    echo(f"database: {shown}")
    config = uvicorn.Config(app, log_level=log_level, **UVICORN_OPTIONS)
    uvicorn.Server(config).run(sockets=[listener])
    return 0
