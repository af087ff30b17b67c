"""Engine speed: random legal play through the public API, ours against OpenSpiel's Hearts.

Both engines are driven by the same kind of loop in the same process: ask for the legal moves,
pick one with ``random.Random.choice`` and play it, until the game ends. Dealing is included on
both sides (ours deals inside the constructor and ``play``; OpenSpiel deals through 52 chance
nodes that the loop resolves with ``chance_outcomes``). Timed rounds alternate between the two
engines so that machine noise hits both, and each side gets the same number of card plays.

Run ``python benchmarks/engine_speed.py`` (about 30 s), ``--quick`` (about 3 s), ``--seconds S``
or ``--games N`` (our games per round; OpenSpiel gets the same number of card plays). The last
line printed is one JSON object with the figures.

What was found about OpenSpiel's Hearts (open_spiel 2.0.2, ``hearts(pass_cards=false)``):

* The first node is a chance node choosing the pass direction. With ``pass_cards=false`` its
  ``legal_actions()`` is just ``[0]`` ("No Pass"), but its ``chance_outcomes()`` still lists all
  four directions at 1/4 each, and applying "Left"/"Across"/"Right" is accepted and starts a
  12-decision passing phase (3 cards each; ``action_to_string`` prints them as cards, so they
  look like plays). So the loop resolves that one node from ``legal_actions()`` (always "No
  Pass"), and every decision node after it is a card play: 52 per game, phase "Play". This is
  checked once before timing (``to_struct().phase``, when available).
* Then 52 chance nodes deal the cards (one each, round the table), then 52 card plays.

Ours (the "canadian" preset, 4 players) has no passing and no trump choice: every ``play`` call
in a full six-hand game is a card play, 6 x 52 = 312 per game, also checked before timing.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

import pyspiel

import salad
from salad import Game, Phase, load_ruleset

OPENSPIEL_GAME = "hearts(pass_cards=false)"
TARGET = 1.0  # ours at least as fast as OpenSpiel
STRETCH = 2.0


# -- the timed loops ------------------------------------------------------------------------------
def run_salad(rs: Any, first_seed: int, games: int, seed: int) -> tuple[float, int]:
    """Play ``games`` full games at random; return (seconds, card plays)."""
    rng = random.Random(seed)
    plays = 0
    t0 = time.perf_counter()
    for i in range(first_seed, first_seed + games):
        g = Game(rs, 4, seed=i)
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))
            plays += 1
    return time.perf_counter() - t0, plays


def run_openspiel(game: Any, games: int, seed: int) -> tuple[float, int]:
    """Play ``games`` OpenSpiel Hearts deals at random; return (seconds, card plays)."""
    rng = random.Random(seed)
    plays = 0
    t0 = time.perf_counter()
    for _ in range(games):
        s = game.new_initial_state()
        # Pass direction: legal_actions() honours pass_cards=false ("No Pass" only);
        # chance_outcomes() here would not (see the module docstring).
        s.apply_action(rng.choice(s.legal_actions()))
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(rng.choice(s.chance_outcomes())[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                plays += 1
    return time.perf_counter() - t0, plays


# -- checks (untimed) -----------------------------------------------------------------------------
def check_salad(rs: Any) -> int:
    """Card plays in one full game; every move must be made in the play phase."""
    rng = random.Random(0)
    g = Game(rs, 4, seed=0)
    plays = 0
    while not g.is_over():
        if g.phase != Phase.PLAY:
            raise SystemExit(f"salad: a {g.phase.name} move, not a card play")
        g.play(rng.choice(g.legal_moves()))
        plays += 1
    if plays != 6 * 52 or g.hand_index != 6:
        raise SystemExit(f"salad: {plays} plays in {g.hand_index} hands, expected 312 in 6")
    return plays


def check_openspiel(game: Any) -> int:
    """Card plays in one deal, walked as run_openspiel does; every decision must be a play."""
    rng = random.Random(0)
    s = game.new_initial_state()
    if not s.is_chance_node() or s.legal_actions() != [0]:
        raise SystemExit("openspiel: expected a pass-direction chance node allowing only No Pass")
    s.apply_action(rng.choice(s.legal_actions()))
    plays = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
            continue
        if hasattr(s, "to_struct") and s.to_struct().phase != "Play":
            raise SystemExit(f"openspiel: a {s.to_struct().phase} decision, not a card play")
        s.apply_action(rng.choice(s.legal_actions()))
        plays += 1
    if plays != 52 or "Passed Cards" in str(s):
        raise SystemExit(f"openspiel: {plays} decisions in a deal, expected 52 card plays")
    return plays


# -- driver ---------------------------------------------------------------------------------------
def calibrate(rs: Any, game: Any, budget: float) -> tuple[float, float]:
    """Warm both engines up; return seconds per card play (ours, OpenSpiel)."""
    s_time = s_plays = o_time = o_plays = 0.0
    n = 1
    while s_time + o_time < budget:
        dt, p = run_salad(rs, 10**6, n, 1)
        s_time, s_plays = s_time + dt, s_plays + p
        dt, p = run_openspiel(game, 6 * n, 1)
        o_time, o_plays = o_time + dt, o_plays + p
        n *= 2
    return s_time / s_plays, o_time / o_plays


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=30.0, help="rough total run time")
    ap.add_argument("--games", type=int, help="our games per round (overrides --seconds)")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds per engine")
    ap.add_argument("--quick", action="store_true", help="a ~3 s run (3 rounds)")
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds = 2.5, 3
    rounds = max(1, args.rounds)

    rs = load_ruleset("canadian")
    game = pyspiel.load_game(OPENSPIEL_GAME)
    salad_per_game = check_salad(rs)
    os_per_game = check_openspiel(game)
    per = salad_per_game // os_per_game  # OpenSpiel deals per game of ours, for equal plays

    # Always warm both engines up (caches, branch predictors, CPU clocks) before timing.
    warm = 0.2 if args.games else min(1.0, 0.1 * args.seconds)
    s_play, o_play = calibrate(rs, game, warm)
    if args.games:
        games = max(1, args.games)
    else:
        per_round = (args.seconds - warm) / rounds
        games = max(1, round(per_round / (salad_per_game * (s_play + o_play))))
    os_games = games * per

    py = platform.python_version()
    print(f"python {py} ({platform.python_implementation()}), {platform.machine()}")
    print(f"salad {salad.__version__}: canadian, 4 players, 6 hands, {salad_per_game} plays/game")
    print(f"openspiel {pyspiel.__version__}: {OPENSPIEL_GAME}, {os_per_game} plays/deal")
    print(f"{rounds} alternating rounds: {games} games of ours vs {os_games} OpenSpiel deals each")

    salad_rates: list[float] = []
    os_rates: list[float] = []
    game_ms: list[float] = []
    for r in range(rounds):
        seed = 1000 + r
        gc.collect()
        dt_s, p_s = run_salad(rs, r * games, games, seed)
        gc.collect()
        dt_o, p_o = run_openspiel(game, os_games, seed)
        if p_s != games * salad_per_game or p_o != os_games * os_per_game:
            raise SystemExit(f"round {r + 1}: unexpected play counts {p_s}, {p_o}")
        salad_rates.append(p_s / dt_s)
        os_rates.append(p_o / dt_o)
        game_ms.append(1000 * dt_s / games)
        print(
            f"  round {r + 1}: salad {p_s / dt_s:>10,.0f} plays/s ({dt_s:.2f} s)   "
            f"openspiel {p_o / dt_o:>10,.0f} plays/s ({dt_o:.2f} s)"
        )

    s_rate = statistics.median(salad_rates)
    o_rate = statistics.median(os_rates)
    # Each round times both engines back to back, so the per-round ratio cancels most of the
    # machine's drift; the headline is the median of those paired ratios.
    round_ratios = [a / b for a, b in zip(salad_rates, os_rates, strict=True)]
    ratio = statistics.median(round_ratios)
    g_ms = statistics.median(game_ms)
    best_ratio = max(salad_rates) / max(os_rates)
    met = ratio >= TARGET
    stretch = ratio >= STRETCH

    print(f"salad      {s_rate:>10,.0f} card plays/s (median; best {max(salad_rates):,.0f})")
    print(f"openspiel  {o_rate:>10,.0f} card plays/s (median; best {max(os_rates):,.0f})")
    print(
        f"ratio      {ratio:.2f}x (median of paired rounds: "
        f"{', '.join(f'{r:.2f}' for r in round_ratios)}; best vs best {best_ratio:.2f}x)"
    )
    print(f"full game  {g_ms:.3f} ms per 4-player six-hand canadian game, dealing included")
    print(
        f"target     >= {TARGET:.1f}x: {'met' if met else 'NOT met'}; "
        f"stretch {STRETCH:.0f}x: {'met' if stretch else 'not met'}"
    )
    result = {
        "salad_plays_per_s": round(s_rate),
        "openspiel_plays_per_s": round(o_rate),
        "ratio_vs_openspiel": round(ratio, 3),
        "game_ms": round(g_ms, 4),
        "games": games * rounds,
        "openspiel_games": os_games * rounds,
        "rounds": rounds,
        "statistic": "median of per-round paired ratios",
        "round_ratios": [round(r, 3) for r in round_ratios],
        "best_ratio": round(best_ratio, 3),
        "target": TARGET,
        "target_met": met,
        "stretch": STRETCH,
        "stretch_met": stretch,
        "python": py,
        "openspiel": pyspiel.__version__,
        "openspiel_game": OPENSPIEL_GAME,
        "salad": salad.__version__,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
