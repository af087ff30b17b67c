"""Duplicate matches between bots: the same cards for everyone, every bot in every seat.

Deal ``d`` of a match is the game with seed ``seed + d`` (that seed fixes every hand's cards and
the first dealer). It is played ``players`` times, the bot line-up rotated one seat each time:
in rotation ``r`` the bot listed ``i``-th sits in seat ``(i + r) % players``
(:mod:`~salad.lab.match.lineup`). So each bot meets the same cards from every seat, and the
luck of the deal cancels out of the comparison.

A name listed several times is one entrant. Its per-deal value is the mean of its points over
all its seats in all the deal's games; its mean is the mean of those per-deal values, and its 95%
confidence interval is ``1.96 * sd / sqrt(deals)`` of them. Two entrants are compared by their
paired per-deal differences, with the interval of those differences
(:mod:`~salad.lab.match.summary`).

Each game is one job for a process pool (``workers=1`` plays in this process). Every bot is
built fresh for its game with the seed ``salad.bots.seeds.bot_seed("match", seed, deal,
rotation, seat)``, so a match comes out the same whatever the number of workers, as long as the
bots themselves are deterministic given their seed (a bot that searches for a fixed time is
not).

>>> from salad import load_ruleset
>>> result = run_match(load_ruleset("canadian"), None, ["random", "random"], deals=1, seed=5,
...                    workers=1)
Traceback (most recent call last):
...
salad.errors.SaladError: bots: 2 bots named for 4 players (a match needs one per seat)
>>> result = run_match(load_ruleset("canadian"), 4, ["random"] * 4, deals=1, seed=5, workers=1)
>>> [(e.name, e.games, e.seat_games) for e in result.entrants]
[('random', 4, 16)]
"""

from salad.lab.match.lineup import parse_lineup, seat_names
from salad.lab.match.result import GameOutcome, MatchResult
from salad.lab.match.run import run_match
from salad.lab.match.summary import EntrantStats, Pair, Timing, ci95, summarize

__all__ = [
    "EntrantStats",
    "GameOutcome",
    "MatchResult",
    "Pair",
    "Timing",
    "ci95",
    "parse_lineup",
    "run_match",
    "seat_names",
    "summarize",
]
