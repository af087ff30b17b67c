"""What a table keeps outside this server's memory while it is played, so that the node that
takes it over goes on from where it was: its talk (:mod:`salad.server.tables.talk`) and who has
pressed Next hand (:class:`salad.server.tables.table.HandEnd`). The game itself is in the
database; these two are not stored there, because one server that restarts may forget them.

On a cluster the keeper is Redis (:class:`salad.server.cluster.link.Link`), written only by
the node holding the table, and a table that leaves memory for being idle forgets what it kept,
as one server does. Without a keeper (one server) nothing is kept.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Protocol

__all__ = ["KEEP_TIMEOUT", "PARTS", "PRESSED", "TALK", "Keeper", "keep", "recall"]

log = logging.getLogger("salad.server")

TALK, PRESSED = "talk", "pressed"
PARTS = (TALK, PRESSED)
"""What a table keeps, each one JSON text."""

KEEP_TIMEOUT = 2.0
"""Seconds a change waits to be kept or recalled; past them it goes on unkept."""


class Keeper(Protocol):
    async def keep(self, table_id: str, part: str, text: str) -> None:
        """Keep ``text`` as the table's ``part``, if this node holds the table (else nothing)."""
        ...

    async def recall(self, table_id: str, part: str) -> str | None: ...


async def keep(keeper: Keeper | None, table_id: str, part: str, value: Any) -> None:
    """Keep ``value`` (as JSON); a keeper that does not answer is logged, and play goes on:
    neither the chat nor a press of Next hand is worth refusing for."""
    if keeper is None:
        return
    try:
        async with asyncio.timeout(KEEP_TIMEOUT):
            await keeper.keep(table_id, part, json.dumps(value))
    except Exception as exc:  # Redis away: one warning, the change is made unkept
        log.warning("table %s: its %s could not be kept (%s)", table_id, part, exc)


async def recall(keeper: Keeper | None, table_id: str, part: str) -> Any:
    """What the table's last holder kept of ``part`` (decoded), or None."""
    if keeper is None:
        return None
    try:
        async with asyncio.timeout(KEEP_TIMEOUT):
            text = await keeper.recall(table_id, part)
        return None if text is None else json.loads(text)
    except Exception as exc:  # Redis away, or not our text: the table goes on without it
        log.warning("table %s: its %s could not be recalled (%s)", table_id, part, exc)
        return None
