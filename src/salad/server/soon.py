"""The server's one end-of-turn batcher: what is asked during one turn of the event loop, done
together at its end (a turn's websocket writes, a table's broadcast, the store's group commit)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Soon(Generic[T]):
    """Items added during one turn of the event loop, handed together, in the order added, to
    ``flush`` once the callbacks already scheduled have run (``loop.call_soon``).

    ``flush`` runs once per turn in which something was added, with a list of its own (items
    added while it runs go to the next turn's); an exception it raises goes to the event loop's
    exception handler, which logs it. One event loop at a time uses a ``Soon`` (no lock).
    """

    __slots__ = ("_flush", "_items")

    def __init__(self, flush: Callable[[list[T]], object]) -> None:
        self._flush = flush
        self._items: list[T] = []

    def add(self, item: T) -> None:
        """Hand ``item`` to the flush at the end of this turn (in a running event loop)."""
        if not self._items:
            asyncio.get_running_loop().call_soon(self._run)
        self._items.append(item)

    def _run(self) -> None:
        items, self._items = self._items, []
        self._flush(items)
