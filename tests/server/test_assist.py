"""Hints and undo at a table of bots (issue 14, item 9): a hint is thought out on the bot
worker pool and names a legal move and why; an undo rewinds the game and its stored moves (a
restarted server shows the undone state); both are refused at a table with another human."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from salad.bots.assist import hint, hint_reason, takeback_count
from salad.engine import Game
from salad.errors import RecordError
from salad.formats.records import game_from_record, record_from_game
from salad.formats.rules import load_ruleset
from salad.server.store import GameRow, MemoryStore, MoveRow, SqlStore
from salad.server.tables import Conn, TableManager

from .conftest import Server, connect
from .test_tables import FakeSocket


class CountingPool(ThreadPoolExecutor):
    """A pool that records what it was given and on which thread it ran."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.ran: list[tuple[str, str]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def run() -> Any:
            self.ran.append((fn.__name__, threading.current_thread().name))
            return fn(*args, **kwargs)

        return super().submit(run)


def test_a_hint_is_thought_out_on_the_bot_pool_and_names_a_legal_move(tmp_path: Path) -> None:
    async def run() -> None:
        manager = TableManager(MemoryStore())
        pool = CountingPool()
        manager.turns.pool = lambda: pool  # type: ignore[method-assign]
        await manager.open()
        try:
            joined = await manager.create(
                load_ruleset("canadian"), "Host", [("bot", "random")] * 3, start=True
            )
            table = manager.tables[joined.table_id]
            sock = FakeSocket()
            conn = Conn(sock, 0)
            await manager.connect(table, conn)
            for _ in range(200):
                game = table.game
                assert game is not None
                if game.to_move == 0 and game.legal_moves():
                    break
                await asyncio.sleep(0.02)
            legal = [game.format_move(m) for m in game.legal_moves()]
            ask = '{"type": "hint"}'
            await asyncio.gather(*(manager.handle(table, conn, ask) for _ in range(2)))
            for _ in range(500):
                if any(m["type"] == "hint" for m in sock.sent):
                    break
                await asyncio.sleep(0.02)
            answers = [m for m in sock.sent if m["type"] in ("hint", "error")]
            assert [m["type"] for m in answers] == ["error", "hint"], answers
            assert "still thinking about the last one" in answers[0]["message"]
            answer = answers[1]
            assert answer["move"] in legal
            assert answer["reason"] and answer["bot"] == "expert"
            assert answer["moves"] == table.moves
            assert len(pool.ran) == 1 and pool.ran[0][0] == "hint"
            assert pool.ran[0][1] != threading.current_thread().name  # not the event loop's
        finally:
            await manager.close()
            pool.shutdown()

    asyncio.run(run())


def test_the_hint_reason_says_what_the_move_saves() -> None:
    game = Game(load_ruleset("canadian"), 4, seed=3)
    while game.phase.name != "PLAY":
        game.play(game.legal_moves()[0])
    view = game.view(game.to_move)
    found = hint(view, 1, move_time=0.05)
    assert found.move in view.legal_moves and found.reason(view.deck)
    a, b = view.legal_moves[:2]
    assert hint_reason(view, a, {a: 1.0, b: 1.2}).startswith("about as good as ")
    assert hint_reason(view, a, {a: 1.0, b: 2.0}).startswith("saves about 1 point over ")


def test_takeback_count_is_the_seats_last_move_and_what_came_after() -> None:
    game = Game(load_ruleset("canadian"), 3, seed=2)
    seats = []
    for _ in range(7):
        seats.append(game.to_move)
        game.play(game.legal_moves()[0])
    last = max(i for i, s in enumerate(seats) if s == seats[0])
    assert takeback_count(game.log, seats[0]) == len(seats) - last
    assert takeback_count(Game(load_ruleset("canadian"), 3, seed=2).log, 0) == 0


async def next_of(sock: Any, kind: str, timeout: float = 20) -> dict[str, Any]:
    while True:
        m = await sock.recv(timeout)
        if m["type"] == kind:
            return m


