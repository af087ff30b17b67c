"""Fair work on the bot worker pool and for reviews (issue #40): the tables share the pool by
the time they use (:class:`FairTurns`), and reviews run one at a time, the game a table has
just finished first (:class:`Turnstile`). In process, with jobs that sleep as a worker thinks;
benchmarks/fair_work.py measures the same on a real server."""

from __future__ import annotations

import asyncio
import contextlib
import statistics
from collections.abc import AsyncIterator, Callable
from typing import Any

from salad.server.reviews import Turnstile
from salad.server.tables.fair import FairTurns

SLOW, QUICK = 0.02, 0.001
"""How long an expert's and a basic bot's jobs hold a slot (seconds)."""


class Fifo:
    """The pool as it was: jobs in the order asked (an asyncio semaphore)."""

    def __init__(self, slots: int) -> None:
        self.slots = asyncio.Semaphore(slots)

    @contextlib.asynccontextmanager
    async def turn(self, share: str) -> AsyncIterator[None]:
        async with self.slots:
            yield


async def quick_waits(turns: Any, experts: int) -> list[float]:
    """How long a quick table's jobs wait for their turn while ``experts`` tables keep slow
    jobs coming (each table one job at a time, as a table's bots take turns)."""
    loop = asyncio.get_running_loop()
    stop = False

    async def expert(n: int) -> None:
        while not stop:
            async with turns.turn(f"expert-{n}"):
                await asyncio.sleep(SLOW)

    flood = [asyncio.create_task(expert(n)) for n in range(experts)]
    await asyncio.sleep((experts // 2 + 2) * SLOW)  # every expert has had a turn: the flood
    waits = []
    for _ in range(15):
        asked = loop.time()
        async with turns.turn("basic"):
            waits.append(loop.time() - asked)
            await asyncio.sleep(QUICK)
        await asyncio.sleep(0.005)  # the table's next bot, a moment later
    stop = True
    await asyncio.gather(*flood)
    return waits


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def test_a_quick_table_waits_for_one_slow_job_at_most_among_many() -> None:
    """Eight tables of slow jobs on two slots: the quick table waits at most about one slow job
    (its p95), where in the order asked it waited behind four of them."""

    def run(make: Callable[[int], Any], experts: int) -> list[float]:
        return asyncio.run(quick_waits(make(2), experts))

    quiet = p95(run(FairTurns, 0))
    fair = p95(run(FairTurns, 8))
    fifo = p95(run(Fifo, 8))
    assert quiet < SLOW / 4, quiet
    assert fair <= SLOW * 1.5, (fair, fifo)
    assert fifo > 3 * SLOW, (fair, fifo)  # the test can tell: first come was unfair


def test_a_waiting_job_cancelled_hands_its_turn_on() -> None:
    async def run() -> list[str]:
        turns, order = FairTurns(1), []

        async def job(share: str) -> None:
            async with turns.turn(share):
                order.append(share)
                await asyncio.sleep(0.01)

        first = asyncio.create_task(job("a"))
        await asyncio.sleep(0)
        gone = asyncio.create_task(job("b"))
        last = asyncio.create_task(job("c"))
        await asyncio.sleep(0)
        gone.cancel()
        await asyncio.gather(first, last, return_exceptions=True)
        assert turns.running == 0 and not turns.waiting
        return order

    assert asyncio.run(run()) == ["a", "c"]


def test_reviews_run_one_at_a_time_the_just_finished_game_first() -> None:
    async def run() -> list[str]:
        gate, order = Turnstile(), []

        async def review(name: str, priority: int) -> None:
            async with gate.turn(priority):
                order.append(name)
                await asyncio.sleep(0.005)

        tasks = [asyncio.create_task(review("old-1", 1))]
        await asyncio.sleep(0)
        tasks += [asyncio.create_task(review("old-2", 1))]
        tasks += [asyncio.create_task(review("just-finished", 0))]
        await asyncio.gather(*tasks)
        return order

    assert asyncio.run(run()) == ["old-1", "just-finished", "old-2"]
