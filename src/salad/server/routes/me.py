"""The player a browser is (``/api/me``): made on the first visit, renamed, recoloured, its
language chosen (:mod:`salad.server.players`)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field

from salad.locale import _
from salad.server import schemas as s
from salad.server.errors import ActionError
from salad.server.incoming import StrictIn
from salad.server.players.identity import LANGUAGES, Identities
from salad.server.players.origin import foreign_origin
from salad.server.store.players import NameTaken, PlayerRow

COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


class MeOut(BaseModel):
    id: str = Field(description="The player's id (its profile: /p/{id})")
    name: str | None = Field(description="The name the player chose (None: not yet)")
    colour: str = Field(description="#rrggbb")
    language: str = Field(description="en or fr")


class MeIn(StrictIn):
    name: s.PlayerName | None = None
    colour: str | None = Field(None, description="#rrggbb")
    language: str | None = Field(None, description="en or fr")


def identities(request: Request) -> Identities:
    found: Identities = request.app.state.identities
    return found


Ids = Annotated[Identities, Depends(identities)]


def same_origin(request: Request) -> None:
    """A change asked with the player's cookie must come from this site's own pages: a
    request whose ``Origin`` (or, without one, ``Referer``) names another host is refused
    (with the cookie's ``SameSite=Lax``, the defence against cross-site requests)."""
    origin = foreign_origin(request.headers)
    if origin is not None:
        raise ActionError(
            _("a request from another site ({origin}) cannot change a player").format(
                origin=origin
            ),
            403,
        )


async def signed_in(request: Request, ids: Ids) -> PlayerRow:
    """The request's player, or 401."""
    row = await ids.current(request)
    if row is None:
        raise ActionError(_("no player: open the site once to be given one"), 401)
    return row


Me = Annotated[PlayerRow, Depends(signed_in)]

RESPONSES = s.refusals(
    (400, "Bad input"),
    (401, "No player: the request has no valid cookie"),
    (403, "A request from another site"),
    (409, "A name another player has"),
    (429, "Too many new players from this address: retry after Retry-After seconds"),
    ("4XX", "Another refusal (a body too large)"),
)

router = APIRouter(tags=["players"], responses=RESPONSES)


def me_out(row: PlayerRow) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "colour": row.colour, "language": row.language}


@router.get("/api/me", response_model=MeOut)
async def get_me(request: Request, response: Response, ids: Ids) -> dict[str, Any]:
    """The player this browser is, made now on its first visit (a signed cookie is set)."""
    if await ids.current(request) is None:  # a first visit: a new player
        await request.app.state.rates.check_address("players", request)
    return me_out(await ids.ensure(request, response))


@router.patch("/api/me", response_model=MeOut, dependencies=[Depends(same_origin)])
async def change_me(body: MeIn, me: Me, ids: Ids) -> dict[str, Any]:
    """A new name, colour or language (what is not given stays)."""
    name = body.name if "name" in body.model_fields_set else me.name
    colour = body.colour if body.colour is not None else me.colour
    if not COLOUR.fullmatch(colour):
        raise ActionError(_("colour: must be #rrggbb, not {colour}").format(colour=repr(colour)))
    language = body.language if body.language is not None else me.language
    if language not in LANGUAGES:
        raise ActionError(
            _("language: must be one of {known}, not {language}").format(
                known=", ".join(LANGUAGES), language=repr(language)
            )
        )
    try:
        await ids.players.update_player(me.id, name=name, colour=colour, language=language)
    except NameTaken as exc:
        raise ActionError(_("name: {why}").format(why=exc), 409) from None
    me.name, me.colour, me.language = name, colour, language
    ids.languages.pop(me.id, None)  # its next request speaks the new one
    return me_out(me)
