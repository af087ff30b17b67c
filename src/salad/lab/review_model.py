"""The shape of a game review: every reviewed decision, each hand's summary and the game's.

A review is data (pydantic models), so that the CLI's ``--json``, the web API and the page all
show the same numbers: the server stores :meth:`GameReview.model_dump_json` with the game and
sends it as it is. Points are the seat's points for the hand (lower is better unless the
ruleset's highest total wins); a cost is always points given away, never negative.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, PlainSerializer

FORMAT = "salad-review/1"
"""The value of every review's ``format`` field."""

Points = Annotated[float, PlainSerializer(lambda x: round(x, 2), return_type=float)]
"""Points estimated by the search (means, errors, costs and their sums): written to two places
(a hundredth of a point; no ``6.2915286960589585`` or ``249.10000000000002`` in the JSON)."""

Label = Literal["good", "inaccuracy", "mistake", "blunder"]
Kind = Literal["play", "pass", "trump"]


class Estimate(BaseModel):
    """The search's estimate of the seat's points for the hand after one choice."""

    move: str
    """The move in the one move notation (:func:`salad.moves.format_move`)."""
    points: Points
    """The mean over the worlds searched."""
    se: Points
    """The standard error of that mean."""


class Hindsight(BaseModel):
    """The same search on the true deal, every hand known: what could only be seen after."""

    best: str
    estimates: list[Estimate]
    cost: Points


class Decision(BaseModel):
    """One choice of the seat: what it chose, what the search thinks was best, the cost."""

    index: int
    """0-based, in the order the seat made its choices over the game."""
    hand: int
    """1-based hand number."""
    round: str
    trick: int
    """1-based trick number (0 for a pass or a trump choice)."""
    kind: Kind
    chosen: str
    best: str
    estimates: list[Estimate]
    """Every distinct legal choice, best first (one entry when the choice was forced)."""
    cost: Points
    """Estimated points lost by the choice; 0 when within the noise."""
    noise: Points
    """The standard error of the difference chosen - best (paired over the same worlds)."""
    label: Label
    worlds: int
    hindsight: Hindsight | None = None

    @property
    def forced(self) -> bool:
        return len(self.estimates) == 1


class HandSummary(BaseModel):
    hand: int
    round: str
    points: int
    """What the seat scored in the hand."""
    lost: Points
    """Points lost to its choices (the sum of their costs)."""
    dealt: Points
    """Points the deal forced: ``points - lost`` (``points + lost`` where highest wins)."""
    decisions: int
    hindsight_lost: Points | None = None


class SeatReview(BaseModel):
    seat: int
    name: str
    points: int
    lost: Points
    dealt: Points
    hands: list[HandSummary]
    decisions: list[Decision]
    costliest: list[int]
    """Indexes into ``decisions`` of the three costliest choices, costliest first."""
    hindsight_lost: Points | None = None


class Thresholds(BaseModel):
    """Cost thresholds of the labels, in points: at least ``inaccuracy`` is an inaccuracy..."""

    unit: int
    inaccuracy: float
    mistake: float
    blunder: float


class GameReview(BaseModel):
    format: str = FORMAT
    ruleset: str
    players: list[str]
    game: int
    """1-based number of the game in its record file (1 for a single record)."""
    worlds: int
    move_time: float | None
    hindsight: bool
    thresholds: Thresholds
    seats: list[SeatReview]
