"""Which tables this server may play: the :class:`Placement` a :class:`TableManager` is built
with. Alone, a server plays every table (:class:`SingleNode`); a cluster node plays those whose
lease it holds (:class:`salad.server.cluster.node.Cluster`)."""

from __future__ import annotations

from typing import Protocol


class Placement(Protocol):
    """Where a table is played, asked by the manager; given to it when it is built."""

    def owns(self, table_id: str) -> bool:
        """Whether this server may hold the table (a cluster node: whether it has its lease).
        A table it does not own is refused with 503 ("served by another server: retry")."""

    async def claim(self, table_id: str) -> bool:
        """Take a new table's id for this server (a cluster node: its lease); False if taken."""

    async def sure(self, table_id: str) -> bool:
        """Whether this server surely holds the table right now, asked before each change is
        stored (a cluster node that was frozen longer than its lease may not)."""

    def on_unload(self, table_id: str) -> None:
        """Told the id of each table that leaves memory (idle, or for another server)."""

    async def forgotten(self, player_id: str) -> None:
        """Told that a player was deleted here, after this server's tables forgot them: a
        cluster node tells the other nodes, whose tables in memory forget them too."""

    @property
    def fencing(self) -> bool:
        """Load each table under a new fencing epoch and store changes only with it (a cluster
        node: another node may load the table while this one is frozen)."""

    @property
    def resume(self) -> bool:
        """Load every table with a game in progress at start (a cluster node does not: it
        takes those no node holds, one by one)."""


class SingleNode:
    """One server alone: every table is its own, and nothing is fenced."""

    fencing = False
    resume = True

    def owns(self, table_id: str) -> bool:
        return True

    async def claim(self, table_id: str) -> bool:
        return True

    async def sure(self, table_id: str) -> bool:
        return True

    def on_unload(self, table_id: str) -> None:
        return None

    async def forgotten(self, player_id: str) -> None:
        return None
