"""One game of a match or a tournament, as a job sent to a worker and the result it sends back.

A job holds everything the game needs (the ruleset, the bots' names and seeds), so that it can
be played in any process, in any order, and come out the same.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from salad.bots import bot_factory, make_bot, tell_game_over
from salad.bots.external import ExternalBot
from salad.engine import Game
from salad.errors import SaladError
from salad.formats.records import record_from_game
from salad.ruleset import Ruleset


def bot_key(name: str) -> str:
    """A bot name as entrants are told apart: built-in names ignore case, ``cmd:`` ones not."""
    name = name.strip()
    return name if name.startswith("cmd:") else name.lower()


@dataclass(frozen=True)
class GameJob:
    """One game to play: deal ``deal`` (the game seeded ``game_seed``) in rotation ``rotation``."""

    ruleset: Ruleset
    players: int
    deal: int
    rotation: int
    game_seed: int
    bots: tuple[str, ...]
    """The bot name in each seat."""
    bot_seeds: tuple[int, ...]
    options: dict[str, Any]
    """Options given to every bot (``move_time=`` and the like)."""
    record: bool
    """Whether to send back the game's record."""


@dataclass(frozen=True)
class PlayedGame:
    """What a worker sends back for a :class:`GameJob`."""

    deal: int
    rotation: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    times: tuple[tuple[float, ...], ...]
    """Decision times of each seat, in seconds (wall clock)."""
    cpu: tuple[tuple[float, ...], ...]
    """The same moves' CPU time of the process."""
    record: dict[str, Any] | None
    fallback: tuple[int, ...] = ()
    """Moves the fallback bot made for each seat's external bot whose program failed."""


def play_game(job: GameJob) -> PlayedGame:
    """Play one game, timing every decision (runs in a worker process)."""
    where = f"deal {job.deal}, rotation {job.rotation}"
    try:
        bots = [
            make_bot(name, seed, **job.options)
            for name, seed in zip(job.bots, job.bot_seeds, strict=True)
        ]
        game = Game(job.ruleset, job.players, seed=job.game_seed)
        for bot in bots:  # a reference bot (the oracle) is given the deal: here, never at a table
            if getattr(bot, "needs_deal", False):
                bot.see_deal(game)  # type: ignore[attr-defined]
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
        players = [
            {"name": f"Seat {s}", "bot": name, "bot_seed": seed}
            for s, (name, seed) in enumerate(zip(job.bots, job.bot_seeds, strict=True))
        ]
        record = record_from_game(game, players)
    return PlayedGame(
        job.deal,
        job.rotation,
        tuple(game.totals),
        tuple(game.winners()),
        tuple(tuple(t) for t in times),
        tuple(tuple(t) for t in cpu),
        record,
        tuple(b.fallback_moves if isinstance(b, ExternalBot) else 0 for b in bots),
    )


def check_recordable(ruleset: Ruleset, players: int, seed: int) -> None:
    """Fail before any game is played if a record of this ruleset could not be rebuilt."""
    record_from_game(Game(ruleset, players, seed=seed))


def warm_up(names: Sequence[str]) -> None:
    """Import the bots' modules (a worker does so before any move is timed)."""
    for name in names:
        bot_factory(name)
