"""The table manager in process (no network): what is visible while a move is being stored, a
table held elsewhere, and the states that Next-hand presses send."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, MutableMapping
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any

import pytest

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.server.ratelimit import RateLimits
from salad.server.sockets import TableSockets
from salad.server.store import MemoryStore
from salad.server.tables import Conn, Joined, Table, TableManager
from salad.server.tables.placement import Placement, SingleNode
from salad.server.tables.registry import STALE
from salad.server.tables.turns import STOP_WAIT, Turns


class FakeSocket:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


async def written() -> None:
    """Let what the connections were sent go out (a task of each writes its outbox)."""
    for _ in range(3):
        await asyncio.sleep(0)


@contextlib.asynccontextmanager
async def lobby(
    tmp_path: Path, guests: int = 3, placement: Placement | None = None, **options: Any
) -> AsyncIterator[tuple[TableManager, Joined]]:
    """A table manager on a store in memory (and ``placement``), with a table in its lobby
    (the host and ``guests`` open seats); closed after."""
    manager = TableManager(MemoryStore(), placement=placement)
    await manager.open()
    try:
        seats: list[tuple[str, str | None]] = [("open", None)] * guests
        joined = await manager.create(
            load_ruleset("canadian"), "Host", seats, start=False, **options
        )
        yield manager, joined
    finally:
        await manager.close()


async def seated(manager: TableManager, joined: Joined, start: bool = True) -> Table:
    """The lobby's table with its three open seats taken (B, C, D), started unless not."""
    table = manager.tables[joined.table_id]
    for name in ("B", "C", "D"):
        await manager.join(joined.table_id, name, None)
    if start:
        await manager.start(joined.table_id, joined.token)
    return table


def started_game(table: Table) -> Game:
    assert table.game is not None
    return table.game


def test_a_move_is_invisible_until_it_is_stored(tmp_path: Path) -> None:
    async def run() -> None:
        async with lobby(tmp_path, 3) as (manager, joined):
            table = await seated(manager, joined)
            game = started_game(table)
            mover = game.to_move
            card = game.format_move(game.legal_moves()[0])
            before = len(game.log)

            # Hold the storage of the move until told.
            release = asyncio.Event()
            real_add = manager.storage.add_move

            async def slow_add(*args: Any) -> Any:
                await release.wait()
                return await real_add(*args)

            manager.storage.add_move = slow_add  # type: ignore[method-assign]
            playing = asyncio.ensure_future(manager.play(table, mover, card))
            await asyncio.sleep(0.05)
            assert not playing.done()
            # Meanwhile: the game, the count and what a new connection is sent are unchanged.
            assert table.game is game and len(game.log) == before and table.moves == 0
            # A connection made meanwhile waits for the store, then is sent the move.
            sock = FakeSocket()
            connecting = asyncio.ensure_future(manager.connect(table, Conn(sock, (mover + 1) % 4)))
            await asyncio.sleep(0.05)
            assert not connecting.done() and sock.sent == []
            release.set()
            await playing
            await connecting
            await written()
            assert table.moves == 1 and table.game is not None and len(table.game.log) == before + 1
            assert [m["moves"] for m in sock.sent if m["type"] == "state"] == [1]
            assert sock.sent[-1]["view"]["trick"] == [[mover, card]]
            rows = await manager.storage.moves(table.id, 1)
            assert [(r.seq, r.seat, r.code) for r in rows] == [(1, mover, card)]

    asyncio.run(run())


def test_a_failed_store_changes_nothing(tmp_path: Path) -> None:
    async def run() -> None:
        async with lobby(tmp_path, 2) as (manager, joined):
            table = manager.tables[joined.table_id]
            for name in ("B", "C"):
                await manager.join(joined.table_id, name, None)
            await manager.start(joined.table_id, joined.token)
            game = table.game
            assert game is not None
            sock = FakeSocket()
            await manager.connect(table, Conn(sock, game.to_move))
            real_add = manager.storage.add_move

            async def failing(*args: Any) -> Any:
                raise OSError("disk full")

            manager.storage.add_move = failing  # type: ignore[method-assign]
            await manager.handle(
                table,
                table.seats[game.to_move].conns[0],
                json.dumps({"type": "play", "move": game.format_move(game.legal_moves()[0])}),
            )
            await asyncio.sleep(0)
            assert sock.sent[-1]["type"] == "error"
            assert "could not store" in sock.sent[-1]["message"]
            assert table.game is game and table.moves == 0
            manager.storage.add_move = real_add  # type: ignore[method-assign]
            assert await manager.storage.moves(table.id, 1) == []

    asyncio.run(run())


