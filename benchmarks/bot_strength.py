"""Bot strength: duplicate matches between the bots, with the targets of issue 18.

Every comparison is a duplicate match (:func:`salad.lab.match.run_match`): deal ``d`` is the game
with seed ``seed + d``, played once per seat with the line-up rotated through the seats, so every
bot plays every seat on the same cards. Points are bad (the lowest total wins), so a lower mean
is better and a ratio below 1 means the first bot is stronger.

Each comparison runs on three variants: 4-player Canadian Salad (keys ``a``...; the targets),
6-player Canadian Salad (``6p-b``...) and 4-player Skip the Salad with all toppings
(``skip-b``...), the last two reported without targets. In Skip the Salad with all toppings the
highest total wins, so there a ratio above 1 is the better bot's (the gap closed is the same
formula either way).

* (a) basic vs three random: basic mean / random mean, target <= 0.60 (4-player only).
* (b) expert vs three basic, the expert at its default budget: ratio, target <= 0.45.
* (e) advanced vs three basic at its default budget: ratio, target <= 0.55.
* (c) expert vs three openspiel-ismcts, both given the same ``--move-time`` per move: the
  expert's mean is lower and the 95% interval of the paired per-deal difference excludes zero.
* (o) oracle vs three basic: the clairvoyant reference (it searches the true deal). With (b) it
  gives how much of the gap between basic and the oracle the expert closes:
  ``(1 - ratio_b) / (1 - ratio_o)``, in percent.
* (n) expert without inference (``inference=false``) vs three basic, on the same deals as (b):
  the gain of inference is the paired per-deal difference of the expert's points, (b) - (n).
* (d) decision time per move (4-player): the expert at its default budget, timed on the (b)
  games (wall clock, what a player waits for): median <= 0.7 s and max <= 2.5 s; advanced on
  the (e) games: median <= 0.25 s; basic: median and max <= 5 ms, timed in this process after
  the matches over 100 games (basic in two seats, random in two); a move over 1 ms is timed
  five more times on the same view and its fastest time kept, because at this scale one
  preemption by another process decides a maximum.

A ratio target passes on the point estimate; the interval of the per-deal margin
``first - target * second`` (95%) tells whether the deals were enough to decide it.

Before playing, one hand of each match is played in this process to time the bots, and the
deals are planned to fit ``--minutes`` (default 40) on the worker processes (default: every
core); the plan and its estimated run time are printed. ``--deals N`` fixes the deals of every
comparison instead (``--deals 2`` is a short run). A "deal" of the match is one game, one seed:
all of its hands, each dealt once and played in every seat rotation. ``--hands N`` asks for at
least N hands dealt per comparison instead, in whole games: issue 18's "at least 64 deals with
every seat rotation", a deal in the rules' sense (one hand dealt), is ``--hands 64``, which is
11 games of six hands each (66 hands dealt);
``--quick`` is a smoke run of a few minutes (few deals: figures are rough). ``--only b,n``
runs some comparisons, ``--variants canadian4`` some variants. A comparison whose bot is
missing is reported as failed with the reason. The last line printed is one JSON object with
all figures and pass/fail per target; the exit status is 0 only when every selected target
passed.

What a full run costs (measured 2026-12-03 on this project's 2-core machine, 2 workers, with
``--hands 64``): the searching bots think for a wall-clock budget a move, so a game costs about
the same on any machine. 4-player Canadian Salad took 32 min: (b) 10.9, (n) 8.1, (c) at 0.1 s
8.6, (e) 4.2, (o) and (a) seconds. 6-player Canadian Salad with (b), (e), (c), (o): 20 min;
Skip the Salad with all toppings: about 36 min. On a loaded machine the expert gets less CPU in
its budget, so it plays weaker than on an idle one.

Run ``make bench-bots ARGS="--hands 64"`` (``make bench-bots ARGS="--deals 2 --variants
canadian4"`` for a short run) or ``python benchmarks/bot_strength.py [--quick] [--only a,b]
[--deals N | --hands N]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import salad
from salad import Game, SaladError, load_ruleset
from salad.bots import bot_factory, make_bot
from salad.lab.match import MatchResult, Timing, ci95, run_match
from salad.ruleset import Ruleset


@dataclass(frozen=True)
class Variant:
    key: str
    prefix: str
    """Put before a comparison's letter in its key (none for the variant with targets)."""
    rules: str
    settings: dict[str, str] | None
    players: int
    targets: bool

    @property
    def title(self) -> str:
        extra = " with all toppings" if self.settings else ""
        return f"{self.players}-player {self.rules}{extra}"

    def ruleset(self) -> Ruleset:
        return load_ruleset(self.rules, self.settings)


