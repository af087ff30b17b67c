"""Game reviews on the server: run on the bot worker pool, stored with the game.

``POST /api/tables/{id}/games/{n}/review?seat=S`` starts the review of seat S of finished game
n, one decision per pool task (:func:`salad.lab.review.review_one`: bot moves at other tables
keep their turn between them); ``GET`` answers its progress, then the review, stored once done
(:meth:`TableStore.save_review`) for every later look. Its worlds per decision are ``salad
review``'s (:data:`salad.lab.review.DEFAULT_WORLDS`; ``SALAD_REVIEW_WORLDS`` overrides them).

Who may look: a player of the table (a seat's token) reviews their own seat; once no game is
under way, anyone who sat there may review any seat. An unfinished game is never reviewed: the
search's inferences would leak what the other hands hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from salad.errors import SaladError
from salad.lab.review import (
    DEFAULT_WORLDS,
    ReviewOptions,
    count_decisions,
    finished_game,
    game_review,
    player_names,
    review_one,
    seat_review,
)
from salad.lab.review_model import Decision
from salad.locale import _
from salad.server.errors import ActionError
from salad.server.tables import TableManager
from salad.server.tables.table import OVER, PLAYING

log = logging.getLogger("salad.server")

WORLDS_ENV = "SALAD_REVIEW_WORLDS"

WAITING = 16
"""Reviews under way or waiting in a process, past which a new one is refused (503, "busy"):
one runs at a time, a few minutes each on a small server."""

EACH = 2
"""Reviews under way or waiting for one seat of one table (its token), past which it is
refused (429): a player waits for theirs before asking for more."""

REVIEWS = "reviews"
"""The reviews' share of the bot worker pool (:class:`~.tables.fair.FairTurns`): one share
for them all, as a table's bots are one."""

Key = tuple[str, int, int]


@dataclass
class Job:
    """A review under way (or failed) in this process, asked for by ``asker`` (a table's
    id and the asking seat)."""

    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    asker: tuple[str, int] = ("", -1)

    def open(self) -> bool:
        """Under way or waiting."""
        return self.task is not None and not self.task.done()


class Turnstile:
    """One review at a time, the lowest ``(priority, arrival)`` first: the game a table has
    just finished before older games (its players are looking at it now)."""

    def __init__(self) -> None:
        self.busy = False
        self.arrivals = 0
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []

    @contextlib.asynccontextmanager
    async def turn(self, priority: int) -> AsyncIterator[None]:
        if self.busy or self.waiting:
            ready = asyncio.get_running_loop().create_future()
            self.arrivals += 1
            heapq.heappush(self.waiting, (priority, self.arrivals, ready))
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._next()  # its turn was given: hand it on
                raise
        self.busy = True
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        self.busy = False
        while self.waiting:
            _priority, _n, ready = heapq.heappop(self.waiting)
            if not ready.cancelled():
                self.busy = True
                ready.set_result(None)
                return


def _worlds() -> int:
    text = os.environ.get(WORLDS_ENV, "")
    try:
        worlds = int(text) if text else DEFAULT_WORLDS
    except ValueError:
        raise SaladError(f"{WORLDS_ENV}: must be a whole number, not {text!r}") from None
    if worlds < 1:
        raise SaladError(f"{WORLDS_ENV}: must be 1 or more, not {worlds}")
    return worlds