def test_a_seat_back_while_a_bot_move_for_it_is_stored_is_sent_that_move(tmp_path: Path) -> None:
    """An away seat's bot move decided and being stored as its owner reconnects: the owner is
    counted in only after it, so is never shown its turn and then a card it did not play."""

    async def run() -> None:
        async with lobby(tmp_path, 3, bot_takeover=0.05) as (manager, joined):
            table = await seated(manager, joined, start=False)
            storing, release = asyncio.Event(), asyncio.Event()
            real_add = manager.storage.add_move

            async def held_move(*args: Any) -> Any:
                storing.set()
                await release.wait()
                return await real_add(*args)

            manager.storage.add_move = held_move  # type: ignore[method-assign]
            await manager.start(joined.table_id, joined.token)
            game = table.game
            assert game is not None
            mover = game.to_move
            await asyncio.wait_for(storing.wait(), 30)  # the takeover bot's first move
            sock = FakeSocket()
            connecting = asyncio.ensure_future(manager.connect(table, Conn(sock, mover)))
            await asyncio.sleep(0.05)
            assert not connecting.done() and sock.sent == []
            release.set()
            await connecting
            states = [m for m in sock.sent if m["type"] == "state"]
            assert states[0]["moves"] == 1
            assert states[0]["view"]["to_move"] != mover
            assert [c for c, _ in states[0]["view"]["trick"]] == [mover]
            assert not table.seats[mover].takeover and table.seats[mover].conns

    asyncio.run(run())


class Elsewhere(SingleNode):
    """A placement whose tables in :attr:`away` are another server's (a cluster node's)."""

    def __init__(self) -> None:
        self.away: set[str] = set()

    def owns(self, table_id: str) -> bool:
        return table_id not in self.away


def test_a_table_held_elsewhere_is_closed_for_a_retry_not_for_good(tmp_path: Path) -> None:
    """A websocket for a table another cluster node holds (the balancer's route raced a
    takeover) is closed with STALE, which clients try again, not 4404, after which the web
    client stops (no table); an unknown table still gets 4404."""

    async def run() -> None:
        placement = Elsewhere()
        async with lobby(tmp_path, 3, placement) as (manager, joined):
            manager.drop(joined.table_id, STALE, "moved")
            placement.away.add(joined.table_id)
            sockets = TableSockets(FakeApp(), manager, RateLimits({}))

            async def close_of(table_id: str) -> tuple[int, str]:
                sent: list[MutableMapping[str, Any]] = []
                inbox = [{"type": "websocket.connect"}]

                async def receive() -> dict[str, Any]:
                    return inbox.pop(0) if inbox else {"type": "websocket.disconnect"}

                async def send(message: MutableMapping[str, Any]) -> None:
                    sent.append(message)

                scope = {"type": "websocket", "path": f"/ws/tables/{table_id}", "client": ("a", 1)}
                await sockets(scope, receive, send)
                error = json.loads(next(m["text"] for m in sent if "text" in m))["message"]
                return sent[-1]["code"], error

            code, error = await close_of(joined.table_id)
            assert code == STALE and "another server" in error
            assert await close_of("nosuchtab") == (4404, "no table 'nosuchtab'")

    asyncio.run(run())


class FakeApp:
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a table websocket went past TableSockets")