VARIANTS = [
    Variant("canadian4", "", "canadian", None, 4, True),
    Variant("canadian6", "6p-", "canadian", None, 6, False),
    Variant("skip-all", "skip-", "skip-the-salad", {"toppings": "all"}, 4, False),
]
LETTERS = "abecond"

RATIO_A = 0.60  # basic / random
RATIO_B = 0.45  # expert / basic
RATIO_E = 0.55  # advanced / basic
EXPERT_MEDIAN_S = 0.7
EXPERT_MAX_S = 2.5
ADVANCED_MEDIAN_S = 0.25
BASIC_MAX_S = 0.005

DEFAULT_MINUTES = 40.0
DEFAULT_MOVE_TIME = 0.1  # (c): seconds per move for both sides
QUICK_MINUTES = 4.0
QUICK_MOVE_TIME = 0.05

DEALS_A = 400  # cheap: this many unless the budget is tiny
MIN_DEALS = 10  # the searching comparisons get at least this many (quick: 1) ...
MAX_DEALS = 400  # ... and at most this many
DEALS_D = 1  # (d) alone (without (b)): one deal, four games, to time the expert
QUIET_GAMES = 100  # (d): basic timed in this process over this many games
RETIME_OVER = 0.001  # a basic move slower than this is timed again ...
RETIMES = 5  # ... this many times, keeping the fastest


@dataclass
class Comparison:
    letter: str
    title: str
    lineup: list[str]
    variant: Variant = VARIANTS[0]
    move_time: float | None = None
    options: dict[str, Any] = field(default_factory=dict)
    deals: int = 0
    game_s: float = 0.0
    """Estimated seconds per game (one process)."""
    error: str | None = None
    result: MatchResult | None = None
    figures: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return self.variant.prefix + self.letter

    @property
    def label(self) -> str:
        return f"({self.key}) {self.title}"


def comparisons(variant: Variant, only: list[str], move_time: float) -> list[Comparison]:
    """The comparisons of ``only`` that ``variant`` has."""
    n = variant.players
    basics = ["basic"] * (n - 1)
    table = {
        "a": ("basic vs random", ["basic"] + ["random"] * (n - 1), None, {}),
        "b": ("expert vs basic", ["expert", *basics], None, {}),
        "e": ("advanced vs basic", ["advanced", *basics], None, {}),
        "c": (
            f"expert vs openspiel-ismcts at {move_time:g} s per move",
            ["expert"] + ["openspiel-ismcts"] * (n - 1),
            move_time,
            {},
        ),
        "o": ("oracle vs basic", ["oracle", *basics], None, {}),
        "n": ("expert without inference vs basic", ["expert", *basics], None, {"inference": False}),
    }
    out = []
    for letter in LETTERS:
        if letter not in only or letter not in table:
            continue
        if letter == "a" and not variant.targets:
            continue
        title, lineup, mt, options = table[letter]
        out.append(Comparison(letter, f"{title} ({variant.title})", lineup, variant, mt, options))
    if "d" in only and "b" not in only and variant.targets:
        out.append(Comparison("d", "decision times: expert vs basic", ["expert", *basics], variant))
    return out


