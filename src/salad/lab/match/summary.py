"""A match's statistics: each entrant's per-deal means and interval, and the paired differences.

An entrant is one distinct bot name of the line-up (a name listed several times is one
entrant). Its per-deal value is the mean of its points over all its seats in all the deal's
games; its mean is the mean of those per-deal values, with the 95% interval
``1.96 * sd / sqrt(deals)``. Two entrants are compared by their paired per-deal differences.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from salad.lab.games import PlayedGame
from salad.lab.match.lineup import seat_names

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


def ci95(values: Sequence[float]) -> tuple[float, float | None]:
    """``(mean, half-width of the 95% interval)``: ``1.96 * sd / sqrt(n)``, sd with ``n - 1``.

    The half-width is ``None`` for fewer than two values (no spread to measure).

    >>> ci95([1.0, 2.0, 3.0, 4.0])  # doctest: +ELLIPSIS
    (2.5, 1.2651...)
    >>> ci95([7.0])
    (7.0, None)
    """
    if not values:
        raise ValueError("ci95 of no values")
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return mean, None
    return mean, Z95 * statistics.stdev(values) / math.sqrt(len(values))


def rounded(x: float | None, digits: int = 4) -> float | None:
    """``x`` rounded for JSON (None stays None)."""
    return None if x is None else round(x, digits)


@dataclass(frozen=True)
class Timing:
    """Per-move decision times of one entrant, in seconds.

    Wall-clock time is what a player waits for; the process's CPU time during the move is
    also kept, since a move's wall time can include moments the worker was not running at all.
    """

    moves: int
    median: float
    max: float
    mean: float
    cpu_median: float
    cpu_max: float

    @classmethod
    def of(cls, wall: Sequence[float], cpu: Sequence[float]) -> Timing:
        if not wall:
            return cls(0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return cls(
            len(wall),
            statistics.median(wall),
            max(wall),
            math.fsum(wall) / len(wall),
            statistics.median(cpu),
            max(cpu),
        )

    def to_dict(self) -> dict[str, Any]:
        ms = 1000
        return {
            "moves": self.moves,
            "median_ms": round(self.median * ms, 4),
            "max_ms": round(self.max * ms, 4),
            "mean_ms": round(self.mean * ms, 4),
            "cpu_median_ms": round(self.cpu_median * ms, 4),
            "cpu_max_ms": round(self.cpu_max * ms, 4),
        }


@dataclass(frozen=True)
class Pair:
    """``a`` minus ``b``: the mean of the paired per-deal differences and its 95% interval."""

    a: str
    b: str
    diff: float
    ci95: float | None
    ratio: float | None
    """``mean(a) / mean(b)`` (``None`` when ``b``'s mean is 0)."""

    @property
    def decided(self) -> bool:
        """The interval excludes zero: one of the two is better, at 95%."""
        return self.ci95 is not None and abs(self.diff) > self.ci95

    def to_dict(self) -> dict[str, Any]:
        return {
            "diff": rounded(self.diff),
            "ci95": rounded(self.ci95),
            "ratio": rounded(self.ratio),
            "decided": self.decided,
        }


@dataclass(frozen=True)
class EntrantStats:
    """One distinct bot name of the line-up and how it did."""

    name: str
    seats: int
    """How many seats of the line-up it fills."""
    mean: float
    """Mean points per game (per seat it played)."""
    ci95: float | None
    sd: float | None
    """Standard deviation of the per-deal means."""
    games: int
    """Games it took part in."""
    seat_games: int
    """Games times seats: the number of scores its mean averages."""
    wins: float
    """Share of wins per seat-game (a tie for first splits the win)."""
    seat_means: tuple[float, ...]
    """Mean points from each seat of the table."""
    deal_means: tuple[float, ...]
    timing: Timing


def summarize(
    lineup: Sequence[str], n: int, deals: int, played: Sequence[PlayedGame]
) -> tuple[list[EntrantStats], list[Pair]]:
    """Each entrant's statistics (in line-up order) and every ordered pair of them."""
    names = list(dict.fromkeys(lineup))
    # Per entrant: per-deal point sums, per-seat sums, win shares, decision times.
    deal_sums = {name: [0] * deals for name in names}
    seat_sums = {name: [0] * n for name in names}
    seat_counts = {name: [0] * n for name in names}
    wins = dict.fromkeys(names, 0.0)
    times: dict[str, list[float]] = {name: [] for name in names}
    cpu: dict[str, list[float]] = {name: [] for name in names}
    games = dict.fromkeys(names, 0)
    for p in played:
        at = seat_names(lineup, p.rotation)
        for name in set(at):
            games[name] += 1
        for s, name in enumerate(at):
            deal_sums[name][p.deal] += p.totals[s]
            seat_sums[name][s] += p.totals[s]
            seat_counts[name][s] += 1
            if s in p.winners:
                wins[name] += 1 / len(p.winners)
            times[name].extend(p.times[s])
            cpu[name].extend(p.cpu[s])
    entrants = []
    deal_means: dict[str, list[float]] = {}
    for name in names:
        seats = lineup.count(name)
        per_game = seats * n  # seat-games per deal: its seats x the rotations
        deal_means[name] = [x / per_game for x in deal_sums[name]]
        mean, half = ci95(deal_means[name])
        entrants.append(
            EntrantStats(
                name=name,
                seats=seats,
                mean=mean,
                ci95=half,
                sd=statistics.stdev(deal_means[name]) if deals > 1 else None,
                games=games[name],
                seat_games=per_game * deals,
                wins=wins[name] / (per_game * deals),
                seat_means=tuple(
                    t / c if c else 0.0
                    for t, c in zip(seat_sums[name], seat_counts[name], strict=True)
                ),
                deal_means=tuple(deal_means[name]),
                timing=Timing.of(times[name], cpu[name]),
            )
        )
    pairs = []
    for a in entrants:
        for b in entrants:
            if a is b:
                continue
            diffs = [x - y for x, y in zip(deal_means[a.name], deal_means[b.name], strict=True)]
            diff, half = ci95(diffs)
            ratio = a.mean / b.mean if b.mean else None
            pairs.append(Pair(a.name, b.name, diff, half, ratio))
    return entrants, pairs
