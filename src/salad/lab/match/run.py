"""Playing a match: its games as jobs on the local pool, the records in order, the summary."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from salad.bots.registry import check_move_time
from salad.bots.seeds import bot_seed
from salad.errors import SaladError
from salad.lab.games import GameJob, PlayedGame, check_recordable, play_game
from salad.lab.match.lineup import parse_lineup, seat_names
from salad.lab.match.result import GameOutcome, MatchResult
from salad.lab.match.summary import summarize
from salad.lab.pool import run_pool, worker_pool
from salad.lab.progress import progress_bar
from salad.lab.record_writer import open_records
from salad.ruleset import Ruleset


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
    """Play a duplicate match (see :mod:`salad.lab.match`) and summarize it.

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
    check_move_time(move_time)
    if workers is not None and workers < 1:
        raise SaladError(f"workers: must be at least 1, not {workers}")
    options = dict(bot_options or {})
    if move_time is not None:
        options["move_time"] = move_time
    path = None if record is None else Path(record)
    if path is not None:
        check_recordable(ruleset, n, seed)

    jobs = [
        GameJob(
            ruleset,
            n,
            d,
            r,
            seed + d,
            seat_names(lineup, r),
            tuple(bot_seed("match", seed, d, r, s) for s in range(n)),
            options,
            path is not None,
        )
        for d in range(deals)
        for r in range(n)
    ]
    w = min(workers or os.cpu_count() or 1, len(jobs))
    played: dict[tuple[int, int], PlayedGame] = {}
    start = time.perf_counter()
    with (
        worker_pool(w, sorted(set(lineup))) as pool,
        open_records(path) as writer,
        progress_bar(progress, label, len(jobs)) as advance,
    ):

        def done(p: PlayedGame) -> None:
            played[p.deal, p.rotation] = p
            if writer is not None and p.record is not None:
                writer.add(p.deal * n + p.rotation, p.record)
            advance()
            if on_game is not None:
                on_game(_outcome(p, seed, lineup))

        if pool is None:
            for job in jobs:
                done(play_game(job))
        else:
            run_pool(play_game, jobs, pool, done)
    elapsed = time.perf_counter() - start
    in_order = [played[d, r] for d in range(deals) for r in range(n)]
    entrants, pairs = summarize(lineup, n, deals, in_order)
    return MatchResult(
        ruleset=ruleset,
        players=n,
        lineup=lineup,
        deals=deals,
        seed=seed,
        move_time=move_time,
        workers=w,
        elapsed=elapsed,
        games=[_outcome(p, seed, lineup) for p in in_order],
        entrants=entrants,
        pairs=pairs,
        record=path,
        fallback=_fallback(in_order, lineup),
    )


def _fallback(played: Sequence[PlayedGame], lineup: Sequence[str]) -> dict[str, int]:
    """Moves the fallback bot made, by the bot it stood in for (none: not listed)."""
    moves: dict[str, int] = {}
    for p in played:
        for name, n in zip(seat_names(lineup, p.rotation), p.fallback, strict=False):
            if n:
                moves[name] = moves.get(name, 0) + n
    return moves


def _outcome(p: PlayedGame, seed: int, lineup: Sequence[str]) -> GameOutcome:
    return GameOutcome(
        p.deal, p.rotation, seed + p.deal, seat_names(lineup, p.rotation), p.totals, p.winners
    )
