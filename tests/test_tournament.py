"""Tournaments: the balanced schedule, ratings, the files, resuming, both backends, the CLI."""

from __future__ import annotations

import csv
import importlib.util
import io
import itertools
import json
import math
import os
import signal
import struct
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from salad import load_ruleset
from salad.cli import app
from salad.errors import SaladError
from salad.formats.records import load_records, verify_record
from salad.lab.pool import run_pool, worker_pool
from salad.lab.tournament import (
    GAMES_FILE,
    LEADERBOARD_FILE,
    POINTS_PNG,
    RATINGS_PNG,
    RECORDS_FILE,
    ROUNDS_PNG,
    SETTINGS_FILE,
    GameResult,
    Interrupted,
    Seating,
    TournamentResult,
    parse_entrants,
    rate_games,
    run_tournament,
    schedule,
)

CANADIAN = load_ruleset("canadian")
OUTPUTS = (LEADERBOARD_FILE, GAMES_FILE, RECORDS_FILE)


def seat_counts(plan: list[Seating], entrants: int, players: int) -> list[list[int]]:
    counts = [[0] * players for _ in range(entrants)]
    for s in plan:
        for seat, e in enumerate(s.seats):
            counts[e][seat] += 1
    return counts


def meetings(plan: list[Seating]) -> Counter[tuple[int, int]]:
    met: Counter[tuple[int, int]] = Counter()
    for s in plan:
        for a, b in itertools.combinations(sorted(s.seats), 2):
            met[a, b] += 1
    return met


# -- the schedule -------------------------------------------------------------------------------


@pytest.mark.parametrize(("entrants", "players"), [(4, 4), (5, 4), (6, 4), (6, 3), (7, 3), (8, 4)])
def test_full_cycle_is_balanced(entrants: int, players: int) -> None:
    groups = math.comb(entrants, players)
    plan = schedule(entrants, players, groups * players, seed=7)
    # Every entrant in every seat equally often ...
    per_seat = groups * players // entrants
    assert seat_counts(plan, entrants, players) == [[per_seat] * players] * entrants
    # ... every pair meets, equally often.
    met = meetings(plan)
    assert len(met) == math.comb(entrants, 2)
    assert set(met.values()) == {math.comb(entrants - 2, players - 2) * players}
    # Duplicate deals: a block of `players` games on one seed, the group rotated through the seats.
    for b in range(groups):
        block = plan[b * players : (b + 1) * players]
        assert {s.seed for s in block} == {7 + b}
        assert [s.rotation for s in block] == list(range(players))
        assert all(len(set(s.seats)) == players for s in block)
        assert len({frozenset(s.seats) for s in block}) == 1
        for seat in range(players):
            assert {s.seats[seat] for s in block} == set(block[0].seats)


def test_prefixes_stay_balanced_and_extend() -> None:
    full = schedule(6, 4, 15 * 4, seed=3)
    for k in range(1, 16):
        prefix = schedule(6, 4, k * 4, seed=3)
        assert prefix == full[: k * 4]
        games = Counter(e for s in prefix for e in s.seats)
        assert max(games.values()) - min(games.values()) <= 4  # one block at most
    # After 5 blocks of 4 out of 6, every pair has met.
    assert len(meetings(full[:20])) == 15
    assert schedule(6, 4, 7, seed=3) == full[:7]  # a partial block too
    assert schedule(6, 4, 8, seed=4) != full[:8]


def left_neighbours(plan: list[Seating], players: int) -> Counter[tuple[int, int]]:
    left: Counter[tuple[int, int]] = Counter()
    for s in plan[::players]:  # one game per block: rotations keep the cyclic order
        for seat in range(players):
            left[s.seats[seat], s.seats[(seat + 1) % players]] += 1
    return left


def test_left_neighbours_vary() -> None:
    # Four entrants at four seats: six blocks use the six cyclic orders, so every entrant has
    # every other one directly on its left exactly twice (three blocks cannot do it once each).
    left = left_neighbours(schedule(4, 4, 6 * 4), 4)
    assert len(left) == 12 and set(left.values()) == {2}
    left = left_neighbours(schedule(5, 5, 12 * 5), 5)
    assert len(left) == 20 and set(left.values()) == {3}
    left = left_neighbours(schedule(6, 4, 15 * 4), 4)
    assert len(left) == 30 and max(left.values()) - min(left.values()) <= 2


def test_many_entrants_use_greedy_groups() -> None:
    # 924 subsets of 6 out of 12: too many to cycle through, the groups are built greedily.
    plan = schedule(12, 6, 40 * 6, seed=1)
    games = Counter(e for s in plan for e in s.seats)
    assert max(games.values()) - min(games.values()) <= 6
    assert len(meetings(plan)) == 66
    counts = seat_counts(plan, 12, 6)
    assert all(max(c) == min(c) for c in counts)  # whole blocks: every seat alike


