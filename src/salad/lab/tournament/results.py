"""A tournament's result: the leaderboard (ratings, points, wins, places) and every game."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from salad.lab.tournament.ratings import GameResult, Rating
from salad.lab.tournament.schedule import Entrant
from salad.ruleset import Ruleset


@dataclass(frozen=True)
class Standing:
    """One line of the leaderboard."""

    rank: int
    entrant: str
    bot: str
    rating: Rating
    games: int
    mean_points: float | None
    wins: float
    """Games won (a tie for first shares the win)."""
    mean_place: float | None
    rounds: dict[str, float | None]
    """Round id → mean points taken in a hand of that round."""

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


def leaderboard(
    entrants: Sequence[Entrant],
    games: Sequence[GameResult],
    ratings: dict[str, Rating],
    round_ids: Sequence[str],
    high: bool,
) -> list[Standing]:
    """The standings, best first: by ordinal, then by mean points, then by label."""
    points: dict[str, list[int]] = {e.label: [] for e in entrants}
    places: dict[str, list[int]] = {e.label: [] for e in entrants}
    wins = {e.label: 0.0 for e in entrants}
    taken: dict[str, dict[str, list[int]]] = {
        e.label: {rid: [] for rid in round_ids} for e in entrants
    }
    for g in games:
        for s, label in enumerate(g.entrants):
            points[label].append(g.totals[s])
            places[label].append(g.places[s])
            wins[label] += g.win_share(s)
            for rid, hand in g.hands:
                taken[label].setdefault(rid, []).append(hand[s])
    rows = [
        Standing(
            rank=0,
            entrant=e.label,
            bot=e.bot,
            rating=ratings[e.label],
            games=len(points[e.label]),
            mean_points=_mean(points[e.label]),
            wins=wins[e.label],
            mean_place=_mean(places[e.label]),
            rounds={rid: _mean(v) for rid, v in taken[e.label].items()},
        )
        for e in entrants
    ]
    sign = -1 if high else 1
    rows.sort(
        key=lambda s: (
            -s.rating.ordinal,
            math.inf if s.mean_points is None else sign * s.mean_points,
            s.entrant,
        )
    )
    return [replace(s, rank=i + 1) for i, s in enumerate(rows)]


def _mean(values: Sequence[int]) -> float | None:
    return math.fsum(values) / len(values) if values else None


@dataclass
class TournamentResult:
    """What :func:`~salad.lab.tournament.run_tournament` played and how the entrants rank."""

    ruleset: Ruleset
    players: int
    seed: int
    games: list[GameResult]
    """Every game, in schedule order."""
    standings: list[Standing]
    """Best first."""
    history: dict[str, list[Rating]]
    """Each entrant's rating before the first game and after every game."""
    rounds: list[tuple[str, str]]
    """The rounds played, ``(id, name)``, in the order of the hands."""
    backend: str
    workers: int
    played: int
    """Games played by this run."""
    resumed: int
    """Games found already played in ``out``."""
    elapsed: float
    """Seconds this run spent playing."""
    out: Path | None = None
    files: list[Path] = field(default_factory=list)
    fallback: dict[str, int] = field(default_factory=dict)
    """Moves the fallback bot made in this run, by the entrant it stood in for (an external
    bot whose program failed)."""

    @property
    def games_per_s(self) -> float:
        return self.played / self.elapsed if self.elapsed > 0 else 0.0

    def standing(self, label: str) -> Standing:
        for s in self.standings:
            if s.entrant == label:
                return s
        raise KeyError(label)
