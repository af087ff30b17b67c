"""The lobby and the tables over REST: what the lobby offers, quick play, creating, joining,
seats, starting, records (the game itself goes over the websocket, :mod:`salad.server.sockets`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request, Response

from salad.locale import _
from salad.server import schemas as s
from salad.server.errors import ActionError
from salad.server.info import options
from salad.server.messages import LobbyOut
from salad.server.players.identity import Identities
from salad.server.players.origin import foreign_origin
from salad.server.routes.groups import check_member
from salad.server.rules import build_ruleset, player_count
from salad.server.tables import Joined, TableManager
from salad.server.tables.pace import check_pace
from salad.server.tables.table import BOT, OPEN, PlayerClaim, Table
from salad.server.tables.turns import check_bot


def table_manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


Manager = Annotated[TableManager, Depends(table_manager)]

Token = Annotated[
    str | None,
    Header(alias="Authorization", description="Bearer TOKEN (the seat's secret token)"),
]

ERRORS = s.refusals(
    (400, "Bad input"),
    (401, "Missing or wrong token"),
    (403, "Not the host"),
    (404, "No such table"),
    (409, "Not now"),
    ("4XX", "Another refusal (a body too large, too many requests)"),
)

LIMITED: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    429: {
        "model": s.ErrorOut,
        "description": "Too many requests: retry after the seconds of the Retry-After header",
        "headers": {"Retry-After": {"schema": {"type": "integer"}}},
    },
}


def per_address(kind: str) -> Any:
    """A dependency that takes one request of ``kind`` from the client address's bucket."""

    async def limit(request: Request) -> None:
        await request.app.state.rates.check_address(kind, request)

    return Depends(limit)


def seat_token(request: Request, authorization: Token = None) -> str | None:
    """The bearer token of a seat's request; without one, the seat of the player the cookie
    names (a :class:`~salad.server.tables.table.PlayerClaim`), if asked from this site's pages."""
    token = bearer(authorization)
    if token is None and foreign_origin(request.headers) is None:
        found = player_id(request)
        token = None if found is None else PlayerClaim(found)
    return token


SeatToken = Annotated[str | None, Depends(seat_token)]


async def host_token(request: Request, token: SeatToken = None) -> str | None:
    """The token of a host action (:func:`seat_token`), once its bucket let it pass."""
    if token is not None:
        await request.app.state.rates.check("host", token)
    return token


HostToken = Annotated[str | None, Depends(host_token)]


def player_id(request: Request) -> str | None:
    """The id of the player the request's cookie names (:mod:`salad.server.players`), if any:
    the seat taken remembers it. A table's seats are still held by their tokens."""
    identities: Identities = request.app.state.identities
    return identities.player_id(request)


PlayerId = Annotated[str | None, Depends(player_id)]

router = APIRouter()
made = APIRouter(tags=["lobby"], responses=LIMITED, dependencies=[per_address("tables")])
host = APIRouter(tags=["host"], responses=LIMITED)
records = APIRouter(tags=["records"], responses=ERRORS)


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header (None without one)."""
    if not header:
        return None
    scheme, _sep, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ActionError(_("Authorization: must be 'Bearer TOKEN'"), 401)
    return value.strip()


def lobby_answer(table: Table) -> Response:
    """The lobby's JSON as the table caches it (clients poll it)."""
    return Response(table.lobby_json(), media_type="application/json")


def joined_answer(joined: Joined) -> dict[str, Any]:
    return {
        "table_id": joined.table_id,
        "seat": joined.seat,
        "token": joined.token,
        "url": f"/table/{joined.table_id}#token={joined.token}",
    }


async def rated(request: Request, manager: TableManager, joined: Joined, rated: bool) -> None:
    """A table made rated: its games against bots are rated too (:mod:`salad.server.ratings`)."""
    if rated:
        table = await manager.registry.get(joined.table_id)
        await request.app.state.ratings.make_rated(table)


@router.get("/api/options", response_model=s.OptionsOut, tags=["lobby"])
async def get_options() -> dict[str, Any]:
    """Presets, toppings, swap-in rounds and bots to offer."""
    return options()


@made.post("/api/quickplay", response_model=s.JoinedOut)
async def quickplay(
    request: Request, body: s.QuickPlayIn, manager: Manager, player: PlayerId = None
) -> dict[str, Any]:
    """A table started at once: you in seat 0, bots in the other seats."""
    await check_member(request, body.group, player, making=True)
    rs = build_ruleset(body.rules, None, body.toppings, body.swap)
    n = player_count(rs, body.players)
    bot = check_bot(body.bot)
    seats: list[tuple[str, str | None]] = [(BOT, bot)] * (n - 1)
    joined = await manager.create(
        rs,
        body.name,
        seats,
        start=True,
        pace=check_pace(body.pace),
        host_player=player,
        group=body.group,
    )
    await rated(request, manager, joined, body.rated)
    return joined_answer(joined)


