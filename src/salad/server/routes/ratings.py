"""Profiles and leaderboards (``/api/players/{name-or-id}``, ``/api/leaderboard``): what
finished games left (:mod:`salad.server.ratings`). Nothing here reveals a game under way."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field

from salad.locale import _
from salad.server import schemas as s
from salad.server.errors import ActionError
from salad.server.players.identity import Identities
from salad.server.ratings import Ratings
from salad.server.ratings.model import FAMILIES, FAMILY_TITLES, MIN_GAMES, PROVISIONAL
from salad.server.ratings.profile import HISTORY, PAGE, profile, rating_out
from salad.server.store.ratings import week_start

BOARD_PAGE = 50
"""Players a leaderboard lists a page."""

PAGE_LIMIT = 10_000
"""The last page asked for (further is refused, not read)."""


class RatingOut(BaseModel):
    family: str
    title: str
    mu: float = Field(description="The rating's mean (a new player: 25)")
    sigma: float = Field(description="Its uncertainty (a new player: 25/3)")
    ordinal: float = Field(description="mu - 3 sigma: what the leaderboard sorts by")
    games: int = Field(description="Rated games of this family")
    provisional: bool = Field(description=f"Fewer than {PROVISIONAL} rated games")


class CountOut(BaseModel):
    family: str
    title: str
    players: int
    games: int


class GameOut(BaseModel):
    table_id: str
    game_number: int
    seat: int
    preset: str
    title: str = Field(description="The preset's title")
    family: str
    players: int
    place: int = Field(description="1 for the best; a seat left for good is last")
    points: int
    rated: bool
    left: bool = Field(description="The player left the game for good (a bot finished it)")
    finished_at: float
    replay: str = Field(description="The replay page's URL")
    review: str = Field(description="The review page's URL (the player's seat)")


class GamesPageOut(BaseModel):
    page: int
    pages: int
    games: list[GameOut]


class BotOut(BaseModel):
    bot: str = Field(description="A bot level that sat at the player's games")
    games: int
    wins: int
    mean_game: float = Field(description="The player's mean points a game")
    mean_game_interval: tuple[float, float] | None = Field(
        description="Its 95% interval (None: fewer than 5 games)"
    )
    mean_hand: float | None = Field(description="The player's mean points a hand")
    mean_hand_interval: tuple[float, float] | None


class PenaltyOut(BaseModel):
    round: str = Field(description="The round's id in the ruleset's data")
    name: str
    hands: int = Field(description="Hands of this round played")
    taken: int = Field(description="Of them, hands the player took points in")
    share: float
    mean: float = Field(description="Mean points a hand")


class PenaltyKindOut(BaseModel):
    penalty: str = Field(description="The penalty's id in the ruleset's data, or 'moon'")
    name: str = Field(description="Its name in the ruleset's data")
    hands: int = Field(description="Hands it was in play (the moon: hands a moon could be shot)")
    taken: int = Field(description="Of them, hands the player took it in (the moon: shot it)")
    share: float
    points: int = Field(
        description="The points it cost the player (before any moon; the moon: what shooting "
        "it changed, negative when it saved points)"
    )


class HistoryOut(BaseModel):
    family: str
    table_id: str
    game_number: int
    mu: float
    sigma: float
    ordinal: float
    at: float


class ProfileOut(BaseModel):
    id: str
    name: str | None
    colour: str
    games: int = Field(description="Finished games")
    by_ruleset: list[CountOut]
    finished: GamesPageOut
    against_bots: list[BotOut]
    penalties: list[PenaltyOut]
    penalty_kinds: list[PenaltyKindOut] = Field(
        description="The penalties taken by kind, over the games finished since they are counted"
    )
    ratings: list[RatingOut]
    history: list[HistoryOut] = Field(
        description=f"The rating after each of the latest {HISTORY} rated games, oldest first"
    )
    provisional_games: int


class BoardRowOut(BaseModel):
    rank: int
    id: str
    name: str | None
    rating: RatingOut
    games: int = Field(description="Rated games counted on this board (this week's, weekly)")


class FamilyOut(BaseModel):
    family: str
    title: str


class BoardOut(BaseModel):
    family: str
    title: str
    families: list[FamilyOut] = Field(description="Every family a leaderboard is kept for")
    period: Literal["all", "week"]
    min_games: int
    page: int
    pages: int
    total: int
    rows: list[BoardRowOut]


router = APIRouter(
    tags=["players"],
    responses=s.refusals(
        (400, "Bad input"), (404, "No such player, or a deleted one"), ("4XX", "Another refusal")
    ),
)

Page = Annotated[int, Query(ge=1, le=PAGE_LIMIT, description="Counted from 1")]


def ratings_of(request: Request) -> Ratings:
    found: Ratings = request.app.state.ratings
    return found


@router.get("/api/players/{who}", response_model=ProfileOut)
async def get_profile(
    request: Request,
    who: Annotated[str, Path(max_length=64, description="A player's id or name")],
    page: Page = 1,
) -> dict[str, Any]:
    """A player's profile: finished games counted and listed (paged), results against each
    bot level, penalties taken by hand type, ratings and their history."""
    identities: Identities = request.app.state.identities
    player = await identities.players.player(who) or await identities.players.player_named(who)
    if player is None:
        raise ActionError(_("no player {who}").format(who=repr(who)), 404)
    if player.deleted_at is not None:
        raise ActionError(_("deleted player"), 404)
    rows = await ratings_of(request).store.profile_rows(player.id, (page - 1) * PAGE, PAGE, HISTORY)
    return profile(player, rows, page)


@router.get("/api/leaderboard", response_model=BoardOut)
async def get_leaderboard(
    request: Request,
    family: Annotated[
        str, Query(max_length=32, description=f"The ruleset family: {', '.join(FAMILIES)}")
    ] = FAMILIES[0],
    period: Annotated[
        Literal["all", "week"], Query(description="All time, or this week (from Monday, UTC)")
    ] = "all",
    page: Page = 1,
    min_games: Annotated[
        int, Query(alias="min", ge=1, le=1000, description="Rated games a player needs")
    ] = MIN_GAMES,
) -> dict[str, Any]:
    """A family's ratings, best ordinal (mu - 3 sigma) first, of the players with enough
    rated games (all-time, or this week)."""
    if family not in FAMILIES:
        raise ActionError(
            _("family: must be one of {known}, not {family}").format(
                known=", ".join(FAMILIES), family=repr(family)
            )
        )
    week = week_start(time.time()) if period == "week" else None
    offset = (page - 1) * BOARD_PAGE
    board = await ratings_of(request).store.board(family, week, min_games, offset, BOARD_PAGE)
    return {
        "family": family,
        "title": FAMILY_TITLES[family],
        "families": [{"family": f, "title": FAMILY_TITLES[f]} for f in FAMILIES],
        "period": period,
        "min_games": min_games,
        "page": page,
        "pages": max(1, -(-board.total // BOARD_PAGE)),
        "total": board.total,
        "rows": [
            {
                "rank": offset + i + 1,
                "id": row.rating.player_id,
                "name": row.name,
                "rating": rating_out(row.rating),
                "games": row.games,
            }
            for i, row in enumerate(board.rows)
        ],
    }
