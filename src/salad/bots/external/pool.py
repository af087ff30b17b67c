"""The programs of each command in this process: idle ones wait for the next game, and every one
is stopped cleanly when salad exits (or a multiprocessing worker ends)."""

from __future__ import annotations

import atexit
import os
import threading
import time
from dataclasses import dataclass, field
from multiprocessing import util

from salad.bots.external.program import STOP_GRACE, GameContext, Program, ProgramFailure
from salad.bots.external.protocol import winners
from salad.view import Phase, View

IDLE_LIMIT = 8
"""Idle programs kept per command; the least recently used beyond it are stopped."""


@dataclass
class Pool:
    """The programs of one command in this process, and what they have done wrong."""

    argv: tuple[str, ...]
    idle: list[Program] = field(default_factory=list)
    busy: set[Program] = field(default_factory=set)
    failures: int = 0
    retired: bool = False
    warned: dict[str, int] = field(default_factory=dict)


_LOCK = threading.RLock()
_POOLS: dict[tuple[str, ...], Pool] = {}
_SHUTDOWN_HOOKED = False


def pool_for(argv: tuple[str, ...]) -> Pool:
    """The pool of a command in this process (a new one after :func:`shutdown_all`)."""
    global _SHUTDOWN_HOOKED
    with _LOCK:
        pool = _POOLS.get(argv)
        if pool is None:
            pool = _POOLS[argv] = Pool(argv)
        if not _SHUTDOWN_HOOKED:
            _SHUTDOWN_HOOKED = True
            atexit.register(shutdown_all)
            # A multiprocessing worker leaves through os._exit: no atexit there.
            util.Finalize(None, shutdown_all, exitpriority=10)
        return pool


def is_current(pool: Pool) -> bool:
    """Whether ``pool`` is still this process's pool of its command (not shut down)."""
    return _POOLS.get(pool.argv) is pool


def add_busy(pool: Pool, prog: Program) -> None:
    with _LOCK:
        pool.busy.add(prog)


def discard(pool: Pool, prog: Program) -> None:
    """Forget a program the pool lent out (it was stopped, or is dead)."""
    with _LOCK:
        pool.busy.discard(prog)


def count_failure(pool: Pool, restarts: int) -> bool:
    """Count a crash or time-out; whether the command is retired by this one."""
    with _LOCK:
        pool.failures += 1
        retire = pool.failures > restarts and not pool.retired
        if retire:
            pool.retired = True
    return retire


def count_warning(pool: Pool, kind: str) -> int:
    """Count a warning of ``kind`` for the command; how many there have been."""
    with _LOCK:
        count = pool.warned.get(kind, 0) + 1
        pool.warned[kind] = count
    return count


def _forget_after_fork() -> None:
    """A forked child shares its parent's pipes: it must neither use nor stop those programs."""
    global _LOCK, _POOLS, _SHUTDOWN_HOOKED
    _LOCK = threading.RLock()
    _POOLS = {}
    _SHUTDOWN_HOOKED = False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def acquire(pool: Pool, view: View) -> Program | None:
    """An idle program for ``view``: one in this very game, else a free one; ``None``: start one.

    A free program is one that has finished its game (or never had one), else the least
    recently used, once ``IDLE_LIMIT`` programs of the command are running.
    """
    with _LOCK:
        pick = None
        for prog in pool.idle:
            if prog.context is not None and prog.context.continues(view):
                pick = prog
                break
        if pick is None:
            for prog in pool.idle:
                if prog.context is None or prog.context.done:
                    pick = prog
                    break
        if pick is None and pool.idle and len(pool.idle) + len(pool.busy) >= IDLE_LIMIT:
            pick = min(pool.idle, key=lambda p: p.released)
        if pick is not None:
            pool.idle.remove(pick)
            pool.busy.add(pick)
        return pick


def release(pool: Pool, prog: Program) -> None:
    """Give a program back to its pool (a dead one is dropped)."""
    extra: list[Program] = []
    with _LOCK:
        pool.busy.discard(prog)
        if not prog.alive or not is_current(pool):
            extra.append(prog)
        else:
            prog.released = time.monotonic()
            pool.idle.append(prog)
            while len(pool.idle) > IDLE_LIMIT:
                oldest = min(pool.idle, key=lambda p: p.released)
                pool.idle.remove(oldest)
                extra.append(oldest)
    for p in extra:
        end_game(p)
        p.stop()


def end_game(prog: Program, view: View | None = None) -> None:
    """Tell a program its game is over: the hands it was not told of, then ``game_end``."""
    ctx = prog.context
    if ctx is None or not prog.alive:
        return
    prog.context = None
    try:
        if view is not None and view.phase == Phase.OVER:
            tell_hands(prog, ctx, view)
            totals = list(view.totals)
            prog.send(
                {
                    "type": "game_end",
                    "totals": totals,
                    "winners": winners(totals, ctx.ruleset.highest_wins),
                }
            )
        else:
            prog.send({"type": "game_end", "totals": None, "winners": None})
    except ProgramFailure:
        pass


def tell_hands(prog: Program, ctx: GameContext, view: View) -> None:
    """``hand_end`` for each hand scored since the program was last told."""
    compiled = ctx.ruleset.compiled(ctx.players)
    while ctx.hands_told < len(view.hand_points):
        k = ctx.hands_told
        points = view.hand_points[k]
        totals = [sum(p[s] for p in view.hand_points[: k + 1]) for s in range(ctx.players)]
        prog.send(
            {
                "type": "hand_end",
                "hand": k + 1,
                "round": compiled.hands[k].round.name,
                "points": list(points),
                "totals": totals,
            }
        )
        ctx.hands_told += 1


def shutdown_all() -> None:
    """Stop every program this process started (``bye``, then terminate what lingers)."""
    with _LOCK:
        progs = [p for pool in _POOLS.values() for p in (*pool.idle, *pool.busy)]
        _POOLS.clear()
    for p in progs:
        end_game(p)
        p.say_bye()  # all at once, so that they exit in parallel
    deadline = time.monotonic() + STOP_GRACE
    for p in progs:
        p.stop(max(0.0, deadline - time.monotonic()))
