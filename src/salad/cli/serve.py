"""`salad serve`: the web server (the ``web`` extra; ``postgres`` too for a PostgreSQL database)."""

from __future__ import annotations

import gc
import ipaddress
from typing import Annotated

import typer

from salad.cli.common import friendly, require_extra
from salad.errors import SaladError
from salad.locale import N_

WEB_MODULES = ("fastapi", "uvicorn", "sqlalchemy")
"""What ``pip install 'canadian-salad[web]'`` brings: looked up before the server loads them."""

POSTGRES_PREFIXES = ("postgres://", "postgresql://", "postgresql+")


def proxy_addresses(given: list[str]) -> list[str]:
    """The addresses and networks ``--proxy`` names (each may hold several, by commas or
    spaces, as an environment variable does), checked: SaladError (one line) for one that is
    neither.

    >>> proxy_addresses(["127.0.0.1", "10.0.0.0/8, ::1"])
    ['127.0.0.1', '10.0.0.0/8', '::1']
    >>> proxy_addresses(["balancer"])
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: serve --proxy: 'balancer' is not an IP address or network
    """
    found = [part for item in given for part in item.replace(",", " ").split()]
    for part in found:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise SaladError(f"serve --proxy: {part!r} is not an IP address or network") from None
    return found


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
    proxy: Annotated[
        list[str] | None,
        typer.Option(
            envvar=["SALAD_PROXY", "FORWARDED_ALLOW_IPS"],
            help=N_(
                "The address (or network) of a proxy in front of this server, whose "
                "X-Forwarded-For and X-Forwarded-Proto it believes; repeat it, or separate "
                "them by commas. None by default: every client is taken at its own address."
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
    proxies = proxy_addresses(proxy or [])
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
        proxies=proxies,
    )
    if status:
        raise typer.Exit(status)