class Reviews:
    """The reviews of one server process's tables."""

    def __init__(self, manager: TableManager, worlds: int | None = None) -> None:
        self.manager = manager
        self.options = ReviewOptions(worlds=worlds or _worlds())
        self.jobs: dict[Key, Job] = {}
        # One review at a time per process (the others wait at 0 done, at most WAITING of
        # them): workers stay free for the bots at the tables.
        self.one_at_a_time = Turnstile()

    async def _record(
        self, table_id: str, number: int, seat: int, token: str | None
    ) -> tuple[dict[str, Any], int, bool]:
        """The finished game's record, once the token may see seat ``seat``'s review; the
        token's seat, and whether the game is the one the table has just finished."""
        table = await self.manager.get(table_id)
        if not token:
            raise ActionError(_("missing token: send Authorization: Bearer TOKEN"), 401)
        mine = table.seat_of_token(token)
        if mine is None:
            raise ActionError(_("wrong token for table {table}").format(table=table_id), 401)
        if not 1 <= number <= table.game_number:
            raise ActionError(
                _("table {table} has no game {n}").format(table=table_id, n=number), 404
            )
        if number == table.game_number and table.status != OVER:
            raise ActionError(
                _(
                    "review: game {n} is not finished; a review of an unfinished game "
                    "would reveal what the search infers"
                ).format(n=number),
                409,
            )
        if not 0 <= seat < table.players:
            raise ActionError(
                _("seat: {seat} is not a seat of this table (0 to {last})").format(
                    seat=seat, last=table.players - 1
                )
            )
        if seat != mine and table.status == PLAYING:
            raise ActionError(
                _(
                    "seat: while a game is under way you may review only your own seat ({seat})"
                ).format(seat=mine),
                403,
            )
        latest = number == table.game_number and table.status == OVER
        return await self.manager.record(table_id, number), mine, latest

    async def _stored(self, key: Key) -> str | None:
        table_id, number, seat = key
        return await self.manager.storage.load_review(table_id, number, seat, self.options.worlds)

    async def status(self, table_id: str, number: int, seat: int, token: str | None) -> str:
        """The review's progress or the review itself, as JSON text."""
        await self._record(table_id, number, seat, token)
        return await self._answer((table_id, number, seat))

    async def start(self, table_id: str, number: int, seat: int, token: str | None) -> str:
        """Start the review unless it is stored or under way; its status as JSON text."""
        record, mine, latest = await self._record(table_id, number, seat, token)
        key = (table_id, number, seat)
        job = self.jobs.get(key)
        if (job is None or job.error is not None) and await self._stored(key) is None:
            try:
                game = finished_game(record, number)
            except SaladError as exc:
                raise ActionError(str(exc), 409) from None
            self._admit((table_id, mine))
            job = self.jobs[key] = Job(total=count_decisions(game, seat), asker=(table_id, mine))
            run = self._run(key, record, job, 0 if latest else 1)
            job.task = asyncio.get_running_loop().create_task(run)
        return await self._answer(key)

    def _admit(self, asker: tuple[str, int]) -> None:
        """Refuse a new review past :data:`EACH` for its asker or :data:`WAITING` in all."""
        open_jobs = [job for job in self.jobs.values() if job.open()]
        if sum(job.asker == asker for job in open_jobs) >= EACH:
            said = _("review: you have {n} reviews under way; wait for them to finish")
            raise ActionError(said.format(n=EACH), 429)
        if len(open_jobs) >= WAITING:
            raise ActionError(
                _("review: the server is busy with other reviews; try again later"), 503
            )

    async def _answer(self, key: Key) -> str:
        job = self.jobs.get(key)
        if job is not None and job.error is not None:
            return json.dumps({"status": "failed", "error": job.error})
        if job is not None and job.task is not None and not job.task.done():
            return json.dumps({"status": "running", "done": job.done, "total": job.total})
        stored = await self._stored(key)
        if stored is None:
            return json.dumps({"status": "none"})
        count = len(json.loads(stored)["seats"][0]["decisions"])
        return f'{{"status": "done", "done": {count}, "total": {count}, "review": {stored}}}'

    async def _run(self, key: Key, record: dict[str, Any], job: Job, priority: int) -> None:
        table_id, number, seat = key
        try:
            async with self.one_at_a_time.turn(priority):
                decisions = await self._decisions(record, seat, job)
            game = finished_game(record, number)
            names = player_names(record)
            seats = [seat_review(game, seat, names[seat], decisions, False)]
            review = game_review(record, game, seats, self.options, number)
            await self.manager.storage.save_review(
                table_id, number, seat, self.options.worlds, review.model_dump_json()
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("table %s: the review of game %d, seat %d failed", *key)
            job.error = " ".join(f"review failed: {exc}".split())
            return
        self.jobs.pop(key, None)  # stored: every later look reads the database

    async def _decisions(self, record: dict[str, Any], seat: int, job: Job) -> list[Decision]:
        """Every decision of the seat reviewed on the bot worker pool, one task each."""
        turns = self.manager.turns
        decisions: list[Decision] = []
        for index in range(job.total):
            decisions.append(
                await turns.in_pool(REVIEWS, review_one, record, seat, index, self.options)
            )
            job.done = index + 1
        return decisions
