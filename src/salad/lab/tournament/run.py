"""Playing a tournament: check the arguments, resume from the directory, play, rate, report."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from salad.bots.registry import check_move_time
from salad.errors import SaladError
from salad.lab.games import GameJob, PlayedGame, check_recordable
from salad.lab.pool import worker_pool
from salad.lab.progress import progress_bar
from salad.lab.record_writer import open_records
from salad.lab.tournament.backends import (
    BACKENDS,
    Batches,
    cores,
    import_ray,
    run_local,
    run_ray,
)
from salad.lab.tournament.ratings import GameResult, rate_games
from salad.lab.tournament.report import write_plots, write_tables
from salad.lab.tournament.results import TournamentResult, leaderboard
from salad.lab.tournament.rundir import (
    RECORDS_FILE,
    load_done,
    prepare,
    settings_of,
    write_settings,
)
from salad.lab.tournament.schedule import parse_entrants, schedule, seat_seeds
from salad.ruleset import Ruleset


class Interrupted(KeyboardInterrupt):
    """The run was interrupted; ``saved`` games of ``total`` are safe in ``out``."""

    def __init__(self, saved: int, total: int, out: Path | None) -> None:
        super().__init__(saved, total, out)
        self.saved = saved
        self.total = total
        self.out = out


def run_tournament(
    ruleset: Ruleset,
    players: int | None,
    bots: str | Sequence[str],
    games: int,
    seed: int = 0,
    *,
    backend: str = "local",
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    move_time: float | None = None,
    bot_options: dict[str, Any] | None = None,
    progress: bool = False,
    plots: bool = True,
    on_game: Callable[[GameResult], None] | None = None,
) -> TournamentResult:
    """Play (or finish) a tournament and rate it; see :mod:`salad.lab.tournament`.

    ``workers``: processes (``local``; 1 plays in this process) or tasks at a time (``ray``;
    default: the cluster's CPUs). ``out``: the directory of the files, where an interrupted
    run resumes. ``on_game`` is called in this process with every game, in schedule order,
    once it is saved. An interrupt raises :class:`Interrupted` (a ``KeyboardInterrupt``).
    """
    n = ruleset.default_players if players is None else players
    ruleset.check_players(n)
    entrants = parse_entrants(bots, n)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SaladError(f"games: must be at least 1, not {games}")
    if backend not in BACKENDS:
        raise SaladError(f"backend: {backend!r} is not one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SaladError("address: a Ray cluster's address goes with --backend ray")
    if workers is not None and workers < 1:
        raise SaladError(f"workers: must be at least 1, not {workers}")
    check_move_time(move_time)
    ray = import_ray() if backend == "ray" else None
    options = dict(bot_options or {})
    if move_time is not None:
        options["move_time"] = move_time

    check_recordable(ruleset, n, seed)
    plan = schedule(len(entrants), n, games, seed)
    high = ruleset.highest_wins
    directory = None if out is None else Path(out)
    done: list[GameResult] = []
    files: list[Path] = []
    if directory is not None:
        settings = settings_of(ruleset, n, entrants, seed, options)
        prepare(directory, settings)
        done = load_done(directory / RECORDS_FILE, plan, entrants, ruleset, n, seed)
        files = [write_settings(directory, settings, games), directory / RECORDS_FILE]
    resumed = len(done)

    jobs = [
        GameJob(
            ruleset,
            n,
            s.deal,
            s.rotation,
            s.seed,
            tuple(entrants[e].bot for e in s.seats),
            seat_seeds(seed, s),
            options,
            True,
        )
        for s in plan[resumed:]
    ]
    names = sorted({e.bot for e in entrants})
    label = f"tournament (after {resumed} played)" if resumed else "tournament"
    used = 0
    if jobs and ray is None:
        used = min(workers or cores(), len(jobs))
    start = time.perf_counter()
    with (
        worker_pool(used, names) as pool,
        open_records(
            None if directory is None else directory / RECORDS_FILE, append=True, start=resumed
        ) as writer,
        progress_bar(progress, label, len(jobs)) as advance,
    ):
        pending: dict[int, PlayedGame] = {}
        fallback: dict[str, int] = {}

        def commit() -> None:
            """Save and report the games that are next in schedule order."""
            while len(done) in pending:
                i = len(done)
                p = pending.pop(i)
                assert p.record is not None
                for entry, e in zip(p.record["players"], plan[i].seats, strict=True):
                    entry["name"] = entrants[e].label
                for e, moves in zip(plan[i].seats, p.fallback, strict=False):
                    if moves:
                        label = entrants[e].label
                        fallback[label] = fallback.get(label, 0) + moves
                result = GameResult.of(plan[i], entrants, p.record, high)
                if writer is not None:
                    writer.add(i, p.record)
                done.append(result)
                if on_game is not None:
                    on_game(result)
            if writer is not None:
                writer.flush()

        batches = Batches(jobs)

        def finished(batch: tuple[list[PlayedGame], float]) -> None:
            played, seconds = batch
            batches.timed(len(played), seconds)
            for p in played:
                pending[p.deal * n + p.rotation] = p
                advance()
            commit()

        try:
            if jobs and ray is not None:
                used = run_ray(ray, batches, workers, address, finished)
            elif jobs:
                run_local(pool, batches, used, finished)
        except KeyboardInterrupt:
            raise Interrupted(len(done), games, directory) from None
    elapsed = time.perf_counter() - start

    ratings, history = rate_games([e.label for e in entrants], done)
    round_ids = list(dict.fromkeys(ruleset.hands))
    result = TournamentResult(
        ruleset=ruleset,
        players=n,
        seed=seed,
        games=done,
        standings=leaderboard(entrants, done, ratings, round_ids, high),
        history=history,
        rounds=[(rid, ruleset.round(rid).name) for rid in round_ids],
        backend=backend,
        workers=used,
        played=len(done) - resumed,
        resumed=resumed,
        elapsed=elapsed,
        out=directory,
        fallback=fallback,
    )
    if directory is not None:
        result.files = files + write_tables(result, directory)
        if plots:
            result.files += write_plots(result, directory)
    return result
