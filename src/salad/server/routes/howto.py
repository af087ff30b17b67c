"""How to play (:func:`salad.formats.howto.howto`): ``GET /api/howto`` for a preset, and
``GET /api/tables/{id}/howto`` for a table's own rules (toppings, swaps, house rules)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from salad.errors import SaladError
from salad.formats.howto import howto
from salad.ruleset import Ruleset
from salad.server.errors import ActionError
from salad.server.info import deck_info
from salad.server.routes.tables import ERRORS, Manager
from salad.server.rules import build_ruleset, player_count

router = APIRouter()


def answer(rs: Ruleset, players: int) -> dict[str, Any]:
    try:
        guide = howto(rs, players)
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    return {**guide.data, "text": guide.text, "deck_spec": deck_info(rs, players)}


@router.get("/api/howto", responses=ERRORS, tags=["lobby"])
async def get_howto(
    preset: str = "canadian",
    players: int | None = None,
    toppings: Annotated[str | None, Query(description="topping names, comma-separated")] = None,
) -> dict[str, Any]:
    """How to play a preset (with toppings) for a player count, as parts and as plain text."""
    rs = build_ruleset(preset, None, toppings, None)
    return answer(rs, player_count(rs, players))


@router.get("/api/tables/{table_id}/howto", responses=ERRORS, tags=["table"])
async def get_table_howto(table_id: str, manager: Manager) -> dict[str, Any]:
    """How to play this table's rules, for its number of seats."""
    table = await manager.get(table_id)
    return answer(table.ruleset, table.players)
