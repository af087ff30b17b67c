"""Every change a cluster node stores from its copy of a table is fenced, not only moves: once
another node has loaded the table (a node frozen past its lease wakes up with a stale copy), a
seat change, a start or an undo from the stale copy is refused, stores nothing, and the copy is
let go (its next request loads the table as the database has it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from salad.formats.rules import load_ruleset
from salad.server.errors import ActionError
from salad.server.store import MemoryStore
from salad.server.tables import Conn, TableManager, assist
from salad.server.tables.placement import SingleNode

from .test_tables import FakeSocket


class Fenced(SingleNode):
    """Every table this server's, loaded under a fencing epoch as a cluster node's."""

    fencing = True


def fenced_manager(tmp_path: Path) -> TableManager:
    return TableManager(MemoryStore(), placement=Fenced())


async def stale(manager: TableManager, table_id: str, change: Callable[[], Awaitable[Any]]) -> None:
    """Another node loads the table (its epoch goes up); then ``change`` from this copy is
    refused with 409 and this copy is let go."""
    await manager.storage.fence(table_id)
    with pytest.raises(ActionError) as caught:
        await change()
    assert caught.value.status == 409, caught.value.message
    assert table_id not in manager.tables


def test_a_seat_change_from_a_stale_copy_is_refused(tmp_path: Path) -> None:
    async def run() -> None:
        manager = fenced_manager(tmp_path)
        await manager.open()
        try:
            joined = await manager.create(load_ruleset("canadian"), "Host", [("open", None)] * 3)
            tid = joined.table_id
            await stale(manager, tid, lambda: manager.join(tid, "Guest", None))
            row = await manager.storage.load_table(tid)
            assert row is not None and [s.kind for s in row.seats[1:]] == ["open"] * 3
            # Loaded again (a new epoch), the table takes the seat.
            assert (await manager.join(tid, "Guest", None)).seat == 1
        finally:
            await manager.close()

    asyncio.run(run())


def test_a_start_from_a_stale_copy_is_refused(tmp_path: Path) -> None:
    async def run() -> None:
        manager = fenced_manager(tmp_path)
        await manager.open()
        try:
            joined = await manager.create(load_ruleset("canadian"), "Host", [("bot", "random")] * 3)
            tid = joined.table_id
            await stale(manager, tid, lambda: manager.start(tid, joined.token))
            assert await manager.storage.games(tid) == []
            row = await manager.storage.load_table(tid)
            assert row is not None and row.status == "lobby"
        finally:
            await manager.close()

    asyncio.run(run())


def test_an_undo_from_a_stale_copy_is_refused(tmp_path: Path) -> None:
    async def run() -> None:
        manager = fenced_manager(tmp_path)
        await manager.open()
        try:
            joined = await manager.create(
                load_ruleset("canadian"), "Host", [("bot", "random")] * 3, start=True
            )
            tid = joined.table_id
            table = manager.tables[tid]
            sock = FakeSocket()
            conn = Conn(sock, 0)
            await manager.connect(table, conn)

            async def hosts_turn() -> None:  # the bots play up to the host's turn
                for _ in range(500):
                    game = table.game
                    assert game is not None
                    if game.to_move == 0 and game.legal_moves():
                        return
                    await asyncio.sleep(0.02)
                raise AssertionError("the bots did not play up to the host's turn")

            await hosts_turn()
            game = table.game
            assert game is not None
            await manager.play(table, 0, game.format_move(game.legal_moves()[0]), conn)
            await hosts_turn()  # nothing under way now: only the undo is under test
            stored = len(await manager.storage.moves(tid, 1))
            assert stored >= 4

            await stale(
                manager, tid, lambda: assist.undo(table, conn, manager.registry, manager.turns)
            )
            assert len(await manager.storage.moves(tid, 1)) == stored
        finally:
            await manager.close()

    asyncio.run(run())