@made.post("/api/tables", response_model=s.CreatedOut)
async def create_table(
    request: Request, body: s.CreateTableIn, manager: Manager, player: PlayerId = None
) -> dict[str, Any]:
    """A table in the lobby; you are its host, in seat 0."""
    await check_member(request, body.group, player, making=True)
    rs = build_ruleset(body.rules, body.rules_toml, body.toppings, body.swap)
    seats: list[tuple[str, str | None]]
    if body.seats is not None:
        if not body.seats:
            raise ActionError(_("seats: must list every seat, the host's (seat 0) first"))
        if body.players is not None and body.players != len(body.seats):
            raise ActionError(
                _("seats: {n} seats listed for players = {players}").format(
                    n=len(body.seats), players=body.players
                )
            )
        if body.seats[0].kind != "human":
            raise ActionError(_("seats[0]: seat 0 is the host's own seat (kind human)"))
        player_count(rs, len(body.seats))
        seats = [
            (BOT, check_bot(spec.bot, f"seats[{i}].bot")) if spec.kind == "bot" else (OPEN, None)
            for i, spec in enumerate(body.seats[1:], start=1)
        ]
    else:
        seats = [(OPEN, None)] * (player_count(rs, body.players) - 1)
    joined = await manager.create(
        rs,
        body.name,
        seats,
        turn_timer=body.turn_timer,
        bot_takeover=body.bot_takeover,
        seed=body.seed,
        pace=check_pace(body.pace),
        host_player=player,
        group=body.group,
    )
    await rated(request, manager, joined, body.rated)
    out = joined_answer(joined)
    out["invite_url"] = f"/join/{joined.table_id}"
    out["watch_url"] = f"/watch/{joined.table_id}"
    return out


@router.get("/api/tables/{table_id}", response_model=LobbyOut, responses=ERRORS, tags=["table"])
async def get_table(table_id: str, manager: Manager) -> Response:
    """The lobby: seats, status and what a client needs to draw the table."""
    return lobby_answer(await manager.get(table_id))


@router.post(
    "/api/tables/{table_id}/join",
    response_model=s.JoinedOut,
    responses=LIMITED,
    tags=["table"],
    dependencies=[per_address("joins")],
)
async def join_table(
    request: Request, table_id: str, body: s.JoinIn, manager: Manager, player: PlayerId = None
) -> dict[str, Any]:
    """Take an open seat (the first one unless ``seat`` is given; a group's table: its
    members alone)."""
    await check_member(request, (await manager.get(table_id)).group, player)
    return joined_answer(await manager.join(table_id, body.name, body.seat, player))


@host.put("/api/tables/{table_id}/seats/{seat}", response_model=LobbyOut)
async def put_seat(
    table_id: str, seat: int, body: s.SeatChangeIn, manager: Manager, token: HostToken
) -> Response:
    """Give a seat to a bot, or open it for someone to join (host only)."""
    kind = BOT if body.kind == "bot" else OPEN
    table = await manager.set_seat(table_id, token, seat, kind, body.bot)
    return lobby_answer(table)


@host.delete("/api/tables/{table_id}/seats/{seat}", response_model=LobbyOut)
async def delete_seat(table_id: str, seat: int, manager: Manager, token: HostToken) -> Response:
    """Remove a seat before the start; later seats move down by one (host only)."""
    table = await manager.remove_seat(table_id, token, seat)
    return lobby_answer(table)


@host.put("/api/tables/{table_id}/pace", response_model=LobbyOut)
async def put_pace(table_id: str, body: s.PaceIn, manager: Manager, token: HostToken) -> Response:
    """How fast the bots play and how long a finished trick stays: ``slow``, ``normal`` or
    ``fast``, in the lobby or during a game (host only)."""
    return lobby_answer(await manager.set_pace(table_id, token, check_pace(body.pace)))


@host.post("/api/tables/{table_id}/start", response_model=LobbyOut)
async def start_table(table_id: str, manager: Manager, token: HostToken) -> Response:
    """Start the game (host only; refused while a seat is open)."""
    return lobby_answer(await manager.start(table_id, token))


@host.post("/api/tables/{table_id}/rematch", response_model=LobbyOut)
async def rematch(table_id: str, manager: Manager, token: HostToken) -> Response:
    """The next game at the same table, same seats and tokens, started at once."""
    return lobby_answer(await manager.rematch(table_id, token))


@records.get("/api/tables/{table_id}/record", response_model=dict[str, Any])
async def get_record(
    table_id: str,
    manager: Manager,
    game: Annotated[int | None, Query(description="Game number (default: current)")] = None,
) -> dict[str, Any]:
    """The ``salad-record/2`` record of a finished game (for download and replay)."""
    return await manager.record(table_id, game)


@records.get("/api/tables/{table_id}/games", response_model=list[s.GameOut])
async def list_games(table_id: str, manager: Manager) -> list[dict[str, Any]]:
    """Every game played at the table: status, totals, winners, who played and when."""
    return await manager.games(table_id)


for part in (made, host, records):
    router.include_router(part)
