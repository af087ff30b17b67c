"""What a player does with their identity (#34): sign-in codes to open it on another device
(``/api/me/links``, ``/api/signin``), the tables they are playing (``/api/me/tables``), the
export of everything held about them (``/api/me/export``) and its deletion (``DELETE /api/me``).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import asdict, dataclass
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from salad.locale import N_, _
from salad.server import schemas as s
from salad.server.errors import ActionError
from salad.server.incoming import StrictIn
from salad.server.players.codes import LIFETIME, MOST_OPEN, code_hash, new_code, normal
from salad.server.players.identity import COOKIE, Identities
from salad.server.routes.me import Ids, Me, MeOut, me_out, same_origin
from salad.server.store import SqlStore
from salad.server.store.signins import (
    PlayedSeat,
    SigninRow,
    SigninStore,
    SqlPlayed,
    SqlSignins,
)
from salad.server.tables import TableManager

REFUSED = {
    "unknown": N_("this sign-in code is not known: check it, or make a new one"),
    "used": N_("this sign-in code was used already: make a new one on the other device"),
    "expired": N_("this sign-in code has expired: make a new one on the other device"),
    "revoked": N_("this sign-in code was revoked: make a new one on the other device"),
}


@dataclass
class PlayedPart:
    """The seats a player holds and the games whose records name them (a
    :class:`~salad.server.players.identity.PlayerPart`)."""

    played: SqlPlayed
    manager: TableManager
    name: str = "tables"

    async def export(self, player_id: str) -> Any:
        seats = [asdict(seat) for seat in await self.played.seats(player_id)]
        return {"seats": seats, "games": await self.played.games(player_id)}

    async def forget(self, player_id: str) -> None:
        self.manager.forget_player(player_id)  # the tables in memory too
        await self.played.forget(player_id)
        await self.manager.placement.forgotten(player_id)  # and those of the other nodes


def install(app: FastAPI, storage: SqlStore) -> None:
    """The sign-in codes' store and the seats' part of every player's export and deletion."""
    ids: Identities = app.state.identities
    app.state.signins = SqlSignins(storage)
    app.state.played = played = SqlPlayed(storage)
    ids.parts.append(PlayedPart(played, app.state.manager))


def signins(request: Request) -> SigninStore:
    found: SigninStore = request.app.state.signins
    return found


class LinkOut(BaseModel):
    id: str = Field(description="Names the code to revoke it (it is not the code)")
    created_at: float
    expires_at: float
    state: str = Field(description="open, used, expired or revoked")


class NewLinkOut(LinkOut):
    code: str = Field(description="The code to type on the other device (shown once)")
    url: str = Field(description="The link that signs in with it: /signin/CODE")


class SigninIn(StrictIn):
    code: str = Field(max_length=64, description="The code, as typed (case and dashes ignored)")


class MyTableOut(BaseModel):
    table_id: str
    seat: int
    name: str | None
    status: str = Field(description="lobby or playing")
    game_number: int
    url: str = Field(description="The table's page: the player's own seat, by their cookie")


RESPONSES = s.refusals(
    (400, "Bad input; a sign-in code unknown, used, expired or revoked"),
    (401, "No player: the request has no valid cookie"),
    (403, "A request from another site"),
    (404, "No such sign-in code of this player"),
    (409, "Too many open sign-in codes"),
    (429, "Too many sign-in codes made or tried: retry after Retry-After seconds"),
)

router = APIRouter(tags=["players"], responses=RESPONSES)

Changing = [Depends(same_origin)]


def link_out(row: SigninRow, now: float) -> dict[str, Any]:
    return {
        "id": row.id,
        "created_at": row.created_at,
        "expires_at": row.expires_at,
        "state": row.state(now),
    }


