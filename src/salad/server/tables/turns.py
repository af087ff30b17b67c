"""Who moves when no human does: bots in their seats, bots for away seats, and turn timers.

A bot decides in a process pool (a search bot may think for seconds; the event loop must not),
from its name, a seed and the seat's view only; its move is then played like anyone's.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from salad.bots.catalog import reference_only
from salad.bots.decide import RANDOM, choose_move, exit_with_parent
from salad.bots.seeds import bot_seed
from salad.moves import Move
from salad.server.errors import ActionError
from salad.server.info import available_bots
from salad.server.tables.table import BOT, HUMAN, PLAYING, Table

log = logging.getLogger("salad.server")

T = TypeVar("T")

BOT_TIMEOUT = 30.0
"""A bot that has not answered after this many seconds is replaced by a random legal move."""

AWAY_GRACE = 15.0
"""Seconds a seat may be away (a reload, a dropped connection) while a hand's summary waits
for it, at a table without a takeover time."""

TAKEOVER, TIMER = "takeover", "timer"
"""Why a bot moves for a human's seat (``BOT``: the seat is a bot's)."""

Accept = Callable[[Table, int, Move, str], Awaitable[None]]
"""Plays, stores and broadcasts a move: (table, seat, move, by whom)."""


def bot_display_name(bot: str, seat: int) -> str:
    """A bot's name at the table, numbered as people count seats (from 1)."""
    return f"{bot.replace('-', ' ').title()} bot {seat + 1}"


def check_bot(value: str | None, what: str = "bot") -> str:
    """A bot name a client sent, known here (the default bot when None); ActionError if not."""
    if value is None:
        return default_bot()
    name, bots = value.strip().lower(), available_bots()
    if reference_only(value):  # every table has a human: its host
        raise ActionError(f"{what}: {name} sees every hand; it plays only in the lab")
    if name not in bots:
        raise ActionError(f"{what}: unknown bot {value!r} (known: {', '.join(bots)})")
    return name


def default_bot() -> str:
    """The bot that fills seats when none is named, and plays for away or timed-out seats."""
    return "basic" if "basic" in available_bots() else RANDOM


STOP_WAIT = 2.0
"""Seconds each step of a server's stop may take: its cancelled bot turns ending, and on a
cluster node its loops ending, its leases let go
(:meth:`salad.server.cluster.node.Cluster.stop`)."""

STORE_RETRY = 0.5
"""Seconds before a bot tries again a move the database could not store."""


