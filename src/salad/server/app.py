"""The app factory: a FastAPI app of the routers of :mod:`salad.server.routes` (one per
concern) and the websocket middleware of :mod:`salad.server.sockets` (docs/protocol.md)."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.locale import _
from salad.server import logmask
from salad.server.defences import Defences
from salad.server.errors import DAMAGED_DATABASE, ActionError, one_line
from salad.server.players.identity import Identities
from salad.server.players.secret import server_secret
from salad.server.ratelimit import RateLimits
from salad.server.ratings import install as install_ratings
from salad.server.routes import (
    groups,
    health,
    howto,
    me,
    pages,
    ratings,
    reviews,
    sheets,
    signin,
    standings,
    tables,
    webapp,
)
from salad.server.sockets import SocketGate, TableSockets
from salad.server.speech import SpokenLanguage
from salad.server.store import DamagedDatabase, SqlStore
from salad.server.store.players import SqlPlayers
from salad.server.tables import TableManager
from salad.server.tables.registry import UNLOAD_AFTER
from salad.sheet import SheetError

log = logging.getLogger("salad.server")

BODY_LIMIT = 1024 * 1024
"""Bytes a request body may take (the largest real one, a rules file, takes a few KB)."""

HEAD_LIMIT = 16 * 1024
"""Bytes a request's line and headers may take (a browser's take about 1 KB), as the proxy
allows (HAProxy's buffer is 16 KB): uvicorn's h11 answers 400 past them to a head that comes in
pieces (``h11_max_incomplete_event_size``, :mod:`salad.server.run`), :class:`HeadLimit` 431 to
one that came whole in one read, which h11 parses whatever its size."""

TABLE_BODY_LIMIT = 16 * 1024
"""Bytes the body of a request about one table may take (a join, a seat change: a few dozen;
on a cluster it may be redirected to the table's node, body and all)."""

TABLE_REQUEST = re.compile(r"/api/tables/[^/]+/.+")  # one table's requests that take a body

GZIP_MINIMUM = 500
"""Bytes from which an HTTP answer goes gzipped to a client that accepts it (the client's
files, its pages, the larger JSON answers). Websockets never are: the middleware lets them by,
and uvicorn's per-message deflate is off (run.py)."""

GZIP_LEVEL = 6
"""zlib's usual level: within 1 % of the smallest (9) on the client's files, at less CPU."""


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float | None = 0.0,
    bot_workers: int | None = None,
    rates: RateLimits | None = None,
    unload_after: float | None = UNLOAD_AFTER,
    redis_url: str | None = None,
    node_name: str | None = None,
    secret: str | None = None,
) -> FastAPI:
    """The server app on a database (``None``: the default SQLite file; a path; a SQLAlchemy
    URL; ``postgresql://...``). ``bot_delay``: seconds every bot takes a card (None: each
    table's pace's). ``rates``: by default :meth:`RateLimits.from_env`. ``unload_after``:
    seconds after which a table no one uses leaves memory (None: never). ``redis_url``: run
    as one node of a cluster (:mod:`salad.server.cluster`) on a shared PostgreSQL;
    ``node_name``: its balancer name. ``secret``: what signs the players' cookies (by
    default :func:`~salad.server.players.secret.server_secret`'s).
    """
    rates = rates if rates is not None else RateLimits.from_env()
    logmask.install()
    storage = SqlStore(database_url or "")
    cluster = None
    named: list[tuple[bytes, bytes]] = []
    if redis_url:  # redis-py comes with the cluster extra; a lone server never loads it
        from salad.server.cluster.node import Cluster
        from salad.server.cluster.router import ClusterRouter

        cluster = Cluster(redis_url, node_name)
        named = cluster.headers
        rates.share(cluster.link.redis)  # one count per client however many nodes it reaches
    manager = TableManager(
        storage,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        unload_after=unload_after,
        placement=cluster,  # None: this server plays every table
    )
    if cluster is not None:
        cluster.serve(manager)
    manager.talk.rates = rates  # the chat's limit (server/tables/talk.py)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if cluster is not None:
            await cluster.start()
        await manager.open()
        try:
            yield
        finally:
            await manager.close()
            if cluster is not None:
                await cluster.stop()

    app = FastAPI(
        title="salad",
        version="1",
        summary="Canadian Salad at the table: lobby, seats, games and records.",
        description="The websocket `/ws/tables/{id}` carries the game itself (a seat's first "
        'message: `{"type": "hello", "token": TOKEN}`); see docs/protocol.md.',
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.rates = rates
    app.state.cluster = cluster
    app.state.identities = Identities(SqlPlayers(storage), secret or server_secret())
    signin.install(app, storage)  # sign-in codes; the seats' part of a player's export
    groups.install(app, storage)  # its store, its routes, its part of a player's export
    app.include_router(standings.router)  # a group's season
    install_ratings(app, storage, manager)  # results and ratings as games end (#34)
    add_error_handlers(app)
    for routes in (health, tables, sheets, howto, reviews, me, signin, ratings, webapp, pages):
        app.include_router(routes.router)
    # Innermost: it compresses what the routes and the static files answer, nothing else.
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=GZIP_LEVEL)
    app.add_middleware(
        TableSockets, manager=manager, rates=rates, headers=named, identities=app.state.identities
    )
    if cluster is not None:  # a table's requests go to the node holding it
        app.add_middleware(ClusterRouter, cluster=cluster)
    # Outside the router: every websocket is admitted (or refused) once, where it connected.
    app.add_middleware(SocketGate, rates=rates)
    app.add_middleware(BodyLimit, limit=BODY_LIMIT, table_limit=TABLE_BODY_LIMIT)
    app.add_middleware(HeadLimit, limit=HEAD_LIMIT)
    # Outermost: everything said to a request or a websocket is in its language, and every
    # HTTP answer carries the browser's defences (server/defences.py).
    app.add_middleware(SpokenLanguage, identities=app.state.identities)
    app.add_middleware(Defences)
    pages.mount_static(app)
    return app


def add_error_handlers(app: FastAPI) -> None:
    """Every error answer is ``{"error": "one line"}``."""

    @app.exception_handler(ActionError)
    async def _action_error(_request: Request, exc: ActionError) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> Response:
        return JSONResponse(
            {"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": one_line(exc.errors())}, status_code=400)

    app.exception_handler(SheetError)(sheets.refused)  # names or an entry: every problem

    @app.exception_handler(DamagedDatabase)
    async def _damaged(request: Request, exc: DamagedDatabase) -> JSONResponse:
        # One line, no traceback: what is wrong is the database, not this request.
        log.error("%s %s: the database is damaged: %s", request.method, request.url.path, exc)
        return JSONResponse({"error": _(DAMAGED_DATABASE)}, status_code=503)

    @app.exception_handler(Exception)
    async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": _("internal server error")}, status_code=500)


class HeadLimit:
    """ASGI middleware: a request (or a websocket's handshake) whose line and headers take more
    than ``limit`` bytes gets 431 (a websocket is refused: 403), the connection closed."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or head_size(scope) <= self.limit:
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # its connect: then a close before the accept refuses it
            await send({"type": "websocket.close", "code": 1009})
            return
        error = _("request head too large: the limit is {n} bytes").format(n=self.limit)
        headers = {"connection": "close"}
        await JSONResponse({"error": error}, status_code=431, headers=headers)(scope, receive, send)


def head_size(scope: Scope) -> int:
    """About the bytes a request's line and headers took on the wire."""
    line = len(scope.get("raw_path") or b"") + len(scope.get("query_string", b"")) + 32
    return line + sum(len(name) + len(value) + 4 for name, value in scope["headers"])


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes (``table_limit`` for a request about
    one table, :data:`TABLE_REQUEST`) gets 413: refused unread if its ``Content-Length`` says
    so, else read up to the limit, then refused or handed on."""

    def __init__(self, app: ASGIApp, limit: int, table_limit: int | None = None) -> None:
        self.app = app
        self.limit = limit
        self.table_limit = limit if table_limit is None else table_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.table_limit if TABLE_REQUEST.fullmatch(scope["path"]) else self.limit
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            if length.isdigit() and int(length) > limit:
                await self.refuse(limit, scope, receive, send)
                return
            await self.app(scope, receive, send)  # the server reads no more than declared
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > limit:
                await self.refuse(limit, scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def refuse(limit: int, scope: Scope, receive: Receive, send: Send) -> None:
        error = _("request body too large: the limit is {n} bytes").format(n=limit)
        # Connection: close, so that the body's unread rest is not taken for a next request.
        response = JSONResponse({"error": error}, status_code=413, headers={"connection": "close"})
        await response(scope, receive, send)
