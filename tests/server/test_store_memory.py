"""The in-memory store keeps the SQL store's contract: the same calls on MemoryStore and on
SqlStore (SQLite) give the same answers and the same refusals, so the manager's unit tests on
MemoryStore say what the server does on a database."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from salad.server.store import (
    DuplicateMove,
    MemoryStore,
    MoveRow,
    SeatRow,
    SqlStore,
    StaleCopy,
    TableRow,
    TableStore,
)

REFUSED_TWICE = (IntegrityError, DuplicateMove)
"""How each store refuses a move numbered twice."""


@pytest.fixture(params=["memory", "sqlite"])
def make(request: Any, tmp_path: Path) -> Callable[[], TableStore]:
    if request.param == "memory":
        return MemoryStore
    return lambda: SqlStore(str(tmp_path / "t.db"))


def run(make: Callable[[], TableStore], body: Callable[[TableStore], Awaitable[None]]) -> None:
    async def main() -> None:
        store = make()
        await store.open()
        try:
            await body(store)
        finally:
            await store.close()

    asyncio.run(main())


def row(table_id: str) -> TableRow:
    seats = [SeatRow(0, "human", "Host", None, "h"), SeatRow(1, "bot", "B", "random")]
    return TableRow(table_id, "canadian", {"a": 1}, 2, None, 5.0, "lobby", 1, 7, seats)


def test_a_table_its_seats_games_and_moves(make: Callable[[], TableStore]) -> None:
    async def body(store: TableStore) -> None:
        await store.create_table(row("t1"))
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.seats == row("t1").seats
        assert (loaded.settings, loaded.bot_takeover, loaded.seed) == ({"a": 1}, 5.0, 7)
        assert await store.load_table("t2") is None
        assert await store.table_exists("t1") and not await store.table_exists("t2")
        await store.save_seats("t1", [SeatRow(0, "human", "Host", None, "h")])
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.players == 1 and len(loaded.seats) == 1
        await store.start_game("t1", 1, 99, [{"name": "Host"}])
        assert await store.active_tables() == ["t1"]
        await store.add_move("t1", 1, MoveRow(1, 0, 5, "5C"))
        await store.add_move("t1", 1, MoveRow(2, 0, 6, "6C"))
        with pytest.raises(REFUSED_TWICE):
            await store.add_move("t1", 1, MoveRow(2, 0, 7, "7C"))
        await store.take_back("t1", 1, 1, [{"name": "Host", "undos": 1}])
        assert [m.seq for m in await store.moves("t1", 1)] == [1]
        await store.add_move("t1", 1, MoveRow(2, 0, 8, "8C", "bot"), ([3], [0]))
        game = await store.game("t1", 1)
        assert game is not None and (game.status, game.totals, game.winners) == ("over", [3], [0])
        assert game.players == [{"name": "Host", "undos": 1}] and game.seed == 99
        assert [g.game_number for g in await store.games("t1")] == [1]
        assert await store.game("t1", 2) is None
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.status == "over"
        assert await store.active_tables() == []
        await store.start_game("t1", 2, 5, [{"name": "Host"}])  # a rematch
        assert await store.active_tables() == ["t1"]
        assert [(m.code, m.by) for m in await store.moves("t1", 1)] == [
            ("5C", "human"),
            ("8C", "bot"),
        ]
        await store.save_review("t1", 1, 0, 30, '{"r": 1}')
        await store.save_review("t1", 1, 0, 30, '{"r": 2}')  # the same key: replaced
        assert await store.load_review("t1", 1, 0, 30) == '{"r": 2}'
        assert await store.load_review("t1", 1, 1, 30) is None
        await store.ping()

    run(make, body)


def test_fencing_refuses_every_change_of_a_stale_copy(make: Callable[[], TableStore]) -> None:
    async def body(store: TableStore) -> None:
        await store.create_table(row("t1"))
        await store.create_table(row("t2"))
        assert await store.fence("nope") == 0
        old = await store.fence("t1")
        new = await store.fence("t1")
        e2 = await store.fence("t2")
        assert (old, new, e2) == (1, 2, 1)
        seats = [SeatRow(0, "human", "Host", None, "h")]
        with pytest.raises(StaleCopy):
            await store.save_seats("t1", seats, epoch=old)
        with pytest.raises(StaleCopy):
            await store.start_game("t1", 1, 5, [], epoch=old)
        assert await store.games("t1") == []
        await store.start_game("t1", 1, 5, [], epoch=new)
        await store.start_game("t2", 1, 5, [], epoch=e2)
        with pytest.raises(StaleCopy):
            await store.add_move("t1", 1, MoveRow(1, 0, 1, "C"), None, old)
        with pytest.raises(StaleCopy):
            await store.add_move("t2", 1, MoveRow(1, 0, 1, "C"), None, e2 - 1)
        assert await store.moves("t2", 1) == []
        await store.add_move("t1", 1, MoveRow(1, 0, 1, "C"), None, new)
        with pytest.raises(StaleCopy):
            await store.take_back("t1", 1, 0, [], epoch=old)
        assert [m.seq for m in await store.moves("t1", 1)] == [1]

    run(make, body)


def test_what_a_table_keeps_comes_back_with_it_and_is_fenced(
    make: Callable[[], TableStore],
) -> None:
    """A table's talk and presses (TableStore.keep) come back with load_table, JSON as kept;
    a stale copy keeps nothing; a part the store does not know is refused."""

    async def body(store: TableStore) -> None:
        await store.create_table(row("t1"))
        loaded = await store.load_table("t1")
        assert loaded is not None and (loaded.talk, loaded.pressed) == (None, None)
        talk = {"lines": [{"seat": 0, "name": "Host", "at": 1.5, "text": "hi"}], "spectators": True}
        await store.keep("t1", "talk", talk)
        old, new = await store.fence("t1"), await store.fence("t1")
        await store.keep("t1", "pressed", {"game": 1, "moves": 52, "waiting": [2]}, epoch=new)
        with pytest.raises(StaleCopy):
            await store.keep("t1", "talk", {"lines": [], "spectators": False}, epoch=old)
        with pytest.raises(ValueError):
            await store.keep("t1", "seed", 3)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.talk == talk
        assert loaded.pressed == {"game": 1, "moves": 52, "waiting": [2]}

    run(make, body)
