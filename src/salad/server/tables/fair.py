"""Fair turns on the bot worker pool: the tables share it by the time they use, not by who asks
first (issue #40).

A table of expert bots thinks for up to a second a card; a table of basic bots, a few
milliseconds. Asked in order, the pool would make every quick table wait behind each expert's
thought. :class:`FairTurns` lets at most ``slots`` jobs run at once and, when one ends, starts
the waiting job of the share (a table, or the reviews) that has used the least of the pool:
start-time fair queuing, each share's tag moving on by the time its jobs took. A share that has
been idle starts again level with the busiest's present, not with credit for its idle time.

>>> import asyncio
>>> async def demo() -> list[str]:
...     fair, order = FairTurns(1), []
...     async def job(share: str, seconds: float) -> None:
...         async with fair.turn(share):
...             order.append(share)
...             await asyncio.sleep(seconds)
...     await asyncio.gather(job("expert", 0.05), job("expert", 0.05), job("basic", 0.0))
...     return order
>>> asyncio.run(demo())
['expert', 'basic', 'expert']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator


class FairTurns:
    """At most ``slots`` jobs at once; the next one from the share that has used the least."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.running = 0
        self.now = 0.0
        """The virtual time: the tag of the job started last."""
        self.tags: dict[str, float] = {}
        """Each share's tag: the virtual time its next job starts at."""
        self.costs: dict[str, float] = {}
        """How long each share's last job held its slot (what its next is expected to)."""
        self.waiting: dict[str, deque[tuple[int, asyncio.Future[None]]]] = {}
        self.asked = 0

    @contextlib.asynccontextmanager
    async def turn(self, share: str) -> AsyncIterator[None]:
        """Wait for a slot and for the share's turn; the share's tag moves on by the time the
        job held the slot."""
        loop = asyncio.get_running_loop()
        if self.running < self.slots and not self.waiting:
            self._start(share)
        else:
            ready = loop.create_future()
            self.asked += 1
            self.waiting.setdefault(share, deque()).append((self.asked, ready))
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():
                    self._end(share, 0.0)  # its slot was given: hand it on
                else:
                    self._forget(share, ready)
                raise
        began = loop.time()
        try:
            yield
        finally:
            self._end(share, loop.time() - began)

    def _start(self, share: str) -> None:
        tag = max(self.now, self.tags.get(share, 0.0))
        self.tags[share] = self.now = tag
        self.running += 1

    def _end(self, share: str, seconds: float) -> None:
        self.tags[share] = self.tags.get(share, self.now) + seconds
        self.costs[share] = seconds
        self.running -= 1
        while self.running < self.slots and self.waiting:
            nxt = min(self.waiting, key=self._finish)
            queue = self.waiting[nxt]
            _asked, ready = queue.popleft()
            if not queue:
                del self.waiting[nxt]
            if ready.cancelled():
                continue
            self._start(nxt)
            ready.set_result(None)
        if len(self.tags) > 4 * self.slots + 256:  # forget the shares level with the present
            keep = {s for s, t in self.tags.items() if t > self.now or s in self.waiting}
            self.tags = {s: self.tags[s] for s in keep}
            self.costs = {s: self.costs[s] for s in keep if s in self.costs}

    def _finish(self, share: str) -> tuple[float, int]:
        """When the share's next job would end in virtual time, and when it was asked."""
        start = max(self.now, self.tags.get(share, 0.0))
        return start + self.costs.get(share, 0.0), self.waiting[share][0][0]

    def _forget(self, share: str, ready: asyncio.Future[None]) -> None:
        queue = self.waiting.get(share)
        if queue is None:
            return
        for item in queue:
            if item[1] is ready:
                queue.remove(item)
                break
        if not queue:
            del self.waiting[share]
