"""Duplicate matches between bots: the same cards for everyone, every bot in every seat.

Deal ``d`` of a match is the game with seed ``seed + d`` (that seed fixes every hand's cards and
the first dealer). It is played ``players`` times, the bot line-up rotated one seat each time:
in rotation ``r`` the bot listed ``i``-th sits in seat ``(i + r) % players``. So each bot meets
the same cards from every seat, and the luck of the deal cancels out of the comparison.

A name listed several times is one entrant. Its per-deal value is the mean of its points over
all its seats in all the deal's games; its mean is the mean of those per-deal values, and its 95%
confidence interval is ``1.96 * sd / sqrt(deals)`` of them. Two entrants are compared by their
paired per-deal differences, with the interval of those differences.

Each game is one job for a process pool (``workers=1`` plays in this process). Every bot is
built fresh for its game with a seed drawn from ``(seed, deal, rotation, seat)``, so a match
comes out the same whatever the number of workers, as long as the bots themselves are
deterministic given their seed (a bot that searches for a fixed time is not).

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

from __future__ import annotations

import math
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from salad.bots import bot_factory, make_bot, tell_game_over
from salad.engine import Game
from salad.errors import RecordError, SaladError
from salad.ruleset import Ruleset

__all__ = [
    "Entrant",
    "GameOutcome",
    "MatchResult",
    "Pair",
    "Timing",
    "bot_seed",
    "ci95",
    "parse_lineup",
    "run_match",
]

Z95 = 1.96
"""The normal quantile of a two-sided 95% interval."""


# -- statistics ---------------------------------------------------------------------------------


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
            "diff": _r(self.diff),
            "ci95": _r(self.ci95),
            "ratio": _r(self.ratio),
            "decided": self.decided,
        }


@dataclass(frozen=True)
class Entrant:
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
    entrants: list[Entrant]
    pairs: list[Pair]
    """Every ordered pair of different entrants."""
    record: Path | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def entrant(self, name: str) -> Entrant:
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
                    "mean": _r(e.mean),
                    "ci95": _r(e.ci95),
                    "games": e.games,
                    "seats": e.seats,
                    "seat_games": e.seat_games,
                    "sd": _r(e.sd),
                    "wins": _r(e.wins),
                    "seat_means": [_r(m) for m in e.seat_means],
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
        }

    def to_json(self) -> str:
        """The summary as one line of JSON."""
        import json

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
        out.append(f"{len(self.games)} games in {self.elapsed:.1f} s ({self.games_per_s:.1f}/s)")
        if self.record is not None:
            out.append(f"records written to {self.record}")
        return out


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _r(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def _pm(x: float | None) -> str:
    return "   n/a" if x is None else f"{x:6.2f}"


def _ms(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.001:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


# -- the games ----------------------------------------------------------------------------------


def bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of ``rotation`` of ``deal``: 31 bits, stable everywhere."""
    return random.Random(f"salad-match:{seed}:{deal}:{rotation}:{seat}").getrandbits(31)


