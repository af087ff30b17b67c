"""Duplicate matches: rotation, determinism across worker counts, the statistics, the CLI."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from salad import Game, SaladError, load_ruleset
from salad.bots import REGISTRY, bot_factory
from salad.bots.seeds import bot_seed
from salad.cli import app
from salad.formats.records import load_records, verify_record
from salad.lab.games import PlayedGame
from salad.lab.match import (
    MatchResult,
    ci95,
    run_match,
    seat_names,
    summarize,
)
from salad.moves import Move
from salad.view import View

CANADIAN = load_ruleset("canadian")


def available(name: str) -> bool:
    try:
        bot_factory(name)
    except SaladError:
        return False
    return True


HAS_BASIC = available("basic")


class FirstBot:
    """Always the first legal move: a deterministic second entrant for in-process matches."""

    name = "first"

    def __init__(self, seed: int | None = None, **options: object) -> None:
        self.seed = seed

    def choose(self, view: View) -> Move:
        return view.legal_moves[0]


@pytest.fixture
def first_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only this process sees it: use with workers=1.
    monkeypatch.setitem(REGISTRY, "first", f"{__name__}:FirstBot")


def stable(result: MatchResult) -> dict[str, Any]:
    """The summary without what depends on the clock or the machine."""
    d = result.to_dict()
    for key in ("elapsed_s", "games_per_s", "workers"):
        del d[key]
    for bot in d["bots"]:
        del bot["decision"]
    return d


# -- statistics on hand-made numbers ------------------------------------------------------------


def test_ci95_by_hand() -> None:
    mean, half = ci95([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    # sd = sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3) = sqrt(5/3); 1.96 * sd / sqrt(4)
    assert half == pytest.approx(1.96 * math.sqrt(5 / 3) / 2)
    assert half == pytest.approx(1.26517, abs=1e-5)
    assert ci95([5.0]) == (5.0, None)
    assert ci95([3.0, 3.0, 3.0]) == (3.0, 0.0)
    with pytest.raises(ValueError):
        ci95([])


def test_summary_by_hand() -> None:
    """Line-up a, b, b at 3 seats, 2 deals: per-deal means, paired differences, seats, wins."""
    lineup = ("a", "b", "b")
    # seat_names: rotation 0 → a b b; rotation 1 → b a b; rotation 2 → b b a.
    assert [seat_names(lineup, r) for r in range(3)] == [
        ("a", "b", "b"),
        ("b", "a", "b"),
        ("b", "b", "a"),
    ]
    totals = {
        (0, 0): (10, 20, 30),  # a 10, b 20 30
        (0, 1): (40, 16, 4),  # a 16, b 40 4
        (0, 2): (6, 50, 4),  # a 4,  b 6 50
        (1, 0): (0, 30, 30),  # a 0,  b 30 30
        (1, 1): (30, 30, 0),  # a 30, b 30 0
        (1, 2): (20, 40, 0),  # a 0,  b 20 40
    }
    # Winners as given (the summary takes them from the game); (1, 1) is a tie between seats.
    winners = {
        (0, 0): (0,),  # a
        (0, 1): (2,),  # b
        (0, 2): (2,),  # a
        (1, 0): (0,),  # a
        (1, 1): (1, 2),  # a and b share it
        (1, 2): (2,),  # a
    }
    played = [
        PlayedGame(d, r, totals[d, r], winners[d, r], ((0.1,), (0.2,), (0.3,)), ((0.0,),) * 3, None)
        for d in range(2)
        for r in range(3)
    ]
    entrants, pairs = summarize(lineup, 3, 2, played)
    a, b = entrants
    # a: deal 0 → (10 + 16 + 4) / 3 = 10; deal 1 → (0 + 30 + 0) / 3 = 10.
    # b: deal 0 → (20 + 30 + 40 + 4 + 6 + 50) / 6 = 25; deal 1 → (30+30+30+0+20+40) / 6 = 25.
    assert a.deal_means == (10.0, 10.0)
    assert b.deal_means == (25.0, 25.0)
    assert (a.mean, a.ci95, b.mean, b.ci95) == (10.0, 0.0, 25.0, 0.0)
    assert (a.seats, a.games, a.seat_games) == (1, 6, 6)
    assert (b.seats, b.games, b.seat_games) == (2, 6, 12)
    # a's seats: seat 0 in rotation 0 (10, 0), seat 1 in rotation 1 (16, 30), seat 2 (4, 0).
    assert a.seat_means == (5.0, 23.0, 2.0)
    assert a.wins == pytest.approx(4.5 / 6)  # per seat-game
    assert b.wins == pytest.approx(1.5 / 12)
    # Every move is timed for the entrant in that seat.
    assert a.timing.moves == 6 and b.timing.moves == 12
    assert b.timing.max == 0.3 and a.timing.median == pytest.approx(0.2)
    (ab,) = [p for p in pairs if (p.a, p.b) == ("a", "b")]
    assert (ab.diff, ab.ci95, ab.ratio) == (-15.0, 0.0, 0.4)
    assert ab.decided


def test_paired_interval_by_hand() -> None:
    """Different per-deal differences: the paired interval comes from their spread."""
    lineup = ("a", "b")
    # Two players, rotation 0: a b; rotation 1: b a.
    totals = {
        (0, 0): (10, 30),
        (0, 1): (20, 20),  # a: (10 + 20) / 2 = 15, b: (30 + 20) / 2 = 25 → diff -10
        (1, 0): (0, 40),
        (1, 1): (40, 0),  # a: (0 + 0) / 2 = 0, b: (40 + 40) / 2 = 40 → diff -40
        (2, 0): (30, 10),
        (2, 1): (20, 20),  # a: (30 + 20) / 2 = 25, b: (10 + 20) / 2 = 15 → diff +10
    }
    played = [
        PlayedGame(d, r, totals[d, r], (0,), ((), ()), ((), ()), None)
        for d in range(3)
        for r in range(2)
    ]
    entrants, pairs = summarize(lineup, 2, 3, played)
    a, b = entrants
    assert a.deal_means == (15.0, 0.0, 25.0)
    assert b.deal_means == (25.0, 40.0, 15.0)
    ab = next(p for p in pairs if (p.a, p.b) == ("a", "b"))
    ba = next(p for p in pairs if (p.a, p.b) == ("b", "a"))
    diffs = [-10.0, -40.0, 10.0]
    assert ab.diff == pytest.approx(-40 / 3)
    assert ab.ci95 == pytest.approx(1.96 * statistics.stdev(diffs) / math.sqrt(3))
    assert ab.ci95 == pytest.approx(28.4781, abs=1e-3)  # sd 25.166
    assert not ab.decided
    assert ba.diff == pytest.approx(40 / 3) and ba.ci95 == ab.ci95
    assert a.ci95 == pytest.approx(1.96 * statistics.stdev([15, 0, 25]) / math.sqrt(3))


def test_bot_seeds_are_the_ones_matches_always_gave() -> None:
    """Records of earlier matches and tournaments name these seeds: they must not change."""
    assert bot_seed("match", 11, 1, 1, 2) == 281848295
    assert bot_seed("match", 0, 0, 0, 0) == 1636098623
    assert bot_seed("match", 7, 3, 2, 1) == 1581056941


# -- whole matches ------------------------------------------------------------------------------


def test_rotation_puts_every_bot_in_every_seat(first_bot: None, tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    lineup = ["first", "random", "random", "first"]
    result = run_match(CANADIAN, 4, lineup, deals=2, seed=11, workers=1, record=path)
    assert len(result.games) == 8
    for d in range(2):
        games = [g for g in result.games if g.deal == d]
        assert [g.rotation for g in games] == [0, 1, 2, 3]
        assert {g.seed for g in games} == {11 + d}
        # Line-up position i sits in seat (i + r) % 4: every position visits every seat once.
        for i, name in enumerate(lineup):
            seats = [(i + g.rotation) % 4 for g in games]
            assert sorted(seats) == [0, 1, 2, 3]
            assert all(g.bots[s] == name for g, s in zip(games, seats, strict=True))
    # The records: same cards (and first dealer) for every rotation of a deal, bots as seated.
    records = load_records(path)
    assert len(records) == 8
    for k, (rec, game) in enumerate(zip(records, result.games, strict=True)):
        assert (game.deal, game.rotation) == divmod(k, 4)
        assert [p["bot"] for p in rec["players"]] == list(game.bots)
        assert rec["seed"] == str(game.seed)
        assert rec["totals"] == list(game.totals)
        assert verify_record(rec) == list(game.totals)
    for d in range(2):
        recs = records[4 * d : 4 * d + 4]
        assert len({json.dumps(r["hands"][0]["deal"]) for r in recs}) == 1
        assert len({r["first_dealer"] for r in recs}) == 1
    # Bot seeds come from (seed, deal, rotation, seat).
    assert records[5]["players"][2]["bot_seed"] == bot_seed("match", 11, 1, 1, 2)
    assert len({p["bot_seed"] for r in records for p in r["players"]}) == 32
    # Both entrants take every seat equally often; means add up from the games.
    first = result.entrant("first")
    assert first.seats == 2 and first.games == 8 and first.seat_games == 16
    by_hand = [0.0, 0.0]
    for g in result.games:
        for t, b in zip(g.totals, g.bots, strict=True):
            if b == "first":
                by_hand[g.deal] += t / 8
    assert first.deal_means == pytest.approx(by_hand)
    assert first.mean == pytest.approx(sum(by_hand) / 2)
    pair = result.pair("first", "random")
    assert pair.diff == pytest.approx(first.mean - result.entrant("random").mean)


@pytest.mark.parametrize(
    "bots", ["random,random,random,random"] + (["basic,random,random,basic"] if HAS_BASIC else [])
)
def test_same_results_whatever_the_workers(bots: str, tmp_path: Path) -> None:
    one = run_match(CANADIAN, 4, bots, deals=3, seed=7, workers=1, record=tmp_path / "1.jsonl")
    two = run_match(CANADIAN, 4, bots, deals=3, seed=7, workers=2, record=tmp_path / "2.jsonl")
    assert one.workers == 1 and two.workers == 2
    assert stable(one) | {"record": None} == stable(two) | {"record": None}
    assert one.games == two.games
    assert (tmp_path / "1.jsonl").read_text() == (tmp_path / "2.jsonl").read_text()
    other = run_match(CANADIAN, 4, bots, deals=3, seed=8, workers=1)
    assert [g.totals for g in other.games] != [g.totals for g in one.games]


def test_every_move_is_timed() -> None:
    result = run_match(CANADIAN, 3, "random,random,random", deals=1, seed=2, workers=1)
    (e,) = result.entrants
    game = Game(CANADIAN, 3, seed=2)
    moves = 0
    while not game.is_over():
        game.play(game.legal_moves()[0])
        moves += 1
    assert e.timing.moves == 3 * moves  # the same number of moves in each of the 3 games
    assert 0 <= e.timing.median <= e.timing.max
    assert 0 <= e.timing.cpu_median <= e.timing.cpu_max


@pytest.mark.skipif(not HAS_BASIC, reason="the basic bot is not written yet")
def test_basic_beats_random() -> None:
    result = run_match(CANADIAN, 4, "basic,random,random,random", deals=4, seed=1)
    assert result.entrant("basic").mean < result.entrant("random").mean


def test_highest_wins_ruleset_and_toppings() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": "all"})
    result = run_match(rs, 4, ["random"] * 4, deals=1, seed=3, workers=1)
    d = result.to_dict()
    assert d["highest_wins"] is True and d["settings"] == {"toppings": "all"}
    assert len(result.games) == 4


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": "random,nonesuch,random,random"}, "unknown bot 'nonesuch'"),
        ({"bots": "random,random"}, "2 bots named for 4 players"),
        ({"bots": "random,random,random,random,random"}, "5 bots named for 4 players"),
        ({"bots": ""}, "name one bot per seat"),
        ({"deals": 0}, "deals: must be at least 1"),
        ({"deals": -3}, "deals: must be at least 1"),
        ({"workers": 0}, "workers: must be at least 1"),
        ({"move_time": 0.0}, "move time: must be a positive"),
        ({"players": 2}, "players: 2 is out of range"),
    ],
)
def test_bad_input(kwargs: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"players": 4, "bots": "random,random,random,random", "deals": 1}
    args |= kwargs
    with pytest.raises(SaladError, match=message):
        run_match(CANADIAN, **args)


# -- the command --------------------------------------------------------------------------------


def test_cli_json_last_line(tmp_path: Path) -> None:
    """The real command in a subprocess, on two worker processes."""
    path = tmp_path / "games.jsonl"
    cmd = [sys.executable, "-m", "salad.cli", "match", "--bots", "random,random,random"]
    cmd += ["-n", "3", "--deals", "2", "--seed", "4", "--record", str(path), "--json", "-w", "2"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("2 deals x 3 rotations = 6 games of Canadian Salad")
    summary = json.loads(lines[-1])
    assert {"rules", "players", "deals", "seed", "games", "bots", "lineup"} <= summary.keys()
    assert (summary["games"], summary["deals"], summary["seed"], summary["workers"]) == (6, 2, 4, 2)
    (bot,) = summary["bots"]
    assert {"name", "mean", "ci95", "games", "decision", "vs"} <= bot.keys()
    assert bot["name"] == "random" and bot["games"] == 6 and bot["seat_games"] == 18
    assert {"moves", "median_ms", "max_ms"} <= bot["decision"].keys()
    assert len(load_records(path)) == 6


def test_cli_pairs_in_json(first_bot: None) -> None:
    result = CliRunner().invoke(
        app,
        ["match", "-b", "first,random,random,random", "-d", "3", "-w", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    out = result.stdout.strip().splitlines()
    assert any(line.startswith("  first - random:") for line in out)
    summary = json.loads(out[-1])
    names = [b["name"] for b in summary["bots"]]
    assert names == ["first", "random"]
    first, rnd = summary["bots"]
    assert set(first["vs"]) == {"random"} and set(rnd["vs"]) == {"first"}
    assert {"diff", "ci95", "ratio", "decided"} <= first["vs"]["random"].keys()
    assert first["vs"]["random"]["diff"] == pytest.approx(first["mean"] - rnd["mean"], abs=1e-3)
    assert first["ci95"] is not None and first["games"] == 12 and rnd["seat_games"] == 36


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,nonesuch,random,random"], "error: bots: unknown bot 'nonesuch'"),
        (["--bots", "random,random,random"], "error: bots: 3 bots named for 4 players"),
        (["--bots", "random,random,random,random", "--deals", "0"], "error: deals: must be"),
        ([], "error: bots: name one bot per seat"),
        (["-b", "random,random,random,random", "--rules", "nope"], "error: "),
        (["-b", "random,random,random,random", "--record", "/nonexistent/dir/x.jsonl"], "error: "),
    ],
)
def test_cli_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["match", *args])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message)


BOT_STRENGTH = Path(__file__).resolve().parent.parent / "benchmarks" / "bot_strength.py"


def bot_strength(*args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """The bot strength benchmark's basic-vs-random comparison on one worker: the process,
    and the JSON summary on its last line."""
    cmd = [sys.executable, str(BOT_STRENGTH), "--only", "a", "--workers", "1", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not HAS_BASIC, reason="the basic bot is not written yet")
def test_bot_strength_benchmark_runs() -> None:
    """The benchmark's cheapest comparison end to end; the last line is its JSON summary."""
    proc, summary = bot_strength("--deals", "3")
    a = summary["comparisons"]["a"]
    assert {"basic_mean", "random_mean", "ratio", "margin_ci95", "passed", "deals"} <= a.keys()
    assert a["deals"] == 3 and a["games"] == 12
    assert summary["all_passed"] == a["passed"] == (proc.returncode == 0)


@pytest.mark.skipif(not HAS_BASIC, reason="the basic bot is not written yet")
def test_bot_strength_benchmark_counts_hands_dealt() -> None:
    """``--hands N``: the whole games that hold at least N hands dealt (six a game here)."""
    proc, summary = bot_strength("--hands", "7")
    a = summary["comparisons"]["a"]
    assert (a["deals"], a["hands_dealt"], a["games"]) == (2, 12, 8)
    assert "(12 hands dealt)" in proc.stdout
    cmd = [sys.executable, str(BOT_STRENGTH), "--hands", "7", "--deals", "2"]
    bad = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--hands" in bad.stderr.strip().splitlines()[-1]
