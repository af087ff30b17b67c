"""`salad serve`: the web server (the ``web`` extra; ``postgres`` too for a PostgreSQL database)."""

from __future__ import annotations

import gc
from typing import Annotated

import typer

from salad.cli.common import friendly, require_extra
from salad.locale import N_

WEB_MODULES = ("fastapi", "uvicorn", "sqlalchemy")
"""What ``pip install 'salad[web]'`` brings: looked up before the server loads them."""

POSTGRES_PREFIXES = ("postgres://", "postgresql://", "postgresql+")


@friendly
def serve(
    host: Annotated[str, typer.Option(help=N_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help=N_("Port to listen on."))] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Database: a SQLite file path or URL (default: salad.db in the user data "
                "directory), or a PostgreSQL URL such as postgresql://HOST/NAME."
            )
        ),
    ] = None,
    bot_delay: Annotated[
        float | None,
        typer.Option(
            min=0,
            help=N_(
                "Seconds every bot takes a card, whatever its table's pace (default: the "
                "pace the host chose: slow, normal or fast)."
            ),
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Run as one node of a cluster: redis://host:6379/0, with a PostgreSQL "
                "--database shared by every node (docs/deploy.md)."
            ),
        ),
    ] = None,
    node_name: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "With --redis (needed there): this node's server name in the load balancer "
                "(HAProxy's `server` line); the other nodes redirect the requests for its tables "
                "to it by that name (docs/deploy.md)."
            ),
        ),
    ] = None,
    unload_after: Annotated[
        float,
        typer.Option(
            min=0.1,
            help=N_(
                "Seconds after which a table no one uses leaves memory (it stays in the "
                "database and comes back when asked for)."
            ),
        ),
    ] = 600.0,
) -> None:
    """Run the web server: lobby, tables, bots and the browser client."""
    require_extra("serve", "web", *WEB_MODULES)
    if database is not None and database.startswith(POSTGRES_PREFIXES):
        require_extra("serve --database postgresql://...", "postgres", "psycopg")
    if redis is not None:
        require_extra("serve --redis ...", "cluster", "redis", "psycopg")
    from salad.server.cluster.names import check_node_name

    check_node_name(node_name, redis)  # before the server's modules load (a second)
    # The web extra (FastAPI, uvicorn, SQLAlchemy) loads only when the server runs, with the
    # garbage collector off: what loading makes lives as long as the server, and collecting
    # it meanwhile cost a tenth of a start's CPU (the server then tunes the collector).
    gc.disable()
    try:
        from salad.server.run import serve as run_server
    finally:
        gc.enable()

    status = run_server(
        host,
        port,
        database,
        bot_delay=bot_delay,
        echo=typer.echo,
        unload_after=unload_after,
        redis=redis,
        node_name=node_name,
    )
    if status:
        raise typer.Exit(status)
