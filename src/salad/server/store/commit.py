"""Group commit: the store calls of one turn of the event loop go to the database together, as
one batch (one transaction): a server playing many tables pays one commit a turn, not a move.

The store says how a batch runs (``run_batch(ops)``: every op's result, all stored or none)
and how one call runs alone (``run_one(op)``; inline: a batch of one): a batch that fails is
run again call by call, so one bad call fails alone. :class:`InlineCommit` (SQLite: a commit
is a write to a local file) runs each batch on the event loop, at the end of its turn.
:class:`GroupCommit` runs the batches one after the other while the event loop goes on, each
with the calls that came while the one before ran; a batch not answered within ``timeout``
seconds is refused (:class:`~.base.StoreTimeout`; it may be stored after all) and left to end
on its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from salad.server.soon import Soon
from salad.server.store.base import StoreTimeout

log = logging.getLogger("salad.server")

Op = TypeVar("Op")

Outcome = tuple[bool, Any]
"""A call's outcome: (True, its result) or (False, the exception it raised)."""

MAX_BATCH = 1024
"""Calls in one batch at most."""


class _Turns(Generic[Op]):
    """The calls of a turn of the event loop, handed over together at its end (the server's
    one end-of-turn batcher, :class:`~salad.server.soon.Soon`), each with its future."""

    def __init__(self) -> None:
        self._turn: Soon[tuple[Op, asyncio.Future[Any]]] = Soon(self._hand_over)

    async def call(self, op: Op) -> Any:
        """Run ``op`` with the others of this turn; its result once committed (or its error)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._turn.add((op, future))
        return await future

    def _hand_over(self, calls: list[tuple[Op, asyncio.Future[Any]]]) -> None:
        raise NotImplementedError


class InlineCommit(_Turns[Op]):
    """A batch per turn of the event loop, run on the event loop itself."""

    def __init__(self, run_batch: Callable[[list[Op]], list[Any]]) -> None:
        super().__init__()
        self.run_batch = run_batch

    def _hand_over(self, calls: list[tuple[Op, asyncio.Future[Any]]]) -> None:
        for start in range(0, len(calls), MAX_BATCH):
            chunk = calls[start : start + MAX_BATCH]
            _settle(chunk, self._outcomes([op for op, _ in chunk]))

    def _outcomes(self, ops: list[Op]) -> list[Outcome]:
        try:
            return [(True, r) for r in self.run_batch(ops)]
        except Exception as exc:  # again one by one (a call alone too: on a new connection)
            log.debug("store: a batch of %d call(s) failed (%r): one by one", len(ops), exc)
        outcomes: list[Outcome] = []
        for op in ops:
            try:
                outcomes.append((True, self.run_batch([op])[0]))
            except Exception as exc:  # handed to the caller
                outcomes.append((False, exc))
        return outcomes

    async def close(self, timeout: float = 10.0) -> None:
        """Nothing waits: every batch ran in the turn its calls were made."""


class GroupCommit(_Turns[Op]):
    """A batch per turn of the event loop at most, run in a task; ``on_timeout()`` is told when
    a batch was refused for taking too long (the store lets go of its connection)."""

    def __init__(
        self,
        run_batch: Callable[[list[Op]], Awaitable[list[Any]]],
        run_one: Callable[[Op], Awaitable[Any]],
        timeout: float,
        on_timeout: Callable[[], object] = lambda: None,
    ) -> None:
        super().__init__()
        self.run_batch = run_batch
        self.run_one = run_one
        self.timeout = timeout
        self.on_timeout = on_timeout
        self._waiting: list[tuple[Op, asyncio.Future[Any]]] = []
        """The calls handed over, not yet run."""
        self._drainer: asyncio.Task[None] | None = None
        self._stuck: set[asyncio.Task[list[Outcome]]] = set()
        """Batches refused for taking too long, left to end on their own."""

    def _hand_over(self, calls: list[tuple[Op, asyncio.Future[Any]]]) -> None:
        self._waiting.extend(calls)
        if calls and self._drainer is None:
            self._drainer = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        """Run the calls waiting, a batch at a time, until none is left."""
        try:
            while self._waiting:
                calls = self._waiting[:MAX_BATCH]
                del self._waiting[: len(calls)]
                try:
                    _settle(calls, await self._execute([op for op, _ in calls]))
                except asyncio.CancelledError:  # the store closing: nothing more is run
                    _settle(calls + self._waiting, self._refused(len(calls) + len(self._waiting)))
                    self._waiting = []
                    raise
        finally:
            self._drainer = None

    async def _execute(self, ops: list[Op]) -> list[Outcome]:
        running = asyncio.get_running_loop().create_task(self._outcomes(ops))
        done, _ = await asyncio.wait([running], timeout=self.timeout)
        if done:
            return running.result()
        # The batch goes on (or is cancelled by its driver) without the callers: refused.
        running.cancel()
        self._stuck.add(running)
        running.add_done_callback(self._stuck.discard)
        self.on_timeout()
        log.warning("store: a batch of %d call(s) refused: no answer in time", len(ops))
        return self._refused(len(ops))

    def _refused(self, count: int) -> list[Outcome]:
        said = f"the database did not answer in {self.timeout:g} s"
        return [(False, StoreTimeout(said))] * count

    async def _outcomes(self, ops: list[Op]) -> list[Outcome]:
        try:
            return [(True, r) for r in await self.run_batch(ops)]
        except Exception as exc:  # again one by one (a call alone too: on a new connection)
            log.debug("store: a batch of %d call(s) failed (%r): one by one", len(ops), exc)
        outcomes: list[Outcome] = []
        for op in ops:
            try:
                outcomes.append((True, await self.run_one(op)))
            except Exception as exc:  # handed to the caller
                outcomes.append((False, exc))
        return outcomes

    async def close(self, timeout: float = 10.0) -> None:
        """Run what waits (for at most ``timeout`` seconds); batches still stuck then are
        cancelled and not waited for."""
        if self._drainer is not None:
            await asyncio.wait([self._drainer], timeout=timeout)
        if self._drainer is not None:
            self._drainer.cancel()
        for stuck in list(self._stuck):
            stuck.cancel()


def _settle(calls: list[tuple[Any, asyncio.Future[Any]]], outcomes: list[Outcome]) -> None:
    for (_, future), (ok, value) in zip(calls, outcomes, strict=True):
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
