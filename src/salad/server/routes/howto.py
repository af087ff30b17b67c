"""How to play (:func:`salad.formats.howto.howto`): ``GET /api/howto`` for a preset, and
``GET /api/tables/{id}/howto`` for a table's own rules (toppings, swaps, house rules).

An answer is built once for a ruleset, a number of players and a language (:func:`built`, the
last :data:`KEPT` of them), as JSON and gzip-compressed, and sent as it is: the largest rules
file the limits allow makes about 336 KB of it, 7 KB compressed (docs/protocol.md, "Limits"),
which a page of spectators asking at once no longer builds once each."""

from __future__ import annotations

import functools
import gzip
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from salad.errors import SaladError
from salad.formats.howto import howto
from salad.locale import current
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.server.info import deck_info
from salad.server.routes.tables import ERRORS, Manager
from salad.server.rules import build_ruleset, player_count

router = APIRouter()

KEPT = 32
"""How many answers are kept built (a few MB at most, the largest rules files' included)."""


def answer(rs: Ruleset, players: int) -> dict[str, Any]:
    try:
        guide = howto(rs, players)
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    return {**guide.data, "text": guide.text, "deck_spec": deck_info(rs, players)}


@functools.lru_cache(maxsize=KEPT)
def built(rs: Ruleset, players: int, language: str) -> tuple[bytes, bytes]:
    """The answer for ``rs`` and ``players`` in ``language`` (the current one: the key only
    tells the languages apart), as JSON and as gzip."""
    body = json.dumps(answer(rs, players), ensure_ascii=False, separators=(",", ":")).encode()
    return body, gzip.compress(body, compresslevel=6)


def sent(request: Request, rs: Ruleset, players: int) -> Response:
    """The answer as built once (:func:`built`): gzip-compressed if the client takes it."""
    body, packed = built(rs, players, current().code)
    headers = {"vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        body, headers["content-encoding"] = packed, "gzip"
    return Response(body, media_type="application/json", headers=headers)


@router.get("/api/howto", response_model=dict[str, Any], responses=ERRORS, tags=["lobby"])
async def get_howto(
    request: Request,
    preset: str = "canadian",
    players: int | None = None,
    toppings: Annotated[str | None, Query(description="topping names, comma-separated")] = None,
) -> Response:
    """How to play a preset (with toppings) for a player count, as parts and as plain text."""
    rs = build_ruleset(preset, None, toppings, None)
    return sent(request, rs, player_count(rs, players))


@router.get(
    "/api/tables/{table_id}/howto", response_model=dict[str, Any], responses=ERRORS, tags=["table"]
)
async def get_table_howto(request: Request, table_id: str, manager: Manager) -> Response:
    """How to play this table's rules, for its number of seats."""
    table = await manager.get(table_id)
    return sent(request, table.ruleset, table.players)
