"""Batched engine speed: random card plays a second at N = 4,096, beside our engine and OpenSpiel.

Three engines play whole games at random in the same process, in alternating timed rounds:

* the batch (:class:`salad.adapters.batch.BatchGames`): N games stepped together, each step
  ``step(random_legal(rng))``, a uniformly random legal card in every game (and, in brackets,
  the same with ``legal_mask()`` built every step too: what an environment that hands its
  policy the (N, moves) boolean mask pays); a round is one batch of N whole games, dealing
  included;
* our engine (:class:`salad.Game` through its public API, ``engine_speed.run_salad``: ask
  ``legal_moves``, ``random.Random.choice``, ``play``);
* OpenSpiel's Hearts through pyspiel's Python API (``engine_speed.run_openspiel``, the same loop:
  chance nodes deal, then 52 card plays a deal).

Each round's rates give two paired ratios (batch / OpenSpiel, batch / ours); a line's headline
is their median. Targets (issue #37): at N = 4,096 the batch plays >= 30x OpenSpiel's Hearts and
>= 10x our engine, on each of canadian, fruit-salad and extended (4 players); Skip the Salad
with all toppings is printed after them. Times are CPU time (``time.process_time``), see
``engine_speed.CLOCK``.

``--games G`` runs the large differential check instead: G games per preset (canadian,
fruit-salad, extended, skip-the-salad, and skip-the-salad with all toppings) at 4 players
(``--players N``: at N; ``--players all``: shared out over every player count), dealt the same
cards in the batch and in the reference engine (:func:`salad.adapters.batch.compare_with_engine`,
half the batches on the batch's deals, half on the reference's), and prints how many agreed at
every step and at the end; it exits 1 on any difference. ``--games 10000`` is issue #37's run
(about two minutes of CPU at 4 players: the reference engine and the per-step checks in Python
take the time).

``--vector`` times the vector environment instead (:class:`salad.adapters.vector.SaladVectorEnv`,
N games as one Gymnasium vector env; ``--n 1024`` is issue #37's size, default 4,096): env
steps a second (a step is one move in each of the N games) and observations a second (N a
step: the seat to move's ``float32`` vector, the action mask, rewards), beside the bare batch
with ``legal_mask()`` on the same games, in alternating rounds, per preset (about 20 s).

Run ``python benchmarks/batch_speed.py`` (about 30 s), ``--quick`` (about 12 s), ``--n N``,
``--rounds R``. The last line printed is one JSON object with the figures.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import statistics
import sys
from typing import Any

import numpy as np
import pyspiel
from engine_speed import CLOCK, OPENSPIEL_GAME, check_openspiel, run_openspiel, run_salad

import salad
from salad import load_ruleset
from salad.adapters.batch import BatchGames, compare_with_engine
from salad.adapters.vector import SaladVectorEnv

PLAYERS = 4  # engine_speed's loops play 4-player games
PRESETS = ("canadian", "fruit-salad", "extended")
"""The rulesets the targets are for (engine_speed's fast path)."""
SKIP_ALL = ("skip-the-salad", {"toppings": "all"})
"""Shown too: Wilds, Salad Dressing, passing, trump picks, a token, the Blue Cheese Moon (its
"plays" count every decision, passes and trump picks too, as engine_speed's do)."""
DIFFERENTIAL = (*((p, {}) for p in (*PRESETS, "skip-the-salad")), SKIP_ALL)
N = 4096
TARGET_OPENSPIEL = 30.0
TARGET_OURS = 10.0


def run_batch(rs: Any, n: int, seed: int, mask: bool = False) -> tuple[float, int]:
    """One batch of ``n`` whole games at random; return (seconds, card plays)."""
    rng = np.random.default_rng(seed)
    plays = 0
    t0 = CLOCK()
    games = BatchGames(rs, PLAYERS, n, seed=seed)
    if mask:
        while not games.is_over():
            games.legal_mask()  # what an environment hands its policy every step
            games.step(games.random_legal(rng))
            plays += n
    else:
        while not games.is_over():
            games.step(games.random_legal(rng))
            plays += n
    return CLOCK() - t0, plays


def run_vector(envs: SaladVectorEnv, seed: int) -> tuple[float, int]:
    """One episode of the vector env (N whole games, its reset included) with a random legal
    move per game (``random_legal``, as ``run_batch`` draws them); return (seconds, steps)."""
    rng = np.random.default_rng(seed)
    steps = 0
    t0 = CLOCK()
    envs.reset(seed=seed)
    while True:
        _, _, terminated, _, _ = envs.step(envs.games.random_legal(rng))
        steps += 1
        if terminated.any():
            return CLOCK() - t0, steps


def vector_lines(n: int, rounds: int) -> dict[str, dict[str, float]]:
    """The vector env beside the bare batch (with ``legal_mask()``), alternating rounds, per
    preset at 4 players: medians of steps a second and observations (games' moves) a second."""
    out = {}
    for preset, settings in (*((p, {}) for p in PRESETS), SKIP_ALL):
        rs = load_ruleset(preset, settings)
        name = preset + ("+all" if settings else "")
        envs = SaladVectorEnv(n, rs, PLAYERS)
        run_vector(SaladVectorEnv(64, rs, PLAYERS), 0)  # warm-up
        env_rates: list[float] = []
        bare_rates: list[float] = []
        for r in range(rounds):
            gc.collect()
            dt, steps = run_vector(envs, 1000 + r)
            env_rates.append(steps / dt)
            gc.collect()
            dt, plays = run_batch(rs, n, 1000 + r, mask=True)
            bare_rates.append(plays / n / dt)
        env, bare = statistics.median(env_rates), statistics.median(bare_rates)
        print(
            f"  {name:<18} vector env {env:>8,.0f} steps/s = {env * n:>11,.0f} observations/s"
            f"   bare batch (+mask) {bare:>8,.0f} steps/s = {bare * n:>11,.0f} plays/s"
            f"   ({bare / env:.1f}x the env; obs {envs.layout.size} floats)"
        )
        out[name] = {
            "env_steps_per_s": round(env, 1),
            "env_observations_per_s": round(env * n),
            "batch_mask_steps_per_s": round(bare, 1),
            "batch_mask_plays_per_s": round(bare * n),
            "observation_size": envs.layout.size,
        }
    return out


def timed_line(
    name: str, rs: Any, game: Any, n: int, rounds: int, share: float
) -> dict[str, float]:
    """Alternate the three engines for ``rounds`` rounds; print and return the medians."""
    per_game = len(rs.hands) * 52
    # Size the other engines' rounds to about ``share`` seconds each, from a short warm-up.
    dt, p = run_salad(rs, 0, 2, 1)
    ours_games = max(1, round(share * p / dt / per_game))
    dt, p = run_openspiel(game, 4, 1)
    os_games = max(1, round(share * p / dt / 52))
    run_batch(rs, 64, 0)  # warm-up
    cols: dict[str, list[float]] = {"batch": [], "mask": [], "ours": [], "openspiel": []}
    for r in range(rounds):
        seed = 1000 + r
        for key in cols:
            gc.collect()
            if key == "batch":
                dt, p = run_batch(rs, n, seed)
            elif key == "mask":
                dt, p = run_batch(rs, n, seed, mask=True)
            elif key == "ours":
                dt, p = run_salad(rs, r * 10_000, ours_games, seed)
            else:
                dt, p = run_openspiel(game, os_games, seed)
            cols[key].append(p / dt)
    vs_os = [a / b for a, b in zip(cols["batch"], cols["openspiel"], strict=True)]
    vs_ours = [a / b for a, b in zip(cols["batch"], cols["ours"], strict=True)]
    mask_os = [a / b for a, b in zip(cols["mask"], cols["openspiel"], strict=True)]
    mask_ours = [a / b for a, b in zip(cols["mask"], cols["ours"], strict=True)]
    med = {k: statistics.median(v) for k, v in cols.items()}
    out = {
        "batch": med["batch"],
        "batch_mask": med["mask"],
        "ours": med["ours"],
        "openspiel": med["openspiel"],
        "batch_vs_openspiel": statistics.median(vs_os),
        "batch_vs_ours": statistics.median(vs_ours),
        "mask_vs_openspiel": statistics.median(mask_os),
        "mask_vs_ours": statistics.median(mask_ours),
    }
    print(
        f"  {name:<12} batch {med['batch']:>11,.0f}  (+mask {med['mask']:>10,.0f})  "
        f"ours {med['ours']:>8,.0f}  openspiel {med['openspiel']:>8,.0f} plays/s   "
        f"vs openspiel {out['batch_vs_openspiel']:5.1f}x (+mask {out['mask_vs_openspiel']:4.1f}x)"
        f"  vs ours {out['batch_vs_ours']:5.1f}x (+mask {out['mask_vs_ours']:4.1f}x)"
    )
    print(
        f"  {'':<12} rounds batch/openspiel {', '.join(f'{x:.1f}' for x in vs_os)}; "
        f"batch/ours {', '.join(f'{x:.1f}' for x in vs_ours)}"
    )
    return out


def differential(games: int, players: str, chunk: int) -> int:
    """The large agreement run: ``games`` per preset (at ``players`` seats, or shared out over
    every player count the preset allows: ``all``); 0 when every game agreed."""
    failed = 0
    for preset, settings in DIFFERENTIAL:
        rs = load_ruleset(preset, settings)
        name = preset + ("+all" if settings else "")
        counts = (
            list(range(rs.min_players, rs.max_players + 1)) if players == "all" else [int(players)]
        )
        done = agreed = moons = plays = 0
        first = ""
        t0 = CLOCK()
        for i, count in enumerate(counts):
            share = games // len(counts) + (i < games % len(counts))
            k = 0
            while k * chunk < share:
                n = min(chunk, share - k * chunk)
                seed = 1000 * count + k
                got = compare_with_engine(rs, count, n, seed=seed, batch_deals=k % 2 == 0)
                done, agreed = done + n, agreed + got.agreed
                moons, plays = moons + got.moons, plays + got.plays
                first = first or (f"{count}p: {got.first_difference}" if got.agreed < n else "")
                k += 1
        dt = CLOCK() - t0
        seats = f"{counts[0]}-{counts[-1]}p" if len(counts) > 1 else f"{counts[0]}p"
        print(
            f"  {name:<18} {seats:>5}: {agreed:,} of {done:,} games agree move for move and "
            f"point for point ({plays:,} plays, {moons:,} moons; {dt:.0f} s)"
            + (f"; first difference: {first}" if first else "")
        )
        failed += done - agreed
    return failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=N, help="games in the batch (default 4096)")
    ap.add_argument("--seconds", type=float, default=30.0, help="rough total run time")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds per preset")
    ap.add_argument("--quick", action="store_true", help="a ~12 s run (3 rounds)")
    ap.add_argument("--games", type=int, default=0, help="the differential run: games a preset")
    ap.add_argument(
        "--players", default=str(PLAYERS), help="players in --games: a count, or all of them"
    )
    ap.add_argument(
        "--vector", action="store_true", help="time the vector env beside the bare batch"
    )
    args = ap.parse_args(argv)
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{now}, load average {load} on {os.cpu_count()} cores")
    if args.games:
        print(f"differential run: {args.games:,} random games per preset, batch vs reference")
        failed = differential(args.games, args.players, 1000)
        print(json.dumps({"games_per_preset": args.games, "disagreeing": failed}))
        return 1 if failed else 0

    if args.vector:
        rounds = 3 if args.quick else max(1, args.rounds)
        print(
            f"vector env (salad.adapters.vector) at N = {args.n:,}, {PLAYERS} players, "
            f"{rounds} rounds a line; python {platform.python_version()}, numpy {np.__version__}"
        )
        figures = vector_lines(args.n, rounds)
        print(json.dumps({"n": args.n, "when": now, "load": load, "vector": figures}))
        return 0

    if args.quick:
        args.seconds, args.rounds = 8.0, 3
    rounds = max(1, args.rounds)
    game = pyspiel.load_game(OPENSPIEL_GAME)
    check_openspiel(game)
    py = platform.python_version()
    print(
        f"python {py}, numpy {np.__version__}, openspiel {pyspiel.__version__} ({OPENSPIEL_GAME})"
    )
    print(f"salad {salad.__version__}: {PLAYERS} players, N = {args.n:,}, {rounds} rounds a line")
    # Per round: a batch (well under a second at N = 4,096), then ours and OpenSpiel.
    share = max(0.1, args.seconds / (len(PRESETS) + 1) / rounds / 3)
    lines = {p: timed_line(p, load_ruleset(p), game, args.n, rounds, share) for p in PRESETS}
    worst_os = min(v["batch_vs_openspiel"] for v in lines.values())
    worst_ours = min(v["batch_vs_ours"] for v in lines.values())
    skip = load_ruleset(*SKIP_ALL)
    lines["skip-the-salad+all"] = timed_line("skip+all", skip, game, args.n, rounds, share)
    met = worst_os >= TARGET_OPENSPIEL and worst_ours >= TARGET_OURS
    print(
        f"batch at N = {args.n:,}: {worst_os:.1f}x OpenSpiel (target >= {TARGET_OPENSPIEL:.0f}x), "
        f"{worst_ours:.1f}x our engine (target >= {TARGET_OURS:.0f}x) at the least over "
        f"{', '.join(PRESETS)}: "
        f"{'met' if met else 'NOT met'}"
    )
    result = {
        "n": args.n,
        "when": now,
        "load": load,
        "plays_per_s": {p: {k: round(v, 2) for k, v in d.items()} for p, d in lines.items()},
        "min_batch_vs_openspiel": round(worst_os, 2),
        "min_batch_vs_ours": round(worst_ours, 2),
        "targets": {"openspiel": TARGET_OPENSPIEL, "ours": TARGET_OURS},
        "met": met,
        "statistic": "median of per-round paired ratios",
        "python": py,
        "numpy": np.__version__,
        "openspiel": pyspiel.__version__,
        "salad": salad.__version__,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