def test_undo_at_a_table_of_bots_rewinds_the_game_and_its_stored_moves(
    start_server: Callable[..., Server], tmp_path: Path
) -> None:
    srv = start_server()
    joined = srv.ok("POST", "/api/quickplay", {"name": "Ann", "bot": "random", "players": 4})
    table_id, token = joined["table_id"], joined["token"]
    seen: dict[int, dict[str, Any]] = {}

    async def play() -> dict[str, Any]:
        me = await connect(srv, table_id, token)
        await me.send({"type": "undo"})
        assert (
            "you have not made a move in this game yet" in (await next_of(me, "error"))["message"]
        )
        mine = 0
        while True:
            m = await me.until(lambda x: x["view"]["to_move"] == 0 and bool(x["view"]["legal"]))
            seen[m["moves"]] = m["view"]
            if mine == 6:
                break
            mine += 1
            await me.send({"type": "play", "move": m["view"]["legal"][-1]})
            await me.until(lambda x, k=m["moves"]: x["moves"] > k)
        before = m["moves"]
        await me.send({"type": "undo"})
        note = await next_of(me, "undone")
        back = await me.until(lambda x, k=note["moves"]: x["moves"] == k)
        assert note["moves"] < before and note["count"] == before - note["moves"]
        assert back["view"] == seen[note["moves"]]  # the very state before that move
        # Played on differently, the tricks this connection had are replaced, not kept.
        m = back
        for _ in range(6):
            await me.send({"type": "play", "move": m["view"]["legal"][0]})
            m = await me.until(
                lambda x, k=m["moves"]: (
                    x["moves"] > k and x["view"]["to_move"] == 0 and bool(x["view"]["legal"])
                )
            )
            fresh = await connect(srv, table_id, token)
            first = await fresh.until(lambda x, k=m["moves"]: x["moves"] == k)
            assert first["view"] == m["view"] and first["last_trick"] == m["last_trick"]
            await fresh.ws.close()
        await me.send({"type": "undo"})
        note = await next_of(me, "undone")
        return await me.until(lambda x, k=note["moves"]: x["moves"] == k)

    back = asyncio.run(play())

    async def stored() -> tuple[list[MoveRow], GameRow | None]:
        store = SqlStore(srv.database)
        try:
            return await store.moves(table_id, 1), await store.game(table_id, 1)
        finally:
            await store.close()

    rows, game_row = asyncio.run(stored())
    assert len(rows) == back["moves"]
    assert game_row is not None and game_row.players[0]["undos"] == 2
    srv.stop()
    again = start_server(srv.database)

    async def reconnect() -> None:
        me = await connect(again, table_id, token)
        state = await me.until(lambda x: x["view"] is not None)
        assert state["moves"] == back["moves"]
        assert state["view"] == back["view"]

    asyncio.run(reconnect())


def test_undo_and_hint_are_refused_at_a_table_with_another_human(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    table_id, tokens = server.table(seats)

    async def go() -> None:
        host = await connect(server, table_id, tokens[0])
        spec = await connect(server, table_id, None)
        await host.until(lambda m: m["view"] is not None)
        for kind in ("undo", "hint"):
            await host.send({"type": kind})
            error = await next_of(host, "error")
            assert error["message"] == (f"{kind}: only at a table where every other seat is a bot")
            await spec.send({"type": kind})
            assert "spectators cannot" in (await next_of(spec, "error"))["message"]

    asyncio.run(go())


def test_a_record_counts_undos_and_old_records_stay_valid() -> None:
    game = Game(load_ruleset("canadian"), 3, seed=4)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    players = [{"name": "Ann", "undos": 2}, {"name": "B", "bot": "basic"}, {"name": "C"}]
    record = record_from_game(game, players)
    assert game_from_record(record).log == game.log
    old = record_from_game(game, [{"name": n} for n in "ABC"])
    assert game_from_record(old).log == game.log
    record["players"][0]["undos"] = "two"
    try:
        game_from_record(record)
    except RecordError as exc:
        assert "undos" in str(exc) and "\n" not in str(exc)
    else:
        raise AssertionError("a count of undos that is not a number was taken")