def seat_names(lineup: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The bot in each seat: the ``i``-th of the line-up sits in seat ``(i + rotation) % n``."""
    n = len(lineup)
    return tuple(lineup[(s - rotation) % n] for s in range(n))


@dataclass(frozen=True)
class _Job:
    ruleset: Ruleset
    players: int
    deal: int
    rotation: int
    game_seed: int
    bots: tuple[str, ...]
    bot_seeds: tuple[int, ...]
    options: dict[str, Any]
    record: bool


@dataclass(frozen=True)
class _Played:
    deal: int
    rotation: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    times: tuple[tuple[float, ...], ...]
    """Decision times of each seat, in seconds (wall clock)."""
    cpu: tuple[tuple[float, ...], ...]
    """The same moves' CPU time of the process."""
    record: dict[str, Any] | None


def _play(job: _Job) -> _Played:
    """One game of the match (runs in a worker process)."""
    where = f"deal {job.deal}, rotation {job.rotation}"
    try:
        bots = [
            make_bot(name, seed, **job.options)
            for name, seed in zip(job.bots, job.bot_seeds, strict=True)
        ]
        game = Game(job.ruleset, job.players, seed=job.game_seed)
        times: list[list[float]] = [[] for _ in range(job.players)]
        cpu: list[list[float]] = [[] for _ in range(job.players)]
        clock, cpu_clock = time.perf_counter, time.process_time
        while not game.is_over():
            seat = game.to_move
            view = game.view(seat)
            c0 = cpu_clock()
            t0 = clock()
            move = bots[seat].choose(view)
            t1 = clock()
            cpu[seat].append(cpu_clock() - c0)
            times[seat].append(t1 - t0)
            game.play(move)
        tell_game_over(bots, game)
    except SaladError as exc:
        raise SaladError(f"match: {where} (seed {job.game_seed}): {exc}") from None
    record = None
    if job.record:
        from salad.formats.records import record_from_game

        players = [
            {"name": f"Seat {s}", "bot": name, "bot_seed": seed}
            for s, (name, seed) in enumerate(zip(job.bots, job.bot_seeds, strict=True))
        ]
        record = record_from_game(game, players)
    return _Played(
        job.deal,
        job.rotation,
        tuple(game.totals),
        tuple(game.winners()),
        tuple(tuple(t) for t in times),
        tuple(tuple(t) for t in cpu),
        record,
    )


def _warm_up(names: Sequence[str]) -> None:
    """Pool initializer: import the bots' modules before any move is timed."""
    for name in names:
        bot_factory(name)


def bot_key(name: str) -> str:
    """A bot name as entrants are told apart: built-in names ignore case, ``cmd:`` ones not."""
    name = name.strip()
    return name if name.startswith("cmd:") else name.lower()


def parse_lineup(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    """``"expert,basic,basic,basic"`` → the checked line-up, one known bot name per seat."""
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    names = [bot_key(n) for n in names if n.strip()]
    if len(names) != players:
        example = ",".join(["expert"] + ["basic"] * (players - 1))
        if not names:
            raise SaladError(f"bots: name one bot per seat, e.g. --bots {example}")
        raise SaladError(
            f"bots: {len(names)} bots named for {players} players (a match needs one per seat)"
        )
    for name in dict.fromkeys(names):
        bot_factory(name)  # unknown or unavailable → SaladError
    return tuple(names)


class _RecordWriter:
    """Writes records as JSON Lines in (deal, rotation) order while games finish in any order."""

    def __init__(self, path: Path, fh: IO[str]) -> None:
        self.path = path
        self.fh = fh
        self.next = 0
        self.waiting: dict[int, dict[str, Any]] = {}

    def add(self, index: int, record: dict[str, Any]) -> None:
        from salad.formats.records import dump_record

        self.waiting[index] = record
        try:
            while self.next in self.waiting:
                self.fh.write(dump_record(self.waiting.pop(self.next)) + "\n")
                self.next += 1
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot write ({exc.strerror or exc})") from None


@contextmanager
def _open_record(path: Path | None) -> Iterator[_RecordWriter | None]:
    if path is None:
        yield None
        return
    try:
        fh = open(path, "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
    with fh:
        yield _RecordWriter(path, fh)


@contextmanager
def rich_progress(label: str, total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr (games done, games/s, time left); yields ``advance()``."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            elapsed = task.elapsed or 0.0
            rate = task.completed / elapsed if elapsed > 0 else 0.0
            return Text(f"{rate:.2f} games/s" if rate < 10 else f"{rate:.0f} games/s")

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)


def run_match(
    ruleset: Ruleset,
    players: int | None,
    bots: str | Sequence[str],
    deals: int,
    seed: int = 0,
    move_time: float | None = None,
    workers: int | None = None,
    record: str | os.PathLike[str] | None = None,
    progress: bool = False,
    label: str = "match",
    on_game: Callable[[GameOutcome], None] | None = None,
    bot_options: dict[str, Any] | None = None,
) -> MatchResult:
    """Play a duplicate match (see the module's docstring) and summarize it.

    ``bots`` names one bot per seat (a string ``"a,b,c,d"`` or a list); ``move_time`` is given
    to every bot as ``move_time=`` (other options through ``bot_options``); ``workers`` defaults
    to every core; ``record`` writes every game to a JSON Lines file; ``progress`` shows a bar
    on stderr; ``on_game`` is called in this process after each game.
    """
    n = ruleset.default_players if players is None else players
    ruleset.check_players(n)
    lineup = parse_lineup(bots, n)
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise SaladError(f"deals: must be at least 1, not {deals}")
    if move_time is not None and not (move_time > 0 and math.isfinite(move_time)):
        raise SaladError(f"move time: must be a positive number of seconds, not {move_time}")
    if workers is not None and workers < 1:
        raise SaladError(f"workers: must be at least 1, not {workers}")
    options = dict(bot_options or {})
    if move_time is not None:
        options["move_time"] = move_time
    path = None if record is None else Path(record)
    if path is not None:
        from salad.formats.records import record_from_game

        record_from_game(Game(ruleset, n, seed=seed))  # a ruleset that records cannot rebuild

    jobs = [
        _Job(
            ruleset,
            n,
            d,
            r,
            seed + d,
            seat_names(lineup, r),
            tuple(bot_seed(seed, d, r, s) for s in range(n)),
            options,
            path is not None,
        )
        for d in range(deals)
        for r in range(n)
    ]
    w = min(workers or os.cpu_count() or 1, len(jobs))
    played: dict[tuple[int, int], _Played] = {}
    start = time.perf_counter()
    with (
        worker_pool(w, sorted(set(lineup))) as pool,
        _open_record(path) as writer,
        _progress(progress, label, len(jobs)) as advance,
    ):

        def done(p: _Played) -> None:
            played[p.deal, p.rotation] = p
            if writer is not None and p.record is not None:
                writer.add(p.deal * n + p.rotation, p.record)
            advance()
            if on_game is not None:
                on_game(_outcome(p, seed, lineup, n))

        if pool is None:
            for job in jobs:
                done(_play(job))
        else:
            _run_pool(_play, jobs, pool, w, done)
    elapsed = time.perf_counter() - start
    games = [_outcome(played[d, r], seed, lineup, n) for d in range(deals) for r in range(n)]
    entrants, pairs = _summarize(
        lineup, n, deals, [played[d, r] for d in range(deals) for r in range(n)]
    )
    return MatchResult(
        ruleset=ruleset,
        players=n,
        lineup=lineup,
        deals=deals,
        seed=seed,
        move_time=move_time,
        workers=w,
        elapsed=elapsed,
        games=games,
        entrants=entrants,
        pairs=pairs,
        record=path,
        options=options,
    )


@contextmanager
def _progress(show: bool, label: str, total: int) -> Iterator[Callable[[], None]]:
    if not show:
        yield lambda: None
        return
    with rich_progress(label, total) as advance:
        yield advance


_J = TypeVar("_J")
_R = TypeVar("_R")


def _can_fork() -> bool:
    """Whether worker processes may be forked from this one: on Linux, with no other thread
    running here (a fork copies only the calling thread, so a lock another thread holds
    would stay locked in the child forever)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def _ready() -> None:
    """A task that does nothing: running it proves a worker started."""


@contextmanager
def worker_pool(workers: int, names: Sequence[str]) -> Iterator[ProcessPoolExecutor | None]:
    """``workers`` processes to play games in, every one started before this returns (None
    for a single worker: play in this process). ``names`` are the bots to import in each.

    The workers are forked from this process when :func:`_can_fork` (about 40 ms, with
    every module already imported) and spawned otherwise (a new interpreter: about 0.4 s),
    so start the pool before anything that runs a thread of its own, such as a progress
    bar. On an error or an interrupt inside, the workers are stopped at once, not left to
    finish their games.
    """
    if workers <= 1:
        yield None
        return
    ctx = multiprocessing.get_context("fork" if _can_fork() else "spawn")
    pool = ProcessPoolExecutor(workers, ctx, initializer=_warm_up, initargs=(names,))
    try:
        for started in [pool.submit(_ready) for _ in range(workers)]:
            started.result()
        yield pool
    except BaseException:
        # The executor has no public way to stop a running job (before Python 3.14).
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _run_pool(
    play: Callable[[_J], _R],
    jobs: Iterable[_J],
    pool: ProcessPoolExecutor,
    workers: int,
    done: Callable[[_R], None],
) -> None:
    """Run ``play(job)`` on the ``workers`` processes of ``pool`` (see :func:`worker_pool`),
    at most two queued per worker at a time.

    ``jobs`` is read lazily (a generator may size the next job from the results so far) and
    ``done`` is called in this process with each result, in the order they finish.
    """
    queue = iter(jobs)
    running: set[Future[_R]] = set()
    try:
        for job in queue:
            running.add(pool.submit(play, job))
            if len(running) >= 2 * workers:
                break
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                done(f.result())
                nxt = next(queue, None)
                if nxt is not None:
                    running.add(pool.submit(play, nxt))
    except BaseException:
        for f in running:
            f.cancel()
        raise


def _outcome(p: _Played, seed: int, lineup: Sequence[str], n: int) -> GameOutcome:
    return GameOutcome(
        p.deal, p.rotation, seed + p.deal, seat_names(lineup, p.rotation), p.totals, p.winners
    )


def _summarize(
    lineup: Sequence[str], n: int, deals: int, played: Sequence[_Played]
) -> tuple[list[Entrant], list[Pair]]:
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
            Entrant(
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
