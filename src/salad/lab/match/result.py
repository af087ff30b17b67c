"""A match's result: every game, the statistics, and the summary in words and in JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from salad.lab.games import bot_key
from salad.lab.match.summary import EntrantStats, Pair, rounded
from salad.lab.progress import format_rate
from salad.ruleset import Ruleset


@dataclass(frozen=True)
class GameOutcome:
    deal: int
    rotation: int
    seed: int
    bots: tuple[str, ...]
    """The bot name in each seat."""
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass
class MatchResult:
    ruleset: Ruleset
    players: int
    lineup: tuple[str, ...]
    deals: int
    seed: int
    move_time: float | None
    workers: int
    elapsed: float
    games: list[GameOutcome]
    """Every game, ordered by deal then rotation."""
    entrants: list[EntrantStats]
    pairs: list[Pair]
    """Every ordered pair of different entrants."""
    record: Path | None = None
    fallback: dict[str, int] = field(default_factory=dict)
    """Moves the fallback bot made, by entrant, for an external bot whose program failed:
    those games are not wholly the entrant's."""

    def entrant(self, name: str) -> EntrantStats:
        key = bot_key(name)
        for e in self.entrants:
            if e.name == key:
                return e
        raise KeyError(name)

    def pair(self, a: str, b: str) -> Pair:
        a, b = bot_key(a), bot_key(b)
        for p in self.pairs:
            if (p.a, p.b) == (a, b):
                return p
        raise KeyError((a, b))

    @property
    def games_per_s(self) -> float:
        return len(self.games) / self.elapsed if self.elapsed > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        rs = self.ruleset
        bots = []
        for e in self.entrants:
            bots.append(
                {
                    "name": e.name,
                    "mean": rounded(e.mean),
                    "ci95": rounded(e.ci95),
                    "games": e.games,
                    "seats": e.seats,
                    "seat_games": e.seat_games,
                    "sd": rounded(e.sd),
                    "wins": rounded(e.wins),
                    "seat_means": [rounded(m) for m in e.seat_means],
                    "decision": e.timing.to_dict(),
                    "vs": {p.b: p.to_dict() for p in self.pairs if p.a == e.name},
                }
            )
        return {
            "rules": rs.preset,
            "title": rs.title,
            "settings": rs.settings,
            "players": self.players,
            "highest_wins": rs.highest_wins,
            "lineup": list(self.lineup),
            "deals": self.deals,
            "seed": self.seed,
            "games": len(self.games),
            "move_time": self.move_time,
            "workers": self.workers,
            "elapsed_s": round(self.elapsed, 3),
            "games_per_s": round(self.games_per_s, 2),
            "record": str(self.record) if self.record else None,
            "bots": bots,
            "fallback_moves": dict(self.fallback),
        }

    def to_json(self) -> str:
        """The summary as one line of JSON."""
        return json.dumps(self.to_dict())

    def lines(self) -> list[str]:
        """The summary in words, one line per entrant and per pair."""
        rs = self.ruleset
        better = "higher" if rs.highest_wins else "lower"
        out = [
            f"{_n(self.deals, 'deal')} x {self.players} rotations = {len(self.games)} games of "
            f"{rs.title}, {self.players} players, seeds {self.seed}..{self.seed + self.deals - 1}"
            + (f", {self.move_time:g} s per move" if self.move_time is not None else ""),
            f"mean points per game ({better} is better), 95% interval over per-deal means:",
        ]
        width = max(len(e.name) for e in self.entrants)
        for e in self.entrants:
            t = e.timing
            out.append(
                f"  {e.name:<{width}}  {e.mean:8.2f} ± {_pm(e.ci95)}  {e.games} games"
                f" ({e.seat_games} seat-games), wins {e.wins:.3f}/seat,"
                f" move {_ms(t.median)} median, {_ms(t.max)} max"
            )
        done = set()
        for p in self.pairs:
            if (p.b, p.a) in done:
                continue
            done.add((p.a, p.b))
            ratio = f", ratio {p.ratio:.3f}" if p.ratio is not None else ""
            verdict = " (decided)" if p.decided else " (not decided)"
            out.append(
                f"  {p.a} - {p.b}: {p.diff:+.2f} ± {_pm(p.ci95)} paired per deal{ratio}{verdict}"
            )
        for name, moves in self.fallback.items():
            out.append(f"  {name}: its program failed; the fallback bot made {moves} of its moves")
        rate = format_rate(len(self.games), self.elapsed)
        out.append(f"{len(self.games)} games in {self.elapsed:.1f} s ({rate})")
        if self.record is not None:
            out.append(f"records written to {self.record}")
        return out


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _pm(x: float | None) -> str:
    return "   n/a" if x is None else f"{x:6.2f}"


def _ms(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.001:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"
