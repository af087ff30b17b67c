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

from salad.bots.catalog import bot_word, reference_only
from salad.bots.decide import RANDOM, choose_move, exit_with_parent
from salad.bots.seeds import bot_seed
from salad.engine import Game
from salad.locale import _
from salad.moves import Move
from salad.server.errors import ActionError
from salad.server.info import available_bots
from salad.server.tables.fair import FairTurns
from salad.server.tables.pace import TIMINGS, Timing
from salad.server.tables.passing import Choices, choice_view, choices_of
from salad.server.tables.table import BOT, HUMAN, PLAYING, Table
from salad.view import Phase, View

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

POOL_PRELOAD = ("__main__", "salad.bots.decide", "salad.bots.assist", "salad.lab.review")
"""What the bot pool's fork server loads once, before it forks each worker: the server's main
module and those of the jobs the pool runs (a bot's move, a hint, a review's decision). A worker
then starts in a hundredth of a second, where each loaded them itself (about 0.4 s of CPU), and
shares their memory with the others."""


def pool_context() -> multiprocessing.context.BaseContext:
    """How the bot pool starts its workers: from multiprocessing's fork server, which loads
    :data:`POOL_PRELOAD` once (where there is one: not on Windows, which starts each afresh).
    Never a plain fork of the server: its event loop, threads and database connections are
    not the worker's to have."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(POOL_PRELOAD))
    return context


def bot_display_name(bot: str, seat: int) -> str:
    """A bot's name at the table, numbered as people count seats (from 1), in the language of
    the request that seats it (the host's): "Basic bot 2", "Robot de base 2". Stored as the
    seat's name, it is the name every page and record shows, as a person's would be."""
    name = _("{bot} bot {n}").format(bot=bot_word(bot), n=seat + 1)
    return name[:1].upper() + name[1:]  # the first letter only: the rest is the catalogue's


def check_bot(value: str | None, what: str = "bot") -> str:
    """A bot name a client sent, known here (the default bot when None); ActionError if not."""
    if value is None:
        return default_bot()
    name, bots = value.strip().lower(), available_bots()
    if reference_only(value):  # every table has a human: its host
        raise ActionError(
            _("{what}: {name} sees every hand; it plays only in the lab").format(
                what=what, name=name
            )
        )
    if name not in bots:
        raise ActionError(
            _("{what}: unknown bot {bot} (known: {known})").format(
                what=what, bot=repr(value), known=", ".join(bots)
            )
        )
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

    def __init__(
        self, accept: Accept, bot_delay: float | None = 0.0, bot_workers: int | None = None
    ):
        self.accept = accept
        self.bot_delay = bot_delay
        """Seconds every bot takes a card, whatever its table's pace (None: its pace's)."""
        self.bot_workers = bot_workers
        self._pool: Executor | None = None
        self.fair: FairTurns | None = None
        """Whose job runs next on the pool (made with it, on the event loop)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bots: dict[str, tuple[int, int, int]] = {}
        """By table id: the (seat, move number, game number) a bot is thinking about."""

    async def close(self) -> None:
        """Stop every bot turn under way, and the pool. A turn still running :data:`STOP_WAIT`
        seconds after it was cancelled (Python 3.11's ``asyncio.wait_for`` can swallow a
        cancellation) is left behind with a warning rather than hold the shutdown up."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _done, left = await asyncio.wait(tasks, timeout=STOP_WAIT)
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

    def workers(self) -> int:
        """The bot worker pool's processes: ``bot_workers``, else one a core."""
        return self.bot_workers or max(1, os.cpu_count() or 1)

    def pool(self) -> Executor:
        """The bot worker pool: bots' moves, and thinking that is not a move (hints, reviews)."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers(),
                mp_context=pool_context(),
                initializer=exit_with_parent,  # a server killed with -9 takes its workers along
            )
        return self._pool

    async def in_pool(self, share: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the bot worker pool (:meth:`pool`), in ``share``'s turn (a table's
        id, or the reviews': :class:`~.fair.FairTurns`, so that no table's bots take more than
        their share of it); a pool a worker of which died (``BrokenExecutor``, raised) is
        started afresh on the next call."""
        pool = self.pool()
        if self.fair is None:
            self.fair = FairTurns(self.workers())
        async with self.fair.turn(share):
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except BrokenExecutor:
                self._pool = None
                raise

    def timing(self, table: Table) -> Timing:
        """How long the table's bots take a card, and a finished trick stays: its pace's, or
        the server's ``bot_delay`` for both."""
        if self.bot_delay is not None:
            return Timing(bot=self.bot_delay, trick=self.bot_delay)
        return TIMINGS[table.pace]

    def schedule(self, table: Table) -> None:
        """Arrange for a bot to move if the seat to move is a bot, is away past the takeover
        time, or runs out of its turn timer; sets the ``deadline`` shown to clients. In a pass
        phase, every bot seat chooses at once, and a choice made before its seat's turn is
        played when that turn comes (:mod:`.passing`)."""
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
        if self._schedule_passes(table, game):
            return
        s = table.seats[seat]
        loop = asyncio.get_running_loop()
        now = loop.time()
        when: float | None = None
        reason = ""
        timing = self.timing(table)
        if s.kind == BOT:
            pause = (
                timing.trick if game.phase == Phase.PLAY and game.trick_no and not game.trick else 0
            )
            when, reason = now + max(timing.bot, pause), BOT
        elif s.kind == HUMAN:
            if table.bot_takeover is not None and not s.conns:
                when = max(now + timing.bot, s.away_since + table.bot_takeover)
                reason = TAKEOVER
            if table.turn_timer:
                expiry = table.turn_start + table.turn_timer
                table.deadline = round(time.time() + (expiry - now), 3)
                if when is None or expiry < when:
                    when, reason = expiry, TIMER
        if when is None:
            return
        seq, number = table.moves, table.game_number
        if reason == BOT and self._bots.get(table.id) == (seat, seq, number):
            return  # it is thinking already, and plays at its pace
        # A bot thinks at once and plays at ``when``: its thinking is in its pace, not after it.
        at, start = (when, now) if reason == BOT else (0.0, when)
        table.timer = loop.call_later(
            max(0.0, start - now),
            lambda: self.spawn(self._bot_turn(table, seat, seq, number, reason, at)),
        )

    def _schedule_passes(self, table: Table, game: Game) -> bool:
        """In a pass phase: start the choice of every bot seat that has not chosen (all at
        once), and play the choice of the seat to move if it is held; True when that is under
        way (nothing else to arrange)."""
        choices = choices_of(game, table.game_number, table.passes)
        table.passes = choices
        if choices is None:
            return False
        number, hand = table.game_number, game.hand_index
        for s, sitting in enumerate(table.seats):
            if sitting.kind == BOT and s not in choices.thinking and choices.needed(game, s):
                choices.thinking.add(s)
                self.spawn(self._bot_pass(table, choices, s))
        seat = game.to_move
        held = choices.held.get(seat)
        if held:
            # Played at once, but for the phase's last card: the cards go round once the
            # pace's pause has shown every seat its choice made.
            loop = asyncio.get_running_loop()
            when = 0.0
            if len(held) == 1 and choices.complete(game, seat):
                if choices.exchange_at is None:
                    choices.exchange_at = loop.time() + self.timing(table).trick
                when = choices.exchange_at
            seq, key = table.moves, (number, hand)
            table.timer = loop.call_later(
                max(0.0, when - loop.time()),
                lambda: self.spawn(self._play_held(table, seat, seq, key)),
            )
            return True
        return table.seats[game.to_move].kind == BOT  # its choice is being thought out

    async def _bot_pass(self, table: Table, choices: Choices, seat: int) -> None:
        """A bot seat's whole choice of cards to pass, thought out from its view as if its
        turn had come, held once its pace has passed, and played when its turn comes."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        game = table.game
        assert game is not None
        s = table.seats[seat]
        name = s.bot or default_bot()
        view = game.view(seat)
        chosen = view.passed | choices.mask(seat)
        moves: list[Move] = []
        try:
            for k in range(choices.needed(game, seat)):
                ask = choice_view(view, chosen)
                seed = bot_seed("table", game.seed, seat, table.moves + k)
                move = await self._choose(table, name, seed, ask)
                moves.append(move)
                chosen |= 1 << move
            await asyncio.sleep(max(0.0, start + self.timing(table).bot - loop.time()))
        except BaseException:
            choices.thinking.discard(seat)
            raise
        async with table.lock:
            choices.thinking.discard(seat)
            if table.passes is not choices or table.choices() is not choices:
                return
            now = table.game
            if (
                now is not None
                and table.seats[seat].kind == BOT
                and choices.needed(now, seat) == len(moves)
            ):
                choices.held.setdefault(seat, []).extend(moves)
            self.schedule(table)
            # Told only to a seat that has chosen, and waits for the others (nothing else it
            # draws changes): a seat still choosing is left in peace.
            if now is not None and any(
                sitting.conns and not choices.needed(now, s)
                for s, sitting in enumerate(table.seats)
            ):
                table.broadcast()

    async def _play_held(self, table: Table, seat: int, seq: int, key: tuple[int, int]) -> None:
        """Play the first card held for ``seat``, the seat to pass (the next follows from the
        schedule after it)."""
        async with table.lock:
            choices = table.choices()
            game = table.game
            if choices is None or choices.key != key or game is None or table.moves != seq:
                return
            held = choices.held.get(seat)
            if game.to_move != seat or not held:
                return
            move = held.pop(0)
            by = BOT if table.seats[seat].kind == BOT else "human"
            try:
                await self.accept(table, seat, move, by)
            except ActionError as exc:
                log.error("table %s: a held pass refused: %s", table.id, exc.message)
                choices.held.pop(seat, None)
                if exc.status == 503:
                    held.insert(0, move)
                    choices.held[seat] = held
                    table.timer = asyncio.get_running_loop().call_later(
                        STORE_RETRY, self.schedule, table
                    )
                elif table.timer is None:
                    self.schedule(table)

    async def _choose(self, table: Table, name: str, seed: int, view: View) -> Move:
        """Bot ``name``'s move in ``view``, thought out in the pool within the table's pace (a
        search bot thinks no longer than its pace gives a card; under ``--bot-delay``, its own
        budget), a random legal move if it fails or takes longer than :data:`BOT_TIMEOUT`."""
        budget = None if self.bot_delay is not None else TIMINGS[table.pace].bot
        try:
            if name == RANDOM:
                return choose_move(name, seed, view)
            thought = self.in_pool(table.id, choose_move, name, seed, view, budget)
            return await asyncio.wait_for(thought, BOT_TIMEOUT)
        except Exception:
            log.exception("table %s: bot %s failed; playing a random legal move", table.id, name)
            return choose_move(RANDOM, seed, view)

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

    async def _bot_turn(
        self, table: Table, seat: int, seq: int, number: int, reason: str, at: float = 0.0
    ) -> None:
        """A bot's move for ``seat``, thought out now and played no sooner than ``at`` (the
        loop's clock)."""
        game = table.game
        if game is None or not self._still(table, seat, seq, number, reason):
            return
        s = table.seats[seat]
        name = s.bot if reason == BOT and s.bot else default_bot()
        view = game.view(seat)
        seed = bot_seed("table", game.seed, seat, seq)
        thinking = (seat, seq, number)
        if reason == BOT:
            self._bots[table.id] = thinking
        try:
            move = await self._choose(table, name, seed, view)
            loop = asyncio.get_running_loop()
            if at > loop.time():
                await asyncio.sleep(at - loop.time())
        finally:
            if self._bots.get(table.id) == thinking:
                del self._bots[table.id]
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
