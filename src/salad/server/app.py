"""The app factory: a FastAPI app with the REST lobby, the table websocket and the web pages.

The protocol is described in ``docs/protocol.md``. ``create_app(database_url)`` builds the app
from the routers of :mod:`salad.server.routes` (one per concern) and the websocket middleware of
:mod:`salad.server.sockets`; ``salad serve`` runs it on uvicorn (:mod:`salad.server.run`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.server import logmask
from salad.server.errors import ActionError, one_line
from salad.server.ratelimit import RateLimits
from salad.server.routes import health, howto, options, pages, reviews, sheets, tables
from salad.server.sockets import TableSockets
from salad.server.storage import Storage
from salad.server.tables import TableManager
from salad.server.tables.manager import UNLOAD_AFTER

__all__ = ["BODY_LIMIT", "BodyLimit", "CloseAfterResponse", "create_app"]

log = logging.getLogger("salad.server")

BODY_LIMIT = 1024 * 1024
"""Bytes a request body may take (the largest real one, a rules file, takes a few KB)."""


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.0,
    bot_workers: int | None = None,
    shard: tuple[int, int] = (0, 1),
    rates: RateLimits | None = None,
    unload_after: float | None = UNLOAD_AFTER,
) -> FastAPI:
    """The server app on a database (``None``: the default SQLite file; a path; a SQLAlchemy
    URL; ``postgresql://...``). ``bot_delay``: seconds a bot waits before it plays.

    ``shard``: (this worker, of how many) when the server runs as several processes (see
    :mod:`salad.server.workers`): the app then holds only its own tables, and closes every
    HTTP connection after its response, so that the next request comes through the parent
    process, which sends it to the worker of the table it names.

    ``rates``: the rate limits (:mod:`salad.server.ratelimit`); by default those of the
    ``SALAD_RATE_LIMITS`` environment variable, or the module's defaults.

    ``unload_after``: seconds after which a table no one uses leaves memory (it stays in the
    database and comes back on the next request); None keeps every table in memory.
    """
    rates = rates if rates is not None else RateLimits.from_env()
    logmask.install()  # no seat token in uvicorn's log lines, in this process or a worker
    storage = Storage(database_url or "")
    manager = TableManager(
        storage,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        shard=shard,
        unload_after=unload_after,
    )
    manager.talk.rates = rates  # the chat's limit (server/tables/talk.py)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.open()
        try:
            yield
        finally:
            await manager.close()
            storage.close()

    app = FastAPI(
        title="salad",
        version="1",
        summary="Canadian Salad at the table: lobby, seats, games and records.",
        description="The websocket `/ws/tables/{id}` carries the game itself (a seat's first "
        'message: `{"type": "hello", "token": TOKEN}`); see docs/protocol.md.',
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.storage = storage
    app.state.rates = rates
    if shard[1] > 1:
        app.add_middleware(CloseAfterResponse, worker=shard[0])
    add_error_handlers(app)
    app.include_router(health.router)
    app.include_router(options.router)
    app.include_router(tables.router)
    app.include_router(sheets.router)  # the score sheet: /api/sheets/...
    app.include_router(howto.router)  # how to play: /api/howto, /api/tables/{id}/howto
    app.include_router(reviews.router)  # game reviews: /api/tables/{id}/games/{n}/review
    app.include_router(pages.router)
    # The websocket /ws/tables/{id}, on the ASGI calls themselves (sockets.py).
    app.add_middleware(TableSockets, manager=manager, rates=rates)
    app.add_middleware(BodyLimit, limit=BODY_LIMIT)
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

    @app.exception_handler(Exception)
    async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal server error"}, status_code=500)


class CloseAfterResponse:
    """ASGI middleware of a worker process: every HTTP response says ``Connection: close``
    and ``X-Salad-Worker: N`` (which worker answered); websockets are left alone."""

    def __init__(self, app: ASGIApp, worker: int) -> None:
        self.app = app
        self.headers = [(b"connection", b"close"), (b"x-salad-worker", str(worker).encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def closing(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *self.headers]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, closing)


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes gets 413 before it is read whole.

    A declared ``Content-Length`` over the limit is refused before any of the body is read; a
    body sent in chunks (no length) is read up to the limit, then refused or handed on.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            if length.isdigit() and int(length) > self.limit:
                await self.refuse(scope, receive, send)
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
            if size > self.limit:
                await self.refuse(scope, receive, send)
                return
            if not message.get("more_body", False):
                break

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = f"request body too large: the limit is {self.limit} bytes"
        # Connection: close, so that the body's unread rest is not taken for a next request.
        response = JSONResponse({"error": error}, status_code=413, headers={"connection": "close"})
        await response(scope, receive, send)
