"""Game reviews over REST: start one, then read its progress and result (the work and who may
look: :class:`salad.server.reviews.Reviews`, one per process, made on first use)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response

from salad.server.reviews import Reviews
from salad.server.routes.tables import ERRORS, Manager, SeatToken

router = APIRouter()

SeatQuery = Annotated[int, Query(ge=0, description="The seat whose choices are reviewed")]

STATUS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    200: {
        "description": '{"status": "none" | "running" | "done" | "failed", "done": decisions '
        'reviewed, "total": decisions, "review": the salad-review/1 review when done, '
        '"error": one line when failed}',
        "content": {"application/json": {"schema": {"type": "object"}}},
    },
}


def reviews(request: Request, manager: Manager) -> Reviews:
    found = getattr(request.app.state, "reviews", None)
    if not isinstance(found, Reviews):
        found = request.app.state.reviews = Reviews(manager)
    return found


ReviewsDep = Annotated[Reviews, Depends(reviews)]


PATH = "/api/tables/{table_id}/games/{game}/review"
ROUTE: dict[str, Any] = {"responses": STATUS, "tags": ["records"], "response_class": Response}


@router.post(PATH, **ROUTE)
async def start_review(
    table_id: str, game: int, seat: SeatQuery, work: ReviewsDep, token: SeatToken = None
) -> Response:
    """Start the review of a seat's choices in a finished game (stored: a second call, or
    anyone's, gets the same review)."""
    text = await work.start(table_id, game, seat, token)
    return Response(text, media_type="application/json")


@router.get(PATH, **ROUTE)
async def get_review(
    table_id: str, game: int, seat: SeatQuery, work: ReviewsDep, token: SeatToken = None
) -> Response:
    """The review's progress while it runs, then the review."""
    text = await work.status(table_id, game, seat, token)
    return Response(text, media_type="application/json")
