"""A group's standings for a season (``/api/groups/{id}/standings``, JSON and CSV, docs/groups.md):
per member, games online and on score sheets, points per game, wins and mean place, with
former members who played in it; its members only."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from salad.errors import SaladError
from salad.server.errors import ActionError
from salad.server.players.identity import Identities
from salad.server.players.standings import (
    SEASON_TEXT,
    season_of,
    seated,
    standings_csv,
    standings_of,
)
from salad.server.routes.groups import RESPONSES, Groups, member_group
from salad.server.routes.me import Me
from salad.server.store.groups import MemberRow

router = APIRouter(tags=["groups"], responses=RESPONSES)


class StandingsOut(BaseModel):
    group: dict[str, Any]
    season: dict[str, Any]
    players: list[dict[str, Any]] = Field(
        description="Per member, best mean place first: games (online, sheets), points, "
        "points_per_game, wins, mean_place; former (true: a former member, who left or was "
        "removed, with games counted this season)"
    )
    games: list[dict[str, Any]] = Field(
        description="Every game counted, oldest first: kind (online or sheet), day, rules, "
        "seats (name, player, total, place), url (an online game's replay)"
    )
    chart: dict[str, Any] = Field(
        description="labels (the day of each game counted) and series: each member's points "
        "per game after every game (null before their first)"
    )


SeasonQ = Annotated[str | None, Query(max_length=8, description=SEASON_TEXT)]
FromQ = Annotated[
    str | None, Query(alias="from", max_length=10, description="First day, YYYY-MM-DD")
]
ToQ = Annotated[str | None, Query(alias="to", max_length=10, description="Last day, YYYY-MM-DD")]


async def former_members(request: Request, ids: set[str]) -> list[MemberRow]:
    """The players of these ids (who played for the group and are no longer members), as the
    standings name them; a deleted player is left out."""
    identities: Identities = request.app.state.identities
    found = []
    for player_id in sorted(ids):
        row = await identities.players.player(player_id)
        if row is not None and row.deleted_at is None:
            found.append(MemberRow(player_id, row.name, 0.0))
    return found


async def standings_for(
    group_id: str,
    request: Request,
    me: Me,
    store: Groups,
    season: SeasonQ = None,
    start: FromQ = None,
    end: ToQ = None,
) -> dict[str, Any]:
    """The standings a request asks for (the season from its query), if ``me`` is a member."""
    group, members = await member_group(store, group_id, me.id)
    try:
        chosen = season_of(season, start, end)
    except SaladError as exc:
        raise ActionError(str(exc)) from None
    games = await store.games(group_id, chosen.since, chosen.until)
    sheets = await store.sheets(group_id, chosen.since, chosen.until)
    former = await former_members(request, seated(games, sheets) - {m.player_id for m in members})
    table = standings_of(members, games, sheets, former)
    first_year = datetime.fromtimestamp(group.created_at, UTC).year
    years = range(datetime.now(UTC).year, first_year - 1, -1)
    return {
        "group": {"id": group.id, "name": group.name},
        "season": {
            "label": chosen.label,
            "from": chosen.first,
            "to": chosen.last,
            "years": [str(y) for y in years],
        },
        **table,
    }


Standings = Annotated[dict[str, Any], Depends(standings_for)]


@router.get("/api/groups/{group_id}/standings", response_model=StandingsOut)
async def get_standings(table: Standings) -> dict[str, Any]:
    """The group's standings for a season: per member, games (online and sheets), points per
    game, wins and mean place; every game counted; the chart over time."""
    return table


@router.get(
    "/api/groups/{group_id}/standings.csv",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "The standings as CSV"}},
)
async def get_standings_csv(table: Standings) -> Response:
    """The standings' table as CSV: the same figures as the group's page."""
    group_id = table["group"]["id"]
    name = f"salad-{group_id}-{table['season']['from']}-{table['season']['to']}.csv"
    return Response(
        standings_csv(table),
        media_type="text/csv",
        headers={"content-disposition": f'attachment; filename="{name}"'},
    )