def test_entrants() -> None:
    assert [(e.label, e.bot) for e in parse_entrants(" Basic,random ,basic", 3)] == [
        ("basic", "basic"),
        ("random", "random"),
        ("basic#2", "basic"),
    ]


# -- ratings ------------------------------------------------------------------------------------


def game(entrants: tuple[str, ...], totals: tuple[int, ...], high: bool = False) -> GameResult:
    from salad.scoring import standings

    places = tuple(standings(totals, high))
    winners = tuple(s for s, p in enumerate(places) if p == 1)
    return GameResult(0, 0, 0, 0, entrants, entrants, totals, places, winners, ())


def test_ratings_by_hand() -> None:
    # Lower totals rank first; equal totals share the rank (and the rating change).
    final, history = rate_games(["a", "b", "c", "d"], [game(("a", "b", "c"), (10, 50, 50))])
    assert final["a"].mu > final["d"].mu == 25 > final["b"].mu == final["c"].mu
    assert len(history["d"]) == 2 and history["d"][0] == history["d"][1]
    # With highest_wins the places flip, and so do the ratings.
    final, _ = rate_games(["a", "b", "c"], [game(("a", "b", "c"), (10, 50, 50), high=True)])
    assert final["a"].mu < final["b"].mu == final["c"].mu


def test_basic_rates_above_random() -> None:
    result = run_tournament(CANADIAN, 4, "basic,random,basic,random", games=24, seed=1, workers=1)
    order = [s.entrant for s in result.standings]
    assert set(order[:2]) == {"basic", "basic#2"}, order
    assert [s.rank for s in result.standings] == [1, 2, 3, 4]
    ordinals = [s.rating.ordinal for s in result.standings]
    assert ordinals == sorted(ordinals, reverse=True)
    basic, rnd = result.standing("basic"), result.standing("random")
    assert basic.mean_points is not None and rnd.mean_points is not None
    assert basic.mean_points < rnd.mean_points
    assert sum(s.wins for s in result.standings) == pytest.approx(24)
    assert all(s.games == 24 for s in result.standings)
    # Mean points per round add up to the mean points per game.
    for s in result.standings:
        assert s.mean_points == pytest.approx(sum(v or 0 for v in s.rounds.values()))
    assert [rid for rid, _ in result.rounds] == list(CANADIAN.hands)


