"""The web server: a FastAPI app with the REST lobby, the table websocket and the web pages.

The protocol is described in ``docs/protocol.md``. ``create_app(database_url)`` builds the app;
``salad serve`` runs it on uvicorn.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.ruleset import Ruleset
from salad.server import schemas as s
from salad.server.info import options
from salad.server.routes.sheets import router as sheets_router
from salad.server.sockets import TableSockets
from salad.server.storage import Storage
from salad.server.tables import (
    BOT,
    OPEN,
    ActionError,
    Joined,
    TableManager,
    check_bot,
    check_name,
)
from salad.settings import apply_settings

__all__ = ["create_app", "STATIC_DIR"]

log = logging.getLogger("salad.server")

STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"
"""The browser client's files (served under ``/static/``)."""

PAGES = {
    "index": "Canadian Salad",
    "table": "Table",
    "join": "Join a table",
    "watch": "Watch a table",
    "replay": "Replay",
}

Token = Annotated[
    str | None,
    Header(alias="Authorization", description="Bearer TOKEN (the seat's secret token)"),
]

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorOut, "description": text}
    for code, text in (
        (400, "Bad input"),
        (401, "Missing or wrong token"),
        (403, "Not the host"),
        (404, "No such table"),
        (409, "Not now"),
    )
}