# -- planning -------------------------------------------------------------------------------------


def missing_bots(names: list[str]) -> str | None:
    """Why some bot of ``names`` cannot be built here, or None."""
    problems = []
    for name in dict.fromkeys(names):
        try:
            bot_factory(name)
        except SaladError as exc:
            problems.append(str(exc).removeprefix("bots: "))
    return "; ".join(problems) or None


def probe(comp: Comparison, seed: int) -> float:
    """Seconds per game of ``comp``'s line-up: one hand or more, played in this process."""
    rs = comp.variant.ruleset()
    n = comp.variant.players
    opts = dict(comp.options)
    if comp.move_time is not None:
        opts["move_time"] = comp.move_time
    t0 = time.perf_counter()
    bots = [make_bot(name, seed * 10 + s, **opts) for s, name in enumerate(comp.lineup)]
    build = time.perf_counter() - t0
    game = Game(rs, n, seed=seed)
    for bot in bots:
        if getattr(bot, "needs_deal", False):
            bot.see_deal(game)  # type: ignore[attr-defined]
    hands = len(rs.compiled(n).hands)
    t0 = time.perf_counter()
    while not game.is_over():
        game.play(bots[game.to_move].choose(game.view(game.to_move)))
        if game.hand_points and time.perf_counter() - t0 > 3.0:
            break
    played = max(1, len(game.hand_points))
    return build + (time.perf_counter() - t0) / played * hands


def hands_per_game(variant: Variant) -> int:
    """How many hands a game of ``variant`` deals: each played in every seat rotation."""
    return len(variant.ruleset().compiled(variant.players).hands)


def deal_seconds(comp: Comparison, workers: int) -> float:
    """Wall seconds per deal: its games (one per seat) shared among the workers."""
    n = comp.variant.players
    return max(comp.game_s, 1e-6) * n / min(workers, n)


def plan(
    comps: list[Comparison], minutes: float, workers: int, deals: int | None, quick: bool
) -> None:
    """Set each comparison's deals: ``deals`` if given, else what fits in ``minutes``."""
    runnable = [c for c in comps if c.error is None]
    if deals is not None:
        for c in runnable:
            c.deals = deals
        return
    budget = minutes * 60
    lo = 1 if quick else MIN_DEALS
    for c in runnable:
        if c.letter == "a":
            c.deals = max(
                lo, min(20 if quick else DEALS_A, int(0.15 * budget / deal_seconds(c, workers)))
            )
            budget -= c.deals * deal_seconds(c, workers)
        elif c.letter == "d":
            c.deals = DEALS_D
            budget -= c.deals * deal_seconds(c, workers)
    rest = sorted((c for c in runnable if c.letter in "bceon"), key=lambda c: c.game_s)
    for i, c in enumerate(rest):
        share = max(0.0, budget) / (len(rest) - i)
        c.deals = max(lo, min(MAX_DEALS, int(share / deal_seconds(c, workers))))
        budget -= c.deals * deal_seconds(c, workers)
    # (b) and (n) are compared deal by deal: the same deals for both.
    for v in {c.variant.key for c in runnable}:
        pair = [c for c in runnable if c.variant.key == v and c.letter in "bn"]
        if len(pair) == 2:
            both = min(c.deals for c in pair)
            for c in pair:
                c.deals = both


# -- figures --------------------------------------------------------------------------------------


