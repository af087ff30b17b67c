"""The pause after a hand (see :class:`salad.server.tables.table.HandEnd`): the seats' presses
of Next hand, and the next hand starting once every waited-for seat has pressed.

Who is still waited for is kept in the store before a press is made: the table loaded again
(a restart, an unload, another cluster node) asks only those who had not pressed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from salad.server.store import TableStore
from salad.server.tables.connection import Conn
from salad.server.tables.table import Table
from salad.server.tables.talk import keep
from salad.server.tables.turns import Turns
from salad.view import SPECTATOR


class Presses:
    """Next hand, pressed by the seats of every table of a manager."""

    def __init__(self, turns: Turns, storage: TableStore) -> None:
        self.turns = turns
        self.storage = storage

    async def next_hand(self, table: Table, conn: Conn) -> None:
        """A seat pressed Next hand: the next hand starts once every waited-for seat has.

        A press that changes nothing (pressed already, or no summary waits for the seat) tells
        nobody anything (a double click, or a client flooding every seat with states). A press
        is kept before it is made; the presses of one turn of the event loop, or that come
        while those before are being kept, are kept in one write and shown in one state."""
        async with table.lock:
            if not self._may_press(table, conn.seat, conn):
                return
            table.pressing[conn.seat] = conn
            if table.keeping is None:
                table.keeping = self.turns.spawn(self._keep_presses(table))
            keeping = table.keeping
        await asyncio.shield(keeping)

    @staticmethod
    def _may_press(table: Table, seat: int, conn: Conn) -> bool:
        """Whether ``conn`` holds ``seat`` and the table waits for it to press Next hand."""
        if conn.closed or seat == SPECTATOR or conn not in table.seats[seat].conns:
            return False
        return table.waits_for(seat)

    async def _keep_presses(self, table: Table) -> None:
        """Keep who is still waited for once the presses waiting have been made, then make them.
        Presses that come while this one keeps wait for the next."""
        async with table.lock:
            pressing, table.pressing, table.keeping = table.pressing, {}, None
            seats = sorted(s for s, conn in pressing.items() if self._may_press(table, s, conn))
            end = table.hand_end
            if end is None or not seats:
                return
            waiting = sorted(end.waiting.difference(seats))
            kept = {"game": table.game_number, "moves": table.moves, "waiting": waiting}
            await keep(self.storage, table, "pressed", kept)
            started = False
            for seat in seats:
                started = table.press_next(seat) or started
            if started:
                table.turn_start = asyncio.get_running_loop().time()
                self.turns.schedule(table)
            table.broadcast_soon()


def restore_presses(table: Table, kept: Any) -> None:
    """A table loaded at a hand's end (it waits for every human seat again) waits only for
    those still waited for when presses were last kept, if they were kept at this very hand
    end (the same game and number of moves: presses of a hand already over do not count)."""
    end = table.hand_end
    if end is None or not end.waiting or kept is None:
        return
    if (kept["game"], kept["moves"]) != (table.game_number, table.moves):
        return
    end.waiting &= set(kept["waiting"])
    if not end.waiting:
        table.hand_end = None  # everyone had pressed: the next hand had begun