@router.post("/api/me/links", response_model=NewLinkOut, status_code=201, dependencies=Changing)
async def make_link(request: Request, me: Me) -> dict[str, Any]:
    """A new sign-in code (and its link) for this player, to open it on another device: used
    once, within 15 minutes."""
    await request.app.state.rates.check("links", me.id)
    store = signins(request)
    now = time.time()
    mine = await store.signins(me.id)
    if sum(r.state(now) == "open" for r in mine) >= MOST_OPEN:
        raise ActionError(
            _("at most {n} open sign-in codes: revoke one first").format(n=MOST_OPEN), 409
        )
    code = new_code()
    row = SigninRow(
        id=secrets.token_urlsafe(9),
        player_id=me.id,
        code_hash=code_hash(code.replace("-", "")),
        created_at=now,
        expires_at=now + LIFETIME,
    )
    await store.add_signin(row)
    return {**link_out(row, now), "code": code, "url": f"/signin/{code}"}


@router.get("/api/me/links", response_model=list[LinkOut])
async def my_links(request: Request, me: Me) -> list[dict[str, Any]]:
    """This player's sign-in codes (never the codes themselves), newest first."""
    now = time.time()
    return [link_out(r, now) for r in await signins(request).signins(me.id)]


@router.delete("/api/me/links/{link_id}", status_code=204, dependencies=Changing)
async def revoke_link(link_id: str, request: Request, me: Me) -> Response:
    """Revoke one of this player's open sign-in codes."""
    if not await signins(request).revoke_signin(me.id, link_id):
        raise ActionError(_("no open sign-in code {code} of yours").format(code=repr(link_id)), 404)
    return Response(status_code=204)


@router.post("/api/signin", response_model=MeOut, dependencies=Changing)
async def sign_in(body: SigninIn, request: Request, response: Response, ids: Ids) -> Any:
    """This browser becomes the player whose sign-in code this is (the code is used)."""
    await request.app.state.rates.check_address("signins", request)
    typed = normal(body.code)
    if typed is None:
        raise ActionError(_("code: a sign-in code is 8 letters and digits, such as K7QM-2XPA"))
    found = await signins(request).use_signin(code_hash(typed), time.time())
    if found in REFUSED:
        raise ActionError(_(REFUSED[found]))
    row = await ids.players.player(found)
    if row is None or row.deleted_at is not None:
        raise ActionError(_(REFUSED["revoked"]))
    ids.set_cookie(request, response, row.id)
    return me_out(row)


@router.get("/api/me/tables", response_model=list[MyTableOut])
async def my_tables(request: Request, me: Me) -> list[dict[str, Any]]:
    """The tables this player sits at that are not over (to rejoin, from any device)."""
    played: SqlPlayed = request.app.state.played
    return [my_table(seat) for seat in await played.seats(me.id) if seat.status != "over"]


def my_table(seat: PlayedSeat) -> dict[str, Any]:
    return {**asdict(seat), "url": f"/table/{seat.table_id}"}


@router.get("/api/me/export")
async def export_me(request: Request, me: Me, ids: Ids) -> JSONResponse:
    """Everything the site holds about this player, as JSON (a file to download)."""
    now = time.time()
    held: dict[str, Any] = {
        "player": asdict(me),
        "links": [link_out(r, now) for r in await signins(request).signins(me.id)],
    }
    for part in ids.parts:
        held[part.name] = await part.export(me.id)
    disposition = f'attachment; filename="salad-player-{me.id}.json"'
    return JSONResponse(held, headers={"Content-Disposition": disposition})


@router.delete("/api/me", status_code=204, dependencies=Changing)
async def delete_me(request: Request, me: Me, ids: Ids) -> Response:
    """Delete this player: the name and choices cleared, the sign-in codes revoked, every part
    of the site forgets them; finished games' records stay whole. The cookie is cleared."""
    await signins(request).revoke_signin(me.id, None)
    for part in ids.parts:
        await part.forget(me.id)
    played: SqlPlayed = request.app.state.played
    await played.anonymise(me.id)
    ids.languages.pop(me.id, None)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response
