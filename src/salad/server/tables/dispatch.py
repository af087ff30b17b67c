"""A websocket message to its verb: one handler per client message type of
:mod:`salad.server.messages` (a socket's first, ``hello``, is read by
:mod:`salad.server.sockets`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from salad.server.errors import ActionError
from salad.server.incoming import (
    ChatIn,
    ChatSettingsIn,
    HintIn,
    NextIn,
    PingIn,
    PlayIn,
    UndoIn,
    read_client_message,
)
from salad.server.messages import PongOut
from salad.server.tables import assist
from salad.server.tables.connection import Conn
from salad.server.tables.hand_end import Presses
from salad.server.tables.moves import MovePlayer
from salad.server.tables.registry import Registry
from salad.server.tables.table import Table
from salad.server.tables.talk import Talk
from salad.server.tables.turns import Turns
from salad.server.tables.wire import error_message

Handler = Callable[[Table, Conn, Any], Awaitable[None]]
"""What a client message does: ``handler(table, conn, message)``; ActionError refuses it."""

PONG = PongOut(type="pong").model_dump_json()


class Dispatch:
    """Reads a client's message and hands it to the verb of its type."""

    def __init__(
        self, registry: Registry, moves: MovePlayer, presses: Presses, talk: Talk, turns: Turns
    ) -> None:
        self.registry = registry
        self.moves = moves
        self.presses = presses
        self.turns = turns
        self.handlers: dict[type[BaseModel], Handler] = {
            PlayIn: self.play,
            PingIn: self.ping,
            NextIn: self.next_hand,
            ChatIn: talk.say,
            ChatSettingsIn: talk.settings,
            HintIn: self.hint,
            UndoIn: self.undo,
        }

    async def handle(self, table: Table, conn: Conn, text: str | None) -> bool:
        """One message from a client; a bad one gets one ``error`` back and changes nothing
        (False: the caller counts refusals, see salad.server.sockets)."""
        try:
            message = read_client_message(text)
            await self.handlers[type(message)](table, conn, message)
        except ActionError as exc:
            conn.push(error_message(exc.message))
            return False
        return True

    async def play(self, table: Table, conn: Conn, message: PlayIn) -> None:
        await self.moves.play(table, conn.seat, message.move, conn)

    @staticmethod
    async def ping(table: Table, conn: Conn, message: PingIn) -> None:
        conn.push(PONG)

    async def next_hand(self, table: Table, conn: Conn, message: NextIn) -> None:
        await self.presses.next_hand(table, conn)

    async def hint(self, table: Table, conn: Conn, message: HintIn) -> None:
        assist.ask_hint(table, conn, self.turns)

    async def undo(self, table: Table, conn: Conn, message: UndoIn) -> None:
        await assist.undo(table, conn, self.registry, self.turns)