# -- the files ----------------------------------------------------------------------------------


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_outputs(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = run_tournament(CANADIAN, 3, "random,random,random,random", 8, seed=2, out=out)
    names = {p.name for p in result.files}
    assert names == {
        SETTINGS_FILE,
        RECORDS_FILE,
        LEADERBOARD_FILE,
        GAMES_FILE,
        RATINGS_PNG,
        POINTS_PNG,
        ROUNDS_PNG,
    }
    records = load_records(out / RECORDS_FILE)
    assert len(records) == 8
    for rec, g in zip(records, result.games, strict=True):
        assert verify_record(rec) == list(g.totals)
        assert rec["seed"] == str(g.seed)
        assert [p["name"] for p in rec["players"]] == list(g.entrants)
    board = read_csv(out / LEADERBOARD_FILE)
    assert [row["entrant"] for row in board] == [s.entrant for s in result.standings]
    assert {f"mean_{rid}" for rid in CANADIAN.hands} <= set(board[0])
    assert sum(int(row["games"]) for row in board) == 8 * 3
    rows = read_csv(out / GAMES_FILE)
    assert len(rows) == 8 * 3
    assert rows[0]["game"] == "1" and rows[-1]["game"] == "8"
    for row in rows:
        hands = [int(v) for k, v in row.items() if k.startswith("hand")]
        assert sum(hands) == int(row["points"])
    settings = json.loads((out / SETTINGS_FILE).read_text())
    assert settings["entrants"] == ["random", "random#2", "random#3", "random#4"]
    assert settings["games"] == 8
    for name in (RATINGS_PNG, POINTS_PNG, ROUNDS_PNG):
        width, height = png_size(out / name)
        assert width >= 600 and height >= 400


def snapshot(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in OUTPUTS}


def test_resume_after_interruption(tmp_path: Path) -> None:
    args = (CANADIAN, 3, "random,basic,random,random", 12)
    whole = tmp_path / "whole"
    run_tournament(*args, seed=5, out=whole, plots=False)

    out = tmp_path / "parts"
    half = run_tournament(CANADIAN, 3, "random,basic,random,random", 6, seed=5, out=out,
                          plots=False, workers=1)  # fmt: skip
    assert (half.played, half.resumed) == (6, 0)

    seen: list[int] = []

    def stop_after_two(g: GameResult) -> None:
        seen.append(g.index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as stop:
        run_tournament(*args, seed=5, out=out, workers=1, on_game=stop_after_two)
    assert (stop.value.saved, stop.value.total) == (8, 12)
    assert seen == [6, 7]
    assert len(load_records(out / RECORDS_FILE)) == 8
    # A kill while a line was being written leaves half a line: it is dropped and replayed.
    with open(out / RECORDS_FILE, "a", encoding="utf-8") as fh:
        fh.write('{"format": "salad-record/1", "ruleset": {"pre')

    rest = run_tournament(*args, seed=5, out=out, plots=False)
    assert (rest.played, rest.resumed) == (4, 8)
    assert snapshot(out) == snapshot(whole)

    again = run_tournament(*args, seed=5, out=out, plots=False)
    assert (again.played, again.resumed) == (0, 12)
    assert snapshot(out) == snapshot(whole)


def ctrl_c_as_in_a_terminal() -> None:
    """In the child, before it runs: Ctrl-C as a terminal gives it. A command started in the
    background by a shell without job control (``make test &`` in a script) ignores SIGINT,
    and so does everything it starts: the tournament then played on to the end and exited 0."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_cli_ctrl_c_then_resume(tmp_path: Path) -> None:
    # GAMES: enough that the Ctrl-C sent once six are saved lands while games are being played
    # (60 finished in 0.6 s at 96 a second: a run was seen ending before the signal came).
    GAMES = 150
    out = tmp_path / "cli"
    cmd = [
        sys.executable,
        "-m",
        "salad.cli",
        "tournament",
        "--players",
        "3",
        "--bots",
        "basic,random,random",
        "--games",
        str(GAMES),
        "--seed",
        "9",
        "--workers",
        "2",
        "--out",
        str(out),
        "--no-plots",
    ]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
    )
    records = out / RECORDS_FILE
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if records.exists() and records.read_bytes().count(b"\n") >= 6:
            break
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole process group
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted:" in stderr and "games saved in" in stderr, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    saved = len(load_records(records))
    assert 6 <= saved < GAMES

    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{saved} were already played" in done.stdout
    whole = tmp_path / "whole"
    run_tournament(CANADIAN, 3, "basic,random,random", GAMES, seed=9, out=whole, plots=False)
    assert snapshot(out) == snapshot(whole)


# -- backends -----------------------------------------------------------------------------------


def sigterm_handler() -> object:
    return signal.getsignal(signal.SIGTERM)


def sigint_handler() -> object:
    return signal.getsignal(signal.SIGINT)


def test_pool_workers_leave_ctrl_c_to_the_parent() -> None:
    """Ctrl-C reaches every process of the group: a worker that took it printed a traceback
    of its own under the one line of the parent, which stops the workers itself."""
    with worker_pool(2, ["random"]) as pool:
        assert pool is not None
        assert pool.run(sigint_handler) == signal.SIG_IGN


def test_pool_workers_die_on_sigterm() -> None:
    """The CLI turns SIGTERM into an interrupt; its workers must not inherit that, or the
    pool's terminate() cannot stop a worker stuck sending a result (a hang after Ctrl-C)."""
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        with worker_pool(2, ["random"]) as pool:
            assert pool is not None
            assert pool.run(sigterm_handler) == signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


def die_on_three(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_a_worker_that_dies_is_an_error_not_a_hang() -> None:
    """The pool starts another worker in place of one that died, but the game it was
    playing is lost: the run stops with a one-line error instead of waiting for it."""
    got: list[int] = []
    with (
        pytest.raises(SaladError, match="worker process died"),
        worker_pool(2, ["random"]) as pool,
    ):
        assert pool is not None
        run_pool(die_on_three, range(40), pool, got.append)
    assert 3 not in got


def test_a_worker_that_cannot_start_is_an_error_not_a_hang() -> None:
    """A worker whose bots cannot be imported says why and exits; the pool would start
    another, and another, while the parent waited for them all to be ready."""
    with (
        pytest.raises(SaladError, match="could not start: bots: unknown bot 'no-such-bot'"),
        worker_pool(2, ["no-such-bot"]),
    ):
        pass


def stable(result: TournamentResult) -> list[object]:
    return [result.games, result.standings, result.history]


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_ray_backend_matches_local(tmp_path: Path) -> None:
    args = (CANADIAN, 3, "basic,random,random,random", 9)
    local = run_tournament(*args, seed=4, out=tmp_path / "local", workers=2, plots=False)
    ray = run_tournament(*args, seed=4, backend="ray", out=tmp_path / "ray", plots=False)
    assert ray.backend == "ray" and ray.played == 9
    assert stable(ray) == stable(local)
    assert snapshot(tmp_path / "ray") == snapshot(tmp_path / "local")


def test_one_process_matches_pool() -> None:
    args = (CANADIAN, 3, "basic,random,random,random", 9)
    assert stable(run_tournament(*args, seed=4, workers=1)) == stable(
        run_tournament(*args, seed=4, workers=2)
    )


# -- bad input ----------------------------------------------------------------------------------


def error_line(args: list[str]) -> str:
    result = CliRunner().invoke(app, ["tournament", *args])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = ["--out", str(tmp_path / "t")]
    assert "name the entrants" in error_line(out)
    assert "unknown bot 'nosuch'" in error_line(["--bots", "nosuch,basic,basic,basic", *out])
    assert "2 entrants for 4 seats" in error_line(["--bots", "basic,random", *out])
    four = ["--bots", "random,random,random,random", *out]
    assert "games: must be at least 1" in error_line([*four, "--games", "0"])
    assert "backend: 'spark'" in error_line([*four, "--backend", "spark"])
    assert "address:" in error_line([*four, "--address", "ray://x:1"])
    assert "workers: must be at least 1" in error_line([*four, "--workers", "0"])
    assert "move time" in error_line([*four, "--move-time", "-1"])
    assert "players: 12 is out of range" in error_line([*four, "--players", "12"])
    a_file = tmp_path / "file"
    a_file.write_text("x")
    assert "is a file" in error_line([*four[:2], "--out", str(a_file)])
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    line = error_line([*four, "--backend", "ray"])
    assert "Ray is not installed" in line and "canadian-salad[ray]" in line


def test_out_holds_another_tournament(tmp_path: Path) -> None:
    out = tmp_path / "t"
    base = ["--players", "3", "--out", str(out), "--no-plots"]
    bots = ["--bots", "random,random,random", *base]
    ok = CliRunner().invoke(app, ["tournament", *bots, "--games", "6"])
    assert ok.exit_code == 0, ok.output
    assert "seed 0, not 1" in error_line([*bots, "--games", "6", "--seed", "1"])
    other = error_line(["--bots", "basic,random,random", *base, "--games", "6"])
    assert "holds another tournament (entrants random,random#2,random#3" in other
    assert "already holds 6 games" in error_line([*bots, "--games", "3"])
    with open(out / RECORDS_FILE, "r+", encoding="utf-8") as fh:  # games out of order
        lines = fh.readlines()
        fh.seek(0)
        fh.writelines([lines[1], lines[0], *lines[2:]])
    assert "line 1 is not game 1" in error_line([*bots, "--games", "6"])


# -- rates and time left ------------------------------------------------------------------------


def test_rates_below_one_a_second_are_seconds_per_game() -> None:
    from salad.lab.progress import format_rate

    assert format_rate(3, 60.0) == "20.0 seconds per game"
    assert format_rate(120, 60.0) == "2.0 games per second"
    assert "0.0" not in format_rate(1, 500.0)


def test_time_left_comes_from_the_recent_rate() -> None:
    """Slow first games (workers starting, then batches growing) must not skew the estimate:
    after a slow start of 1 game/s and a steady 4 games/s, the time left is at 4 games/s."""
    from salad.lab.progress import RecentRate

    now = [0.0]
    rate = RecentRate(window=30.0, clock=lambda: now[0])
    for _ in range(20):  # 20 s at one game a second
        now[0] += 1.0
        rate.add()
    for _ in range(60):  # then 60 s at four games a second, finished in batches of 8
        now[0] += 2.0
        rate.add(8)
    left = rate.left(400)
    assert left is not None and 95 <= left <= 105
    now[0] += 60.0  # a stall shows at once
    stalled = rate.left(400)
    assert stalled is not None and stalled > 150


def test_progress_lines_come_every_so_often_and_at_the_end() -> None:
    """Where stderr is not a terminal: a line every ``every`` seconds (of the clock given), and
    the last one when the run ends."""
    from rich.console import Console

    from salad.lab.progress import RecentRate, line_progress

    now = [0.0]
    out = Console(file=io.StringIO(), width=200)
    with line_progress(out, "playing", 4, RecentRate(clock=lambda: now[0]), every=5.0) as advance:
        for _ in range(4):
            now[0] += 3.0
            advance()
    lines = out.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert lines == [
        "playing: 2/4 games, 3.0 s/game, 0:00:06 left",
        "playing: 4/4 games, 3.0 s/game, 0:00:00 left",
    ]
