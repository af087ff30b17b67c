"""The :class:`TableManager`: every table of the server, and the only thing that changes one.

Every change (a move, a seat joining, a game starting) happens under the table's lock, is
written to the store (:class:`~salad.server.store.TableStore`, which commits the changes of a
turn of the event loop together) and only then applied in memory and broadcast, so a server
killed at any moment has told nobody about anything it had not stored. Every message a seat
receives is built from that seat's own view of the game (see :mod:`salad.server.tables.wire`),
so it never holds another seat's hidden cards.

The manager composes one room per verb, each usable alone:

- :class:`~.registry.Registry`: the tables in memory, loaded once each, unloaded when idle or
  let go of; the fenced store every change goes through;
- :class:`~.lobby.Lobby`: create, join, the host's seat changes, start, rematch;
- :class:`~.presence.Presence`: websockets coming to a table and leaving it;
- :class:`~.moves.MovePlayer`: a move, stored, then applied and broadcast;
- :class:`~.hand_end.Presses`: Next hand after a hand's summary;
- :class:`~.reads.Reads`: a table's games and records;
- :class:`~.dispatch.Dispatch`: a websocket message to the handler of its type.

Where tables are played (alone, or on a cluster node) is its :class:`~.placement.Placement`.
"""

from __future__ import annotations

import asyncio

from salad.server.info import available_bots
from salad.server.store import TableStore
from salad.server.tables.dispatch import Dispatch
from salad.server.tables.hand_end import Presses
from salad.server.tables.lobby import Joined, Lobby
from salad.server.tables.moves import MovePlayer
from salad.server.tables.placement import Placement, SingleNode
from salad.server.tables.presence import Presence
from salad.server.tables.reads import Reads
from salad.server.tables.registry import NO_TABLE, UNLOAD_AFTER, Registry
from salad.server.tables.table import Table
from salad.server.tables.talk import Talk
from salad.server.tables.turns import Turns

__all__ = ["NO_TABLE", "Joined", "TableManager"]


class TableManager:
    """Every table of the server; creates, loads, changes and plays them.

    ``placement``: which tables this server plays (default :class:`SingleNode`: all of them;
    a cluster node's :class:`~salad.server.cluster.node.Cluster`: those it holds the lease of)."""

    def __init__(
        self,
        storage: TableStore,
        bot_delay: float | None = 0.0,
        bot_workers: int | None = None,
        unload_after: float | None = UNLOAD_AFTER,
        placement: Placement | None = None,
    ) -> None:
        self.storage = storage
        """Where the tables live (opened and closed with the manager)."""
        self.placement: Placement = placement if placement is not None else SingleNode()
        # A bot's or a timer's move is accepted as anyone's (by self.moves, made just below).
        self.turns = Turns(lambda *args: self.moves.accept(*args), bot_delay, bot_workers)
        self.talk = Talk(storage)  # chat (tables/talk.py); create_app gives it the app's rates
        self.registry = Registry(storage, self.placement, self.turns, self.talk, unload_after)
        self.lobby = Lobby(self.registry, self.turns)
        self.presence = Presence(self.registry, self.talk, self.turns)
        self.moves = MovePlayer(self.registry, self.turns)
        self.presses = Presses(self.turns, storage)
        self.reads = Reads(self.registry)
        self.dispatch = Dispatch(self.registry, self.moves, self.presses, self.talk, self.turns)
        self.tables: dict[str, Table] = self.registry.tables
        """The tables in memory, by id (the registry's)."""
        # The verbs, by the names the rest of the server calls (see each for its contract).
        registry, lobby, presence = self.registry, self.lobby, self.presence
        self.get, self.busy, self.drop = registry.get, registry.busy, registry.drop
        self.sweep = registry.sweep
        self.create, self.join, self.start = lobby.create, lobby.join, lobby.start
        self.set_seat, self.remove_seat = lobby.set_seat, lobby.remove_seat
        self.rematch, self.set_pace = lobby.rematch, lobby.set_pace
        self.connect, self.disconnect = presence.connect, presence.disconnect
        self.handle = self.dispatch.handle
        self.next_hand = self.presses.next_hand
        self.play = self.moves.play
        self.games, self.record = self.reads.games, self.reads.record

    async def open(self) -> None:
        """Open the store and resume every table with a game in progress."""
        # Find the bots that load here now (it imports them), not during a request.
        await asyncio.get_running_loop().run_in_executor(None, available_bots)
        await self.storage.open()
        await self.registry.resume()

    def forget_player(self, player_id: str) -> None:
        """The seats of the tables in memory forget a player who was deleted (the store's rows
        are the caller's to clear)."""
        for table in self.tables.values():
            for seat in table.seats:
                if seat.player == player_id:
                    seat.player = None

    async def close(self) -> None:
        """Stop every table, the bots and timers, then close the store."""
        await self.registry.close()
        await self.turns.close()
        await self.storage.close()
