"""The manager's verbs in their own rooms: every client message type has its handler in the
dispatch table, and the manager plays only the tables its placement gives it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import get_args

import pytest

from salad.server.errors import ActionError
from salad.server.incoming import AnyClientMessage, HelloIn, Incoming
from salad.server.store import MemoryStore
from salad.server.tables import Conn, TableManager
from salad.server.tables.placement import SingleNode

from .test_tables import FakeSocket, lobby, seated, started_game, written


def test_the_dispatch_table_covers_every_client_message_type() -> None:
    """Every message a client may send after its ``hello`` (which the socket reads first) has
    one handler, and nothing else has one."""
    (everything,) = get_args(AnyClientMessage)[:1]
    sent = set(get_args(everything)) - {HelloIn}
    assert sent == set(get_args(Incoming))
    manager = TableManager(MemoryStore())
    assert set(manager.dispatch.handlers) == sent


def test_each_message_reaches_its_handler(tmp_path: Path) -> None:
    """A ping is answered, a chat line is said, a play is played, each by its own handler."""

    async def run() -> None:
        async with lobby(tmp_path, 3) as (manager, joined):
            table = await seated(manager, joined)
            game = started_game(table)
            sock = FakeSocket()
            conn = Conn(sock, game.to_move)
            table = await manager.connect(table, conn)
            await written()
            sock.sent.clear()
            assert await manager.handle(table, conn, '{"type":"ping"}')
            card = game.format_move(game.legal_moves()[0])
            assert await manager.handle(table, conn, json.dumps({"type": "play", "move": card}))
            assert await manager.handle(table, conn, '{"type":"chat","text":"hi"}')
            assert not await manager.handle(table, conn, '{"type":"hint"}')  # humans at it
            await written()
            types = [m["type"] for m in sock.sent]
            assert types[0] == "pong" and "state" in types and "chat" in types, types
            assert types[-1] == "error" and table.moves == 1

    asyncio.run(run())


class Told(SingleNode):
    """A placement that owns no table in :attr:`away`, claims no id in :attr:`taken`, is
    not sure of tables in :attr:`unsure`, resumes nothing and notes what leaves memory."""

    resume = False

    def __init__(self) -> None:
        self.away: set[str] = set()
        self.taken: set[str] = set()
        self.unsure: set[str] = set()
        self.claimed: list[str] = []
        self.unloaded: list[str] = []

    def owns(self, table_id: str) -> bool:
        return table_id not in self.away

    async def claim(self, table_id: str) -> bool:
        self.claimed.append(table_id)
        return len(self.claimed) > 1  # the first id is another server's

    async def sure(self, table_id: str) -> bool:
        return table_id not in self.unsure

    def on_unload(self, table_id: str) -> None:
        self.unloaded.append(table_id)


def test_a_placement_given_to_the_manager_is_honoured(tmp_path: Path) -> None:
    """The manager asks its placement, not a default: a new table takes an id it claims, a
    table it does not own is another server's (503), a table it is not sure of stores no
    move and is let go (told to the placement), and one that resumes nothing loads nothing
    at start."""

    async def run() -> None:
        placement = Told()
        async with lobby(tmp_path, 3, placement) as (manager, joined):
            assert placement.claimed[-1] == joined.table_id != placement.claimed[0]
            table = await seated(manager, joined)
            game = started_game(table)
            mover, card = game.to_move, game.format_move(game.legal_moves()[0])
            placement.unsure.add(table.id)
            with pytest.raises(ActionError) as refused:
                await manager.play(table, mover, card)
            assert refused.value.status == 503, refused.value.message
            assert await manager.storage.moves(table.id, 1) == []
            assert placement.unloaded == [table.id] and table.id not in manager.tables
            placement.away.add(table.id)
            with pytest.raises(ActionError) as elsewhere:
                await manager.get(table.id)
            assert elsewhere.value.status == 503
            assert "served by another server" in elsewhere.value.message
            # Another manager on the same store, whose placement resumes nothing.
            again = TableManager(manager.storage, placement=Told())
            await again.open()
            try:
                assert again.tables == {}
            finally:
                await again.turns.close()
        # A manager on the default placement resumes the game in progress.
        alone = TableManager(manager.storage)
        await alone.open()
        try:
            assert list(alone.tables) == [table.id]
        finally:
            await alone.close()

    asyncio.run(run())
