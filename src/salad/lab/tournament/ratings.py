"""Each game as its record tells it, and the OpenSkill ratings over the games.

OpenSkill's Plackett-Luce model rates every game in schedule order: each seat is one player,
ranked by its total (lower is better unless the ruleset's ``highest_wins``; equal totals share
a rank).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from salad.lab.tournament.schedule import Entrant, Seating
from salad.scoring import standings as places_of


@dataclass(frozen=True)
class GameResult:
    """One game as its record tells it."""

    index: int
    deal: int
    rotation: int
    seed: int
    entrants: tuple[str, ...]
    """The entrant (label) in each seat."""
    bots: tuple[str, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    """1 for the best total; equal totals share the place."""
    winners: tuple[int, ...]
    hands: tuple[tuple[str, tuple[int, ...]], ...]
    """Each hand: its round id and the points of each seat."""

    @classmethod
    def of(
        cls, seating: Seating, entrants: Sequence[Entrant], record: dict[str, Any], high: bool
    ) -> GameResult:
        totals = tuple(int(t) for t in record["totals"])
        return cls(
            index=seating.index,
            deal=seating.deal,
            rotation=seating.rotation,
            seed=seating.seed,
            entrants=tuple(entrants[e].label for e in seating.seats),
            bots=tuple(entrants[e].bot for e in seating.seats),
            totals=totals,
            places=tuple(places_of(totals, high)),
            winners=tuple(int(s) for s in record["winners"]),
            hands=tuple(
                (str(h["round_id"]), tuple(int(p) for p in h["points"])) for h in record["hands"]
            ),
        )

    def win_share(self, seat: int) -> float:
        """1 for the only winner, ``1/k`` for each of ``k`` tied winners, else 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating: the mean ``mu`` and the uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating ``mu - 3 sigma`` the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


def rate_games(
    labels: Sequence[str], games: Sequence[GameResult]
) -> tuple[dict[str, Rating], dict[str, list[Rating]]]:
    """OpenSkill (Plackett-Luce) ratings after the games, in order, and each one's history.

    The history of an entrant holds its rating before the first game and after every game
    (``len(games) + 1`` entries; it stays put through the games it sits out).

    >>> g = GameResult(0, 0, 0, 0, ("a", "b", "c"), ("x",) * 3, (1, 5, 5), (1, 2, 2), (0,), ())
    >>> final, history = rate_games(["a", "b", "c"], [g])
    >>> final["a"].mu > 25 > final["b"].mu == final["c"].mu
    True
    """
    # openskill is an optional extra (canadian-salad[lab]): loaded only when ratings are computed.
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {label: model.rating() for label in labels}
    history = {label: [Rating(r.mu, r.sigma)] for label, r in current.items()}
    for game in games:
        teams = [[current[label]] for label in game.entrants]
        rated = model.rate(teams, ranks=[float(p) for p in game.places])
        for label, team in zip(game.entrants, rated, strict=True):
            current[label] = team[0]
        for label, hist in history.items():
            r = current[label]
            hist.append(Rating(r.mu, r.sigma) if label in game.entrants else hist[-1])
    return {label: Rating(r.mu, r.sigma) for label, r in current.items()}, history
