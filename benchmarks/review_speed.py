"""Review speed: the time to review one whole 4-player Canadian Salad game for one seat.

Games are played by the basic bot from fixed seeds (the review's cost hardly depends on who
played), written as records, then each is reviewed for one seat at the default budget
(:data:`salad.lab.review.DEFAULT_WORLDS` worlds per decision, as ``salad review`` and the web
server use) through :func:`salad.lab.review.review_record`, the same path as the CLI. The
target is at most 60 s a game on a shared 2-core machine; the server runs the same work one
decision at a time on its bot worker pool, so its tables keep playing meanwhile.

Run ``python benchmarks/review_speed.py`` (one game, about 20 s on an idle core),
``--games N``, ``--worlds W``, ``--seat S``. The last line printed is one JSON object with the
figures.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time

from salad import Game, load_ruleset
from salad.bots import make_bot
from salad.formats.records import record_from_game
from salad.lab.review import DEFAULT_WORLDS, ReviewOptions, review_record

TARGET = 60.0
"""Seconds to review one whole game for one seat, at most."""


def played_record(seed: int) -> dict[str, object]:
    """A finished 4-player Canadian Salad game of the basic bot, as a record."""
    game = Game(load_ruleset("canadian"), 4, seed=seed)
    bots = [make_bot("basic", seed * 10 + s) for s in range(4)]
    while not game.is_over():
        game.play(bots[game.to_move].choose(game.view(game.to_move)))
    return record_from_game(game)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games to review (default 1)")
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, help="worlds per decision")
    parser.add_argument("--seat", type=int, default=0, help="the seat reviewed (default 0)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    options = ReviewOptions(worlds=args.worlds)
    times: list[float] = []
    decisions = 0
    for i in range(args.games):
        record = played_record(args.seed + i)
        start = time.perf_counter()
        review = review_record(record, [args.seat], options)
        seconds = time.perf_counter() - start
        times.append(seconds)
        seat = review.seats[0]
        searched = sum(1 for d in seat.decisions if not d.forced)
        decisions += len(seat.decisions)
        print(
            f"game {i + 1} (seed {args.seed + i}): {seconds:.1f} s for {len(seat.decisions)} "
            f"decisions ({searched} searched) at {args.worlds} worlds; "
            f"{seat.lost:.1f} points lost to choices"
        )
    mean = statistics.fmean(times)
    worst = max(times)
    verdict = "meets" if worst <= TARGET else "misses"
    print(
        f"review of one game for one seat: mean {mean:.1f} s, worst {worst:.1f} s "
        f"({verdict} the target of {TARGET:.0f} s)"
    )
    print(
        json.dumps(
            {
                "benchmark": "review_speed",
                "games": args.games,
                "worlds": args.worlds,
                "seconds_mean": round(mean, 2),
                "seconds_worst": round(worst, 2),
                "decisions": decisions,
                "target_seconds": TARGET,
                "meets_target": worst <= TARGET,
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