def create_app(
    database_url: str | None = None,
    *,
    bot_delay: float = 0.0,
    bot_workers: int | None = None,
    shard: tuple[int, int] = (0, 1),
) -> FastAPI:
    """The server app on a database (``None``: the default SQLite file; a path; a SQLAlchemy
    URL; ``postgresql://...``). ``bot_delay``: seconds a bot waits before it plays.

    ``shard``: (this worker, of how many) when the server runs as several processes (see
    :mod:`salad.server.workers`): the app then holds only its own tables, and closes every
    HTTP connection after its response, so that the next request comes through the parent
    process, which sends it to the worker of the table it names.
    """
    storage = Storage(database_url or "")
    manager = TableManager(storage, bot_delay=bot_delay, bot_workers=bot_workers, shard=shard)

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
        description="The websocket `/ws/tables/{id}?token=TOKEN` carries the game itself; "
        "see docs/protocol.md.",
        lifespan=lifespan,
    )
    app.state.manager = manager
    app.state.storage = storage
    if shard[1] > 1:
        app.add_middleware(CloseAfterResponse, worker=shard[0])

    # -- errors: always {"error": "one line"} -------------------------------------------------
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
        return JSONResponse({"error": validation_message(exc)}, status_code=400)

    @app.exception_handler(Exception)
    async def _internal_error(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal server error"}, status_code=500)

    # -- REST -------------------------------------------------------------------------------
    @app.get("/api/options", response_model=s.OptionsOut, tags=["lobby"])
    async def get_options() -> dict[str, Any]:
        """Presets, toppings, swap-in rounds and bots to offer."""
        return options()

    @app.post("/api/quickplay", response_model=s.JoinedOut, responses=ERRORS, tags=["lobby"])
    async def quickplay(body: s.QuickPlayIn) -> dict[str, Any]:
        """A table started at once: you in seat 0, bots in the other seats."""
        name = check_name(body.name)
        rs = build_ruleset(body.rules, None, body.toppings, body.swap)
        n = player_count(rs, body.players)
        bot = check_bot(body.bot)
        joined = await manager.create(rs, name, [(BOT, bot)] * (n - 1), start=True)
        return joined_answer(joined)

    @app.post("/api/tables", response_model=s.CreatedOut, responses=ERRORS, tags=["lobby"])
    async def create_table(body: s.CreateTableIn) -> dict[str, Any]:
        """A table in the lobby; you are its host, in seat 0."""
        name = check_name(body.name)
        rs = build_ruleset(body.rules, body.rules_toml, body.toppings, body.swap)
        seats: list[tuple[str, str | None]]
        if body.seats is not None:
            if not body.seats:
                raise ActionError("seats: must list every seat, the host's (seat 0) first")
            if body.players is not None and body.players != len(body.seats):
                raise ActionError(
                    f"seats: {len(body.seats)} seats listed for players = {body.players}"
                )
            if body.seats[0].kind != "human":
                raise ActionError("seats[0]: seat 0 is the host's own seat (kind human)")
            player_count(rs, len(body.seats))
            seats = []
            for i, spec in enumerate(body.seats[1:], start=1):
                if spec.kind == "bot":
                    seats.append((BOT, check_bot(spec.bot, f"seats[{i}].bot")))
                else:
                    seats.append((OPEN, None))
        else:
            seats = [(OPEN, None)] * (player_count(rs, body.players) - 1)
        joined = await manager.create(
            rs,
            name,
            seats,
            turn_timer=body.turn_timer,
            bot_takeover=body.bot_takeover,
            seed=body.seed,
        )
        out = joined_answer(joined)
        out["invite_url"] = f"/join/{joined.table_id}"
        out["watch_url"] = f"/watch/{joined.table_id}"
        return out

    @app.get("/api/tables/{table_id}", response_model=s.LobbyOut, responses=ERRORS, tags=["table"])
    async def get_table(table_id: str) -> dict[str, Any]:
        """The lobby: seats, status and what a client needs to draw the table."""
        return (await manager.get(table_id)).lobby()

    @app.post(
        "/api/tables/{table_id}/join",
        response_model=s.JoinedOut,
        responses=ERRORS,
        tags=["table"],
    )
    async def join_table(table_id: str, body: s.JoinIn) -> dict[str, Any]:
        """Take an open seat (the first one unless ``seat`` is given)."""
        name = check_name(body.name)
        return joined_answer(await manager.join(table_id, name, body.seat))

    @app.put(
        "/api/tables/{table_id}/seats/{seat}",
        response_model=s.LobbyOut,
        responses=ERRORS,
        tags=["host"],
    )
    async def put_seat(
        table_id: str, seat: int, body: s.SeatChangeIn, authorization: Token = None
    ) -> dict[str, Any]:
        """Give a seat to a bot, or open it for someone to join (host only)."""
        kind = BOT if body.kind == "bot" else OPEN
        table = await manager.set_seat(table_id, bearer(authorization), seat, kind, body.bot)
        return table.lobby()

    @app.delete(
        "/api/tables/{table_id}/seats/{seat}",
        response_model=s.LobbyOut,
        responses=ERRORS,
        tags=["host"],
    )
    async def delete_seat(table_id: str, seat: int, authorization: Token = None) -> dict[str, Any]:
        """Remove a seat before the start; later seats move down by one (host only)."""
        table = await manager.remove_seat(table_id, bearer(authorization), seat)
        return table.lobby()

    @app.post(
        "/api/tables/{table_id}/start",
        response_model=s.LobbyOut,
        responses=ERRORS,
        tags=["host"],
    )
    async def start_table(table_id: str, authorization: Token = None) -> dict[str, Any]:
        """Start the game (host only; refused while a seat is open)."""
        return (await manager.start(table_id, bearer(authorization))).lobby()

    @app.post(
        "/api/tables/{table_id}/rematch",
        response_model=s.LobbyOut,
        responses=ERRORS,
        tags=["host"],
    )
    async def rematch(table_id: str, authorization: Token = None) -> dict[str, Any]:
        """The next game at the same table, same seats and tokens, started at once."""
        return (await manager.rematch(table_id, bearer(authorization))).lobby()

    @app.get(
        "/api/tables/{table_id}/record",
        responses=ERRORS,
        tags=["records"],
        response_model=dict[str, Any],
    )
    async def get_record(
        table_id: str,
        game: Annotated[int | None, Query(description="Game number (default: current)")] = None,
    ) -> dict[str, Any]:
        """The ``salad-record/1`` record of a finished game (for download and replay)."""
        return await manager.record(table_id, game)

    @app.get(
        "/api/tables/{table_id}/games",
        response_model=list[s.GameOut],
        responses=ERRORS,
        tags=["records"],
    )
    async def list_games(table_id: str) -> list[dict[str, Any]]:
        """Every game played at the table."""
        return await manager.games(table_id)

    app.include_router(sheets_router)  # the score sheet: /api/sheets/... and the /sheet page

    # -- the websocket: /ws/tables/{id}, on the ASGI calls themselves (sockets.py) ---------------
    app.add_middleware(TableSockets, manager=manager)

    # -- pages --------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index_page() -> Response:
        return page("index")

    # A spectator's page is the table page: it tells the two apart by its path.
    for name, file in (
        ("table", "table"),
        ("join", "join"),
        ("watch", "table"),
        ("replay", "replay"),
    ):

        def handler(table_id: str, _file: str = file) -> Response:
            return page(_file)

        app.add_api_route(f"/{name}/{{table_id}}", handler, include_in_schema=False)

    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    return app


# -- helpers -------------------------------------------------------------------------------


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


def page(name: str) -> Response:
    """A page of the web client, or a placeholder while it is not there."""
    path = STATIC_DIR / f"{name}.html"
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    title = PAGES[name]
    return HTMLResponse(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
        f"<body><h1>{title}</h1><p>The web client is not installed; the API is described at "
        "<a href='/docs'>/docs</a>.</p></body></html>"
    )


def bearer(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ActionError("Authorization: must be 'Bearer TOKEN'", 401)
    return value.strip()


def joined_answer(joined: Joined) -> dict[str, Any]:
    return {
        "table_id": joined.table_id,
        "seat": joined.seat,
        "token": joined.token,
        "url": f"/table/{joined.table_id}#token={joined.token}",
    }


def build_ruleset(
    rules: str,
    rules_toml: str | None,
    toppings: list[str] | str | None,
    swap: list[str] | dict[str, str] | None,
) -> Ruleset:
    """A preset (never a file path: this comes from the network) or an uploaded rules file,
    with toppings and swaps on top; refused when a record could not store it."""
    from salad.formats.rules import parse_rules
    from salad.presets import PRESETS

    extra: dict[str, Any] = {}
    if toppings:
        extra["toppings"] = toppings
    if swap:
        extra["swap"] = swap
    try:
        if rules_toml is not None:
            rs = parse_rules(rules_toml, "rules_toml")
            if extra:
                rs = apply_settings(rs, extra)
        else:
            if rules not in PRESETS:
                raise ActionError(
                    f"rules: unknown preset {rules!r} (presets: {', '.join(PRESETS)})"
                )
            rs = load_ruleset(rules, extra or None)
        if load_ruleset(rs.preset, rs.settings or None) != rs:
            raise ActionError("rules: these settings cannot be stored with the game")
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    return rs


def player_count(rs: Ruleset, players: int | None) -> int:
    n = rs.default_players if players is None else players
    try:
        rs.check_players(n)
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    return n


def validation_message(exc: RequestValidationError) -> str:
    """The first problem of a request body, on one line: ``players: ...``."""
    parts = []
    for err in exc.errors()[:3]:
        loc = [str(x) for x in err.get("loc", ()) if x != "body"]
        msg = str(err.get("msg", "invalid"))
        if err.get("type") == "json_invalid":
            msg = "the body is not valid JSON"
            loc = []
        parts.append(f"{'.'.join(loc)}: {msg}" if loc else msg)
    return "; ".join(parts) or "invalid request"