def ratio_figures(result: MatchResult, first: str, second: str, target: float) -> dict[str, Any]:
    a, b = result.entrant(first), result.entrant(second)
    pair = result.pair(first, second)
    margins = [x - target * y for x, y in zip(a.deal_means, b.deal_means, strict=True)]
    margin, half = ci95(margins)
    ratio = a.mean / b.mean if b.mean else math.inf
    passed = ratio <= target
    if half is not None and margin + half < 0:
        verdict = "met, decided at 95%"
    elif half is not None and margin - half > 0:
        verdict = "NOT met, decided at 95%"
    else:
        verdict = ("met" if passed else "NOT met") + ", not decided at 95% (more deals needed)"
    return {
        f"{first}_mean": r4(a.mean),
        f"{first}_ci95": r4(a.ci95),
        f"{second}_mean": r4(b.mean),
        f"{second}_ci95": r4(b.ci95),
        "diff": r4(pair.diff),
        "diff_ci95": r4(pair.ci95),
        "ratio": r4(ratio),
        "target": f"ratio <= {target}",
        "margin": r4(margin),
        "margin_ci95": r4(half),
        "decided": half is not None and abs(margin) > half,
        "verdict": verdict,
        "passed": passed,
    }


def versus_figures(
    result: MatchResult, first: str, second: str, higher_wins: bool = False
) -> dict[str, Any]:
    """``first`` better than ``second``: fewer points (more where the highest total wins)."""
    a, b = result.entrant(first), result.entrant(second)
    pair = result.pair(first, second)
    lower = pair.diff < 0
    passed = (lower != higher_wins) and pair.decided
    if passed:
        verdict = "met: lower, and the interval excludes zero"
    elif pair.decided:
        verdict = "NOT met: higher, and the interval excludes zero"
    else:
        verdict = "NOT met: the interval includes zero (" + ("lower" if lower else "higher") + ")"
    return {
        f"{first}_mean": r4(a.mean),
        f"{first}_ci95": r4(a.ci95),
        f"{second}_mean": r4(b.mean),
        f"{second}_ci95": r4(b.ci95),
        "diff": r4(pair.diff),
        "diff_ci95": r4(pair.ci95),
        "ratio": r4(pair.ratio),
        "target": f"{first} lower, 95% interval of the paired difference excluding zero",
        "decided": pair.decided,
        "verdict": verdict,
        "passed": passed,
    }


def gap_figures(b: Comparison, o: Comparison) -> dict[str, Any]:
    """How much of the gap between basic and the oracle the expert closes, in percent."""
    rb, ro = b.figures.get("ratio"), o.figures.get("ratio")
    out: dict[str, Any] = {"expert_ratio": rb, "oracle_ratio": ro, "passed": None}
    if rb is None or ro is None or ro == 1:
        out["error"] = "needs (b) and (o), the oracle apart from basic"
        return out
    out["closed_percent"] = round(100 * (1 - rb) / (1 - ro), 1)
    out["verdict"] = f"the expert closes {out['closed_percent']:g}% of the basic-to-oracle gap"
    return out


def inference_figures(b: MatchResult, n: MatchResult) -> dict[str, Any]:
    """The expert's points with inference minus without, deal by deal (the same deals)."""
    with_, without = b.entrant("expert"), n.entrant("expert")
    deals = min(len(with_.deal_means), len(without.deal_means))
    diffs = [
        x - y for x, y in zip(with_.deal_means[:deals], without.deal_means[:deals], strict=True)
    ]
    diff, half = ci95(diffs)
    basic_b, basic_n = b.entrant("basic").mean, n.entrant("basic").mean
    decided = half is not None and abs(diff) > half
    return {
        "with_mean": r4(with_.mean),
        "without_mean": r4(without.mean),
        "with_ratio": r4(with_.mean / basic_b if basic_b else None),
        "without_ratio": r4(without.mean / basic_n if basic_n else None),
        "diff": r4(diff),
        "diff_ci95": r4(half),
        "deals": deals,
        "decided": decided,
        "verdict": (
            f"inference changes the expert's points by {diff:+.1f} a deal"
            + (f" (95% interval +-{half:.1f}" if half is not None else " (")
            + (", decided)" if decided else ", not decided)")
        ),
        "passed": None,
    }


