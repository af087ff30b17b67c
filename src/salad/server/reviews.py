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
import json
import logging
import os
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

Key = tuple[str, int, int]


@dataclass
class Job:
    """A review under way (or failed) in this process."""

    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)


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
        # One review at a time per process (the others wait at 0 done): workers stay free for
        # the bots at the tables.
        self.one_at_a_time = asyncio.Semaphore(1)

    async def _record(
        self, table_id: str, number: int, seat: int, token: str | None
    ) -> dict[str, Any]:
        """The finished game's record, once the token may see seat ``seat``'s review."""
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
        return await self.manager.record(table_id, number)

    async def _stored(self, key: Key) -> str | None:
        table_id, number, seat = key
        return await self.manager.storage.load_review(table_id, number, seat, self.options.worlds)

    async def status(self, table_id: str, number: int, seat: int, token: str | None) -> str:
        """The review's progress or the review itself, as JSON text."""
        await self._record(table_id, number, seat, token)
        return await self._answer((table_id, number, seat))

    async def start(self, table_id: str, number: int, seat: int, token: str | None) -> str:
        """Start the review unless it is stored or under way; its status as JSON text."""
        record = await self._record(table_id, number, seat, token)
        key = (table_id, number, seat)
        job = self.jobs.get(key)
        if (job is None or job.error is not None) and await self._stored(key) is None:
            try:
                game = finished_game(record, number)
            except SaladError as exc:
                raise ActionError(str(exc), 409) from None
            job = self.jobs[key] = Job(total=count_decisions(game, seat))
            job.task = asyncio.get_running_loop().create_task(self._run(key, record, job))
        return await self._answer(key)

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

    async def _run(self, key: Key, record: dict[str, Any], job: Job) -> None:
        table_id, number, seat = key
        try:
            async with self.one_at_a_time:
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
            decisions.append(await turns.in_pool(review_one, record, seat, index, self.options))
            job.done = index + 1
        return decisions
