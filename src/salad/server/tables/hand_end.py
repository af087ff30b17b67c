"""The pause after a hand (see :class:`salad.server.tables.table.HandEnd`): the seats'
presses of Next hand, and the next hand starting once every waited-for seat has pressed.

On a cluster who is still waited for is kept (:mod:`salad.server.tables.keeper`) before a
press is made, so that a node taking the table over asks only those who had not pressed.
"""

from __future__ import annotations

import asyncio

from salad.server.tables.connection import Conn
from salad.server.tables.keeper import PRESSED, Keeper, keep, recall
from salad.server.tables.table import Table
from salad.server.tables.turns import Turns
from salad.view import SPECTATOR

__all__ = ["Presses", "recall_presses"]


class Presses:
    """Next hand, pressed by the seats of every table of a manager."""

    def __init__(self, turns: Turns, keeper: Keeper | None) -> None:
        self.turns = turns
        self.keeper = keeper
        """Where presses are kept on a cluster; None on one server."""

    async def next_hand(self, table: Table, conn: Conn) -> None:
        """A seat pressed Next hand: the next hand starts once every waited-for seat has.

        A press that changes nothing (pressed already, or no summary waits for the seat) tells
        nobody anything: it is a double click, or a client that would have every seat sent a
        whole state for each message it sends.

        On a cluster a press is kept before it is made (:meth:`_keep_presses`); the presses
        that come in one turn of the event loop, or while those before them are being kept, are
        kept in one write and shown in one state, as one server shows them."""
        async with table.lock:
            if not self._may_press(table, conn.seat, conn):
                return
            if self.keeper is None:
                self._press(table, [conn.seat])
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

    def _press(self, table: Table, seats: list[int]) -> None:
        """Make the presses of ``seats`` (the table's lock is held)."""
        started = False
        for seat in seats:
            started = table.press_next(seat) or started
        if started:
            table.turn_start = asyncio.get_running_loop().time()
            self.turns.schedule(table)
        table.broadcast_soon()

    async def _keep_presses(self, table: Table) -> None:
        """On a cluster, keep who is still waited for once the presses waiting have been made,
        then make them: a node that takes the table over waits for those only (a player who
        pressed is not asked again). Presses that come while this one keeps wait for the next."""
        async with table.lock:
            pressing, table.pressing, table.keeping = table.pressing, {}, None
            seats = sorted(s for s, conn in pressing.items() if self._may_press(table, s, conn))
            end = table.hand_end
            if end is None or not seats:
                return
            waiting = sorted(end.waiting.difference(seats))
            kept = {"game": table.game_number, "moves": table.moves, "waiting": waiting}
            await keep(self.keeper, table.id, PRESSED, kept)
            self._press(table, seats)


async def recall_presses(keeper: Keeper | None, table: Table) -> None:
    """A table loaded at a hand's end (it waits for every human seat again) waits only for
    those its last holder still waited for, if it kept them for this very hand end."""
    end = table.hand_end
    if keeper is None or end is None or not end.waiting:
        return
    kept = await recall(keeper, table.id, PRESSED)
    if not isinstance(kept, dict) or not isinstance(kept.get("waiting"), list):
        return
    if (kept.get("game"), kept.get("moves")) != (table.game_number, table.moves):
        return  # kept at an earlier hand's end
    end.waiting &= {s for s in kept["waiting"] if isinstance(s, int)}
    if not end.waiting:
        table.hand_end = None  # everyone had pressed: the next hand had begun