def timing_dict(t: Timing) -> dict[str, Any]:
    return {
        "moves": t.moves,
        "median_s": r6(t.median),
        "max_s": r6(t.max),
        "mean_s": r6(t.mean),
        "cpu_median_s": r6(t.cpu_median),
        "cpu_max_s": r6(t.cpu_max),
    }


@dataclass
class QuietTiming:
    moves: int
    median: float
    max: float
    raw_max: float
    """The slowest move before timing it again."""
    retimed: int


def basic_quiet_timing(rs: Ruleset, games: int, seed: int) -> QuietTiming:
    """basic's moves timed in this process, with no match running.

    basic sits in two seats against two random bots; every basic move is timed, and a move over
    ``RETIME_OVER`` is timed ``RETIMES`` more times on the same view (basic keeps no state between
    moves), keeping the fastest: what the bot needs, not what the machine's load added.
    """
    times: list[float] = []
    raw_max = 0.0
    retimed = 0
    clock = time.perf_counter
    for i in range(games):
        names = ["basic" if s in (i % 4, (i + 2) % 4) else "random" for s in range(4)]
        bots = [make_bot(name, seed + 10 * i + s) for s, name in enumerate(names)]
        game = Game(rs, 4, seed=seed + i)
        while not game.is_over():
            seat = game.to_move
            view = game.view(seat)
            if names[seat] != "basic":
                game.play(bots[seat].choose(view))
                continue
            t0 = clock()
            move = bots[seat].choose(view)
            dt = clock() - t0
            raw_max = max(raw_max, dt)
            if dt > RETIME_OVER:
                retimed += 1
                for _ in range(RETIMES):
                    t0 = clock()
                    bots[seat].choose(view)
                    dt = min(dt, clock() - t0)
            times.append(dt)
            game.play(move)
    return QuietTiming(len(times), statistics.median(times), max(times), raw_max, retimed)


