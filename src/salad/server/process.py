"""How a server process runs: uvicorn's options and the garbage collector's tuning, the same
for ``salad serve`` in one process and for each of its workers."""

from __future__ import annotations

import gc
from typing import Any

__all__ = ["GC_THRESHOLDS", "UVICORN_OPTIONS", "tune_gc"]

GC_THRESHOLDS = (50_000, 20, 10)
"""Young-generation size and the older generations' ratios once the server runs (see below)."""

UVICORN_OPTIONS: dict[str, Any] = {
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "ws_max_size": 64 * 1024,  # a client message is a few dozen bytes
}
"""How uvicorn runs the app, in one process or in each worker."""


def tune_gc() -> None:
    """Keep the garbage collector from stalling a busy server.

    A server making thousands of small objects a second under Python's default thresholds
    (700, 10, 10) spent about a fifth of its time in the collector, and its full collections
    (scanning every table in memory) paused every table at once for up to 0.2 s: the slowest
    moves of the load benchmark. The objects made while starting (modules, the app) never
    become garbage, so they are frozen out of every collection, and the young generation is
    made large enough that it is collected a few times a second instead of hundreds.
    Reference cycles are still collected; memory is still freed by reference counting.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