def test_a_table_websocket_is_served_in_a_task_of_its_own(tmp_path: Path) -> None:
    """Each table websocket is served in a task of its own, so that its wake-ups (each message,
    each move stored) resume its own few frames, not the ASGI stack's; cancelling the ASGI call
    (the server stopping) still ends it, and its seat is let go."""

    async def run() -> None:
        async with lobby(tmp_path, 3) as (manager, joined):
            table = await manager.get(joined.table_id)
            sockets = TableSockets(FakeApp(), manager, RateLimits({}))
            inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            inbox.put_nowait({"type": "websocket.connect"})
            readers: set[asyncio.Task[Any] | None] = set()

            async def receive() -> dict[str, Any]:
                readers.add(asyncio.current_task())
                return await inbox.get()

            async def send(message: MutableMapping[str, Any]) -> None:
                pass

            query = f"token={joined.token}".encode()
            path = f"/ws/tables/{joined.table_id}"
            scope = {"type": "websocket", "path": path, "query_string": query, "client": ("a", 1)}
            call = asyncio.create_task(sockets(scope, receive, send))
            for _ in range(100):
                if table.seats[joined.seat].conns:
                    break
                await asyncio.sleep(0)
            assert table.seats[joined.seat].conns, "the seat's websocket never connected"
            assert len(readers) == 1 and call not in readers
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            assert not table.seats[joined.seat].conns
            assert all(task is not None and task.done() for task in readers)

    asyncio.run(run())


def test_next_hand_presses_together_send_one_state(tmp_path: Path) -> None:
    """Presses of Next hand that arrive in one turn of the event loop (at a hand end every
    client shows the summary at once) send every connection one state, not one per press; a
    press alone still sends its own."""

    async def run() -> None:
        async with lobby(tmp_path, 3) as (manager, joined):
            table = await seated(manager, joined)
            game = started_game(table)
            socks = [FakeSocket() for _ in range(4)]
            conns = [Conn(sock, seat) for seat, sock in enumerate(socks)]
            for conn in conns:
                await manager.connect(table, conn)
            while not table.waiting():
                seat = game.to_move
                move = game.format_move(game.legal_moves()[0])
                await manager.play(table, seat, move, conns[seat])

            async def after(*pressing: Conn) -> list[list[dict[str, Any]]]:
                await written()
                for sock in socks:
                    sock.sent.clear()
                await asyncio.gather(*(manager.next_hand(table, c) for c in pressing))
                for _ in range(3):
                    await asyncio.sleep(0)
                return [[m for m in sock.sent if m["type"] == "state"] for sock in socks]

            alone = await after(conns[0])
            assert [[m["hand_end"]["waiting"] for m in got] for got in alone] == [[[1, 2, 3]]] * 4
            together = await after(*conns[1:])
            assert [len(got) for got in together] == [1, 1, 1, 1], together
            assert all(got[0]["hand_end"] is None for got in together)
            assert all(got[0]["view"]["hand"] == 2 for got in together)

    asyncio.run(run())


def test_a_bot_turn_that_loses_its_cancellation_does_not_hold_up_the_close(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A server's shutdown cancels its bot turns and waits for them, but not for ever: a turn
    whose cancellation was lost (Python 3.11's ``asyncio.wait_for`` can swallow one, as a
    bot's thinking awaits it) is left behind after STOP_WAIT seconds, with a warning."""

    async def accept(*_: Any) -> None:
        return None

    async def run() -> float:
        turns = Turns(accept)
        released = False

        async def deaf() -> None:
            while not released:
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.sleep(3600)

        turns.spawn(deaf())
        await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        start = loop.time()
        closing = asyncio.ensure_future(turns.close())
        await asyncio.wait([closing], timeout=STOP_WAIT + 5)
        took = loop.time() - start
        released = True  # the deaf turn, and so the close, end at the next cancellation
        for task in asyncio.all_tasks() - {asyncio.current_task()}:
            task.cancel()
        await asyncio.wait([closing])
        return took

    took = asyncio.run(run())
    assert STOP_WAIT - 0.1 <= took < STOP_WAIT + 1, took
    assert "1 bot turn(s) still running 2 s after the stop" in caplog.text


def test_a_pool_whose_worker_died_is_started_afresh() -> None:
    """A worker that dies breaks the bot pool: the call that met it gets ``BrokenExecutor``,
    and the next one runs in a new pool instead of failing for ever."""

    async def accept(*_: Any) -> None:
        return None

    async def run() -> None:
        turns = Turns(accept, bot_workers=1)
        try:
            with pytest.raises(BrokenExecutor):
                await turns.in_pool("t", os._exit, 1)
            assert await turns.in_pool("t", pow, 2, 10) == 1024
        finally:
            await turns.close()

    asyncio.run(run())