def timing_figures(
    expert: Timing | None,
    basic: QuietTiming | None,
    in_matches: list[Timing],
    advanced: Timing | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    passed = True
    if advanced is not None and advanced.moves:
        ok = advanced.median <= ADVANCED_MEDIAN_S
        out["advanced"] = timing_dict(advanced) | {
            "target": f"median <= {ADVANCED_MEDIAN_S} s (wall clock)",
            "median_passed": ok,
        }
        passed &= ok
    if expert is None or expert.moves == 0:
        out["expert"] = None
        passed = False
    else:
        ok_med = expert.median <= EXPERT_MEDIAN_S
        ok_max = expert.max <= EXPERT_MAX_S
        out["expert"] = timing_dict(expert) | {
            "target": f"median <= {EXPERT_MEDIAN_S} s, max <= {EXPERT_MAX_S} s (wall clock)",
            "median_passed": ok_med,
            "max_passed": ok_max,
        }
        passed &= ok_med and ok_max
    if basic is None:
        out["basic"] = None
        passed = False
    else:
        ok_med = basic.median <= BASIC_MAX_S
        ok_max = basic.max <= BASIC_MAX_S
        out["basic"] = {
            "moves": basic.moves,
            "median_s": r6(basic.median),
            "max_s": r6(basic.max),
            "raw_max_s": r6(basic.raw_max),
            "retimed": basic.retimed,
            "target": f"median and max <= {BASIC_MAX_S * 1000:g} ms per move",
            "median_passed": ok_med,
            "max_passed": ok_max,
        }
        passed &= ok_med and ok_max
    timed = [t for t in in_matches if t.moves]
    if timed:
        # The same bot under the matches' load, for information: wall and CPU time.
        most = max(timed, key=lambda t: t.moves)
        out["basic_in_matches"] = {
            "moves": sum(t.moves for t in timed),
            "median_s": r6(most.median),
            "max_s": r6(max(t.max for t in timed)),
            "cpu_max_s": r6(max(t.cpu_max for t in timed)),
        }
    out["passed"] = passed
    return out


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def r4(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, 4)


def r6(x: float) -> float:
    return round(x, 6)


def seconds(s: float) -> str:
    if s >= 3600:
        return f"{s / 3600:.1f} h"
    if s >= 90:
        return f"{s / 60:.1f} min"
    return f"{s:.1f} s" if s >= 1 else f"{s * 1000:.0f} ms"


def ms(s: float) -> str:
    return f"{s:.2f} s" if s >= 1 else f"{s * 1000:.2f} ms"


# -- driver ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--deals", type=int, help="deals per comparison (default: planned)")
    ap.add_argument(
        "--hands",
        type=int,
        help="at least this many hands dealt per comparison: the games that hold them",
    )
    ap.add_argument(
        "--move-time",
        type=float,
        help=f"seconds per move for both sides in (c) (default {DEFAULT_MOVE_TIME}, "
        f"quick {QUICK_MOVE_TIME})",
    )
    ap.add_argument("--quick", action="store_true", help="a smoke run of a few minutes")
    ap.add_argument(
        "--only", default=",".join(LETTERS), help="comparisons to run, e.g. b,n (of a,b,e,c,o,n,d)"
    )
    ap.add_argument(
        "--variants",
        default=",".join(v.key for v in VARIANTS),
        help="variants to run, e.g. canadian4 (of " + ", ".join(v.key for v in VARIANTS) + ")",
    )
    ap.add_argument("--minutes", type=float, help=f"time to plan for (default {DEFAULT_MINUTES})")
    ap.add_argument("--workers", type=int, help="worker processes (default: every core)")
    ap.add_argument("--seed", type=int, default=1, help="deal d is the game with seed S+d")
    args = ap.parse_args(argv)
    only = [k.strip().lower() for k in args.only.split(",") if k.strip()]
    if not only or any(k not in LETTERS for k in only):
        ap.error(f"--only: choose among {', '.join(LETTERS)}, not {args.only!r}")
    names = [k.strip().lower() for k in args.variants.split(",") if k.strip()]
    by_key = {v.key: v for v in VARIANTS}
    if not names or any(k not in by_key for k in names):
        ap.error(f"--variants: choose among {', '.join(by_key)}, not {args.variants!r}")
    if args.deals is not None and args.deals < 1:
        ap.error("--deals must be at least 1")
    if args.hands is not None and (args.hands < 1 or args.deals is not None):
        ap.error("--hands must be at least 1, and not given with --deals")
    if args.move_time is not None and not args.move_time > 0:
        ap.error("--move-time must be positive")
    if args.workers is not None and args.workers < 1:
        ap.error("--workers must be at least 1")
    workers = args.workers or os.cpu_count() or 1
    move_time = args.move_time or (QUICK_MOVE_TIME if args.quick else DEFAULT_MOVE_TIME)
    minutes = args.minutes or (QUICK_MINUTES if args.quick else DEFAULT_MINUTES)
    variants = [by_key[k] for k in names]
    comps = [c for v in variants for c in comparisons(v, only, move_time)]

    py = platform.python_version()
    print(f"python {py}, {platform.machine()}, {os.cpu_count()} cores, {workers} workers")
    print(
        f"salad {salad.__version__}: "
        + "; ".join(v.title for v in variants)
        + f"; duplicate deals from seed {args.seed}"
    )
    for c in comps:
        c.error = missing_bots(c.lineup)
        if c.error is None:
            try:
                c.game_s = probe(c, args.seed + 10**6)
            except Exception as exc:  # a broken bot fails its comparison, not the benchmark
                c.error = f"{type(exc).__name__}: {exc}"
        if c.error is not None:
            print(f"{c.label}: cannot run: {c.error}")
    fixed = args.deals or args.hands
    plan(comps, minutes, workers, args.deals, args.quick)
    if args.hands is not None:
        for c in comps:
            if c.letter != "d":
                c.deals = math.ceil(args.hands / hands_per_game(c.variant))
    total = 0.0
    print(f"plan ({'deals fixed' if fixed else f'about {minutes:g} min'}):")
    for c in comps:
        if c.error is None:
            est = c.deals * deal_seconds(c, workers)
            total += est
            dealt = c.deals * hands_per_game(c.variant)
            print(
                f"  {c.label}: ~{seconds(c.game_s)} per game -> {plural(c.deals, 'deal')} "
                f"({dealt} hands dealt; {c.deals * c.variant.players} games), ~{seconds(est)}"
            )
    print(f"estimated run time: ~{seconds(total)}")

    start = time.perf_counter()
    for c in comps:
        if c.error is not None:
            continue
        try:
            c.result = run_match(
                c.variant.ruleset(),
                c.variant.players,
                c.lineup,
                c.deals,
                args.seed,
                move_time=c.move_time,
                workers=workers,
                progress=True,
                label=c.label,
                bot_options=c.options,
            )
        except Exception as exc:
            c.error = f"{type(exc).__name__}: {exc}"
            print(f"{c.label}: failed: {c.error}")
            continue
        res = c.result
        goal = c.variant.targets
        higher = res.ruleset.highest_wins
        if higher:
            print(f"  {c.variant.title}: the highest total wins, so a ratio above 1 is better")
        if c.letter == "a":
            c.figures = ratio_figures(res, "basic", "random", RATIO_A)
        elif c.letter in "bno":
            c.figures = ratio_figures(res, c.lineup[0], "basic", RATIO_B)
            if c.letter != "b" or not goal:
                c.figures |= {"target": None, "passed": None, "verdict": None}
        elif c.letter == "e":
            c.figures = ratio_figures(res, "advanced", "basic", RATIO_E)
            if not goal:
                c.figures |= {"target": None, "passed": None, "verdict": None}
        elif c.letter == "c":
            c.figures = versus_figures(res, "expert", "openspiel-ismcts", higher)
            if not goal:
                c.figures |= {"target": None, "passed": None}
        c.figures |= {
            "deals": res.deals,
            "hands_dealt": res.deals * hands_per_game(c.variant),
            "games": len(res.games),
            "elapsed_s": round(res.elapsed, 1),
        }
        print(
            f"{c.label}: {plural(res.deals, 'deal')} "
            f"({res.deals * hands_per_game(c.variant)} hands dealt), {len(res.games)} games "
            f"in {seconds(res.elapsed)}"
        )
        for line in res.lines()[1:-1]:
            print(f"  {line}")
        if c.figures.get("ratio") is not None:
            print(f"  ratio {c.figures['ratio']:g}")
        if c.figures.get("verdict"):
            target = c.figures.get("target")
            said = f"target {target}" if target else "reported (no target)"
            print(f"  {said}: {c.figures['verdict']}")

    figures: dict[str, Any] = {}
    for c in comps:
        if c.letter == "d":
            continue
        figures[c.key] = (
            {"passed": False, "error": c.error} if c.error is not None else c.figures
        ) | {"title": c.title}

    for v in variants:
        got = {c.letter: c for c in comps if c.variant is v and c.result is not None}
        if "b" in got and "o" in got:
            g = gap_figures(got["b"], got["o"]) | {"title": f"gap closed ({v.title})"}
            figures[v.prefix + "gap"] = g
            print(f"({v.prefix}gap) {g['title']}: {g.get('verdict') or g.get('error')}")
        if "b" in got and "n" in got:
            b_res, n_res = got["b"].result, got["n"].result
            assert b_res is not None and n_res is not None
            i = inference_figures(b_res, n_res) | {"title": f"inference gain ({v.title})"}
            figures[v.prefix + "inference"] = i
            print(f"({v.prefix}inference) {i['title']}: {i['verdict']}")

    if "d" in only and variants[0].targets:
        rs = variants[0].ruleset()
        timed = [c for c in comps if c.letter in "bd" and c.variant.targets and c.result]
        expert = timed[0].result.entrant("expert").timing if timed and timed[0].result else None
        adv = [c for c in comps if c.letter == "e" and c.variant.targets and c.result]
        advanced = adv[0].result.entrant("advanced").timing if adv and adv[0].result else None
        in_matches = [
            c.result.entrant("basic").timing
            for c in comps
            if c.letter in "abd" and c.variant.targets and c.result is not None
        ]
        basic_error = missing_bots(["basic", "random"])
        quiet = None
        if basic_error is None:
            quiet = basic_quiet_timing(rs, 20 if args.quick else QUIET_GAMES, args.seed + 10**7)
        d = timing_figures(expert, quiet, in_matches, advanced)
        source = [c for c in comps if c.letter in "bd" and c.variant.targets]
        errors = [source[0].error] if expert is None and source and source[0].error else []
        errors += [basic_error] if basic_error else []
        if errors:
            d["error"] = "; ".join(e for e in errors if e)
        d["title"] = "decision time per move (expert and advanced at their default budgets, basic)"
        figures["d"] = d
        print("(d) decision time per move:")
        if d["expert"]:
            e = d["expert"]
            print(
                f"  expert: median {ms(e['median_s'])}, max {ms(e['max_s'])} over {e['moves']} "
                f"moves (cpu median {ms(e['cpu_median_s'])}, max {ms(e['cpu_max_s'])}); "
                f"target {e['target']}: "
                + ("met" if e["median_passed"] and e["max_passed"] else "NOT met")
            )
        else:
            print(f"  expert: not timed ({d.get('error', 'no expert games')})")
        if d.get("advanced"):
            e = d["advanced"]
            print(
                f"  advanced: median {ms(e['median_s'])}, max {ms(e['max_s'])} over "
                f"{e['moves']} moves; target {e['target']}: "
                + ("met" if e["median_passed"] else "NOT met")
            )
        if d["basic"]:
            b = d["basic"]
            print(
                f"  basic: median {ms(b['median_s'])}, max {ms(b['max_s'])} over {b['moves']} "
                f"moves in this process ({b['retimed']} moves over {ms(RETIME_OVER)} timed again, "
                f"slowest first try {ms(b['raw_max_s'])}); target {b['target']}: "
                + ("met" if b["median_passed"] and b["max_passed"] else "NOT met")
            )
        else:
            print(f"  basic: not timed ({basic_error})")
        if "basic_in_matches" in d:
            b = d["basic_in_matches"]
            print(
                f"  basic in the matches (for information): median {ms(b['median_s'])}, "
                f"max {ms(b['max_s'])} wall, {ms(b['cpu_max_s'])} cpu, over {b['moves']} moves"
            )

    elapsed = time.perf_counter() - start
    judged = {k: f for k, f in figures.items() if f.get("passed") is not None}
    all_passed = all(f.get("passed") for f in judged.values())
    print(f"run time {seconds(elapsed)} (estimated {seconds(total)})")
    for key, f in figures.items():
        why = f" ({f['error']})" if f.get("error") else ""
        state = "reported" if f.get("passed") is None else "pass" if f["passed"] else "FAIL"
        print(f"  ({key}) {f['title']}: {state}{why}")
    summary = {
        "benchmark": "bot_strength",
        "variants": [v.key for v in variants],
        "seed": args.seed,
        "workers": workers,
        "move_time_c": move_time,
        "planned_minutes": None if fixed else minutes,
        "estimated_s": round(total, 1),
        "elapsed_s": round(elapsed, 1),
        "quick": args.quick,
        "comparisons": figures,
        "all_passed": all_passed,
        "python": py,
        "salad": salad.__version__,
    }
    print(json.dumps(summary))
    return 0 if all_passed else 1


if __name__ == "__main__":
    sys.exit(main())