class Turns:
    """The bot moves and timers of every table of a manager."""

    def __init__(self, accept: Accept, bot_delay: float = 0.0, bot_workers: int | None = None):
        self.accept = accept
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self._pool: Executor | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def close(self) -> None:
        """Stop every bot turn under way, and the pool. A turn still running :data:`STOP_WAIT`
        seconds after it was cancelled (Python 3.11's ``asyncio.wait_for`` can swallow a
        cancellation) is left behind with a warning rather than hold the shutdown up."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _, left = await asyncio.wait(tasks, timeout=STOP_WAIT)
            if left:
                said = "%d bot turn(s) still running %g s after the stop"
                log.warning(said, len(left), STOP_WAIT)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of the table's, held until it ends and cancelled by :meth:`close`."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def pool(self) -> Executor:
        """The bot worker pool: bots' moves, and thinking that is not a move (hints, reviews)."""
        if self._pool is None:
            workers = self.bot_workers or max(1, os.cpu_count() or 1)
            self._pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,  # a server killed with -9 takes its workers along
                initargs=(os.getpid(),),
            )
        return self._pool

    async def in_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the bot worker pool (:meth:`pool`); a pool a worker of which died
        (``BrokenExecutor``, raised) is started afresh on the next call."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool(), fn, *args)
        except BrokenExecutor:
            self._pool = None
            raise

    def schedule(self, table: Table) -> None:
        """Arrange for a bot to move if the seat to move is a bot, is away past the takeover
        time, or runs out of its turn timer; sets the ``deadline`` shown to clients."""
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.deadline = None
        game = table.game
        if table.status != PLAYING or game is None or game.is_over():
            return
        if table.waiting():
            self._schedule_wait_end(table)
            return
        seat = game.to_move
        if not 0 <= seat < table.players:
            return
        s = table.seats[seat]
        loop = asyncio.get_running_loop()
        now = loop.time()
        when: float | None = None
        reason = ""
        if s.kind == BOT:
            when, reason = now + self.bot_delay, BOT
        elif s.kind == HUMAN:
            if table.bot_takeover is not None and not s.conns:
                when = max(now + self.bot_delay, s.away_since + table.bot_takeover)
                reason = TAKEOVER
            if table.turn_timer:
                expiry = table.turn_start + table.turn_timer
                table.deadline = round(time.time() + (expiry - now), 3)
                if when is None or expiry < when:
                    when, reason = expiry, TIMER
        if when is None:
            return
        seq, number = table.moves, table.game_number
        table.timer = loop.call_later(
            max(0.0, when - now),
            lambda: self.spawn(self._bot_turn(table, seat, seq, number, reason)),
        )

    def _schedule_wait_end(self, table: Table) -> None:
        """While a hand's summary waits for Next hand, no one moves. The wait ends when the turn
        timer (if the table has one) runs out; a waited-for seat that has left is no longer
        waited for once it has been away for the takeover time (:data:`AWAY_GRACE` without
        one): a reload comes back to the same summary."""
        end = table.hand_end
        if end is None:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        whens = []
        if table.turn_timer:
            expiry = table.turn_start + table.turn_timer
            table.deadline = round(time.time() + (expiry - now), 3)
            whens.append(expiry)
        grace = AWAY_GRACE if table.bot_takeover is None else table.bot_takeover
        away = [table.seats[s] for s in end.waiting if not table.seats[s].conns]
        whens += [seat.away_since + grace for seat in away]
        if not whens:
            return
        seq, number = table.moves, table.game_number
        table.timer = loop.call_later(
            max(0.0, min(whens) - now), lambda: self.spawn(self._check_wait(table, seq, number))
        )

    async def _check_wait(self, table: Table, seq: int, number: int) -> None:
        async with table.lock:
            end = table.hand_end
            if table.moves != seq or table.game_number != number or not table.waiting():
                return
            assert end is not None
            now = asyncio.get_running_loop().time()
            grace = AWAY_GRACE if table.bot_takeover is None else table.bot_takeover
            if table.turn_timer and now >= table.turn_start + table.turn_timer - 0.01:
                table.end_wait()
            for s in sorted(end.waiting):
                seat = table.seats[s]
                if not seat.conns and now >= seat.away_since + grace - 0.01:
                    table.press_next(s)
            if not table.waiting():
                table.turn_start = now
            self.schedule(table)
            table.broadcast()

    async def _bot_turn(self, table: Table, seat: int, seq: int, number: int, reason: str) -> None:
        game = table.game
        if game is None or not self._still(table, seat, seq, number, reason):
            return
        s = table.seats[seat]
        name = s.bot if reason == BOT and s.bot else default_bot()
        view = game.view(seat)
        seed = bot_seed("table", game.seed, seat, seq)
        try:
            if name == RANDOM:
                move = choose_move(name, seed, view)
            else:
                move = await asyncio.wait_for(
                    self.in_pool(choose_move, name, seed, view), BOT_TIMEOUT
                )
        except Exception:
            log.exception("table %s: bot %s failed; playing a random legal move", table.id, name)
            move = choose_move(RANDOM, seed, view)
        async with table.lock:
            if not self._still(table, seat, seq, number, reason):
                return
            if reason == TAKEOVER and not s.takeover:
                s.takeover = True
                table.changed()
            try:
                await self.accept(table, seat, move, reason)
            except ActionError as exc:
                log.error("table %s: bot move refused: %s", table.id, exc.message)
                if exc.status == 503:  # not stored (the database is away): try again soon
                    table.timer = asyncio.get_running_loop().call_later(
                        STORE_RETRY, self.schedule, table
                    )
                elif table.timer is None:
                    self.schedule(table)

    @staticmethod
    def _still(table: Table, seat: int, seq: int, number: int, reason: str) -> bool:
        """Whether a bot move decided for (seat, seq) is still wanted."""
        game = table.game
        if game is None or table.status != PLAYING or game.to_move != seat:
            return False
        if (table.moves, table.game_number) != (seq, number) or seat >= table.players:
            return False
        s = table.seats[seat]
        if reason == BOT:
            return s.kind == BOT
        return s.kind == HUMAN and not (reason == TAKEOVER and s.conns)  # or the timer ran out
