"""What a table keeps in the store besides its games (TableStore.keep), in process on one
server: presses of Next hand that come together are kept in one write and sent in one state;
a table loaded again waits only for those who had not pressed at this very hand end, and has
its talk back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from salad.formats.rules import load_ruleset
from salad.server.store import MemoryStore
from salad.server.tables import Conn, Table, TableManager

from .test_cluster_kept import _Socket


async def at_hand_end(manager: TableManager) -> tuple[Table, list[_Socket], list[Conn]]:
    """Four humans connected to a table whose first hand has just ended."""
    made = await manager.create(load_ruleset("canadian"), "Host", [("open", None)] * 3)
    for _ in range(3):
        await manager.join(made.table_id, "Guest", None)
    table = await manager.start(made.table_id, made.token)
    sockets = [_Socket() for _ in range(4)]
    conns = [Conn(sock, seat) for seat, sock in enumerate(sockets)]
    for conn in conns:
        table = await manager.connect(table, conn)
    await play_to_hand_end(manager, table, conns)
    assert table.hand_end is not None and table.hand_end.waiting == {0, 1, 2, 3}
    return table, sockets, conns


PRESS = json.dumps({"type": "next"})


def test_presses_that_come_together_are_kept_in_one_write_and_sent_in_one_state() -> None:
    """Three seats press Next hand in one turn of the event loop. Their presses are kept in
    one write, which says only the fourth seat is still waited for, and each connection is
    sent one state for the three. The fourth seat's press, alone, is kept alone, and the next
    hand begins."""

    async def run() -> None:
        storage = MemoryStore()
        manager = TableManager(storage)
        kept: list[dict[str, Any]] = []
        keep = storage.keep

        async def keeping(table_id: str, part: str, value: Any, **kw: Any) -> None:
            if part == "pressed":
                kept.append(value)
            await keep(table_id, part, value, **kw)

        storage.keep = keeping  # type: ignore[method-assign]
        try:
            table, sockets, conns = await at_hand_end(manager)
            for _ in range(3):  # what the moves sent goes out (each outbox's task writes it)
                await asyncio.sleep(0)
            sent = [len(sock.texts) for sock in sockets]
            await asyncio.gather(*(manager.handle(table, conns[s], PRESS) for s in (0, 1, 2)))
            await asyncio.sleep(0)  # the state of this turn's presses goes at its end
            assert [k["waiting"] for k in kept] == [[3]]
            for sock, before in zip(sockets, sent, strict=True):
                states = [t for t in sock.texts[before:] if t.startswith('{"type":"state"')]
                assert len(states) == 1, sock.texts[before:]
                assert json.loads(states[0])["hand_end"]["waiting"] == [3]
            await manager.handle(table, conns[3], PRESS)
            assert [k["waiting"] for k in kept] == [[3], []]
            assert table.hand_end is None
        finally:
            await manager.close()

    asyncio.run(run())


async def play_to_hand_end(manager: TableManager, table: Table, conns: list[Conn]) -> None:
    while table.hand_end is None:
        game = table.game
        assert game is not None
        seat, move = game.to_move, game.legal_moves()[0]
        await manager.play(table, seat, game.format_move(move), conns[seat])


def test_a_table_loaded_again_waits_only_for_who_had_not_pressed_this_hand_end() -> None:
    """Seats 0 and 2 press Next hand and seat 1 says a line; the table is let go and loaded
    again (as after a restart): it waits for seats 1 and 3 only, and has its line back."""

    async def run() -> None:
        manager = TableManager(MemoryStore())
        try:
            table, _, conns = await at_hand_end(manager)
            for seat in (0, 2):
                await manager.handle(table, conns[seat], PRESS)
            await manager.handle(table, conns[1], json.dumps({"type": "chat", "text": "hi"}))
            manager.drop(table.id, 1012, "reload")
            again = await manager.get(table.id)
            assert again is not table and again.hand_end is not None
            assert again.hand_end.waiting == {1, 3}
            assert [line["text"] for line in manager.talk.rooms[table.id].lines] == ["hi"]
        finally:
            await manager.close()

    asyncio.run(run())


def test_presses_of_a_hand_already_over_do_not_come_back() -> None:
    """Every seat presses at the first hand's end (kept: nobody waited for); the second hand
    is played to its end, and the table loaded again waits for every human seat: what was
    kept at the first hand's end says nothing of the second's."""

    async def run() -> None:
        manager = TableManager(MemoryStore())
        try:
            table, _, conns = await at_hand_end(manager)
            for seat in range(4):
                await manager.handle(table, conns[seat], PRESS)
            assert table.hand_end is None
            await play_to_hand_end(manager, table, conns)
            manager.drop(table.id, 1012, "reload")
            again = await manager.get(table.id)
            assert again.hand_end is not None and again.hand_end.waiting == {0, 1, 2, 3}
        finally:
            await manager.close()

    asyncio.run(run())
