"""Redis, as the nodes of a cluster share it: table leases, node liveness and names.

A table is held by one node at a time through its lease, ``salad:lease:{table}`` = the node's
id, set only if absent and expiring after :data:`LEASE_MS` unless its holder renews it (every
:data:`BEAT` seconds). A node that dies stops renewing, so its tables are free again within
:data:`LEASE_MS`; sooner, another node that finds it reading no channel takes them from it
(:meth:`Link.take`, see :meth:`salad.server.cluster.node.Cluster._adopt`).
``salad:alive:{node}`` expires the same way and tells the other nodes whether a node is still
there, and its name in the load balancer (its ``--node-name``): a node that gets a request for
a table another node holds redirects it there by that name (:mod:`salad.server.cluster.router`).
Each node also stays subscribed to its own pub/sub channel ``salad:node:{node}``, on which
nothing is said: the subscription is a sign of life that ends the moment the node's process
does (a node killed is found within a beat, seconds before its liveness lapses).
Every node also reads the channel :data:`FORGOTTEN`, on which a node that deleted a player
says their id: each node's tables in memory forget that player's seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import redis.asyncio as aioredis

LEASE_MS = 3000
"""A lease's life without renewal (milliseconds): the longest a dead node holds its tables."""

MAX_CONNECTIONS = 64
"""Connections a node opens to Redis at most (more callers wait for one, up to 5 s)."""

BEAT = 0.5
"""Seconds between renewals of a node's leases and liveness."""

RENEW_CHUNK = 500
"""Leases renewed by one call of the renewal script (a beat's calls go in one round trip)."""

# Keep each lease of KEYS if it is ours (or take it back if it expired, e.g. after a Redis
# restart); the positions (from 1) of those another node holds now. One call for many leases:
# a call per lease cost a node holding 2 000 tables 29 ms of Python every beat.
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif not v then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    lost[#lost + 1] = i
  end
end
return lost
"""

# Take the lease KEYS[1] from the node ARGV[1] (found dead) if it still holds it; 1 if taken.
_TAKE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
"""

# Let the lease go if it is ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


FORGOTTEN = "salad:forgotten"
"""The channel on which a node says the id of a player it deleted (see :meth:`Link.forgotten`)."""


def channel(node: str) -> str:
    """The pub/sub channel a node stays subscribed to while it lives (nothing is said on it)."""
    return f"salad:node:{node}"


def _lease(table_id: str) -> str:
    return f"salad:lease:{table_id}"


def _alive(node: str) -> str:
    return f"salad:alive:{node}"


class Link:
    """One node's connection to the cluster's Redis (redis-py's asyncio client).

    ``node``: the node's id (its leases' value); ``name``: its name in the load balancer,
    kept in its liveness key for the other nodes to redirect to (default: the id).
    """

    def __init__(self, url: str, node: str, name: str | None = None) -> None:
        self.url = url
        self.node = node
        self.name = name or node
        # A bounded pool whose callers wait for a free connection: during a failover many
        # requests look Redis up at once, and a plain pool refuses the 101st (max 100).
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            decode_responses=True,
            socket_connect_timeout=2,
            socket_timeout=5,
            max_connections=MAX_CONNECTIONS,
            timeout=5,
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._take = self.redis.register_script(_TAKE)

    async def close(self) -> None:
        await self.redis.aclose()

    async def ping(self) -> None:
        await self.redis.ping()

    async def forgotten(self, player_id: str) -> None:
        """Tell every node that this player was deleted (on :data:`FORGOTTEN`)."""
        await self.redis.publish(FORGOTTEN, player_id)

    # -- leases ---------------------------------------------------------------------------
    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if no node holds it."""
        return bool(await self.redis.set(_lease(table_id), self.node, nx=True, px=LEASE_MS))

    async def take(self, table_id: str, dead: str) -> bool:
        """Take the table's lease from ``dead`` (a node that left its channel: killed), rather
        than wait for it to lapse; False if that node no longer holds it."""
        return bool(await self._take(keys=[_lease(table_id)], args=[dead, self.node, LEASE_MS]))

    async def owner(self, table_id: str) -> str | None:
        """The node holding the table's lease, if any."""
        return cast(str | None, await self.redis.get(_lease(table_id)))

    async def owners(self, table_ids: Sequence[str]) -> list[str | None]:
        if not table_ids:
            return []
        return cast(list[str | None], await self.redis.mget([_lease(t) for t in table_ids]))

    async def renew(self, table_ids: Sequence[str]) -> list[str]:
        """Renew these leases (and this node's liveness); the tables another node holds now."""
        chunks = [table_ids[i : i + RENEW_CHUNK] for i in range(0, len(table_ids), RENEW_CHUNK)]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(_alive(self.node), self.name, px=LEASE_MS)
            for chunk in chunks:
                keys = [_lease(t) for t in chunk]
                await self._renew(keys=keys, args=[self.node, LEASE_MS], client=pipe)
            results = await pipe.execute()
        return [chunk[i - 1] for chunk, lost in zip(chunks, results[1:], strict=True) for i in lost]

    async def release_many(self, table_ids: Sequence[str]) -> None:
        """Let the leases of these tables that this node holds go, in one round trip."""
        if table_ids:
            async with self.redis.pipeline(transaction=False) as pipe:
                for t in table_ids:
                    await self._release(keys=[_lease(t)], args=[self.node], client=pipe)
                await pipe.execute()

    async def _lives(self, nodes: Sequence[str]) -> list[str | None]:
        """Each node's name if it is still there (its liveness has not lapsed and it is
        subscribed to its channel), else None."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.mget([_alive(n) for n in nodes])
            pipe.pubsub_numsub(*[channel(n) for n in nodes])
            found, counts = await pipe.execute()
        reading = {name for name, count in counts if count}
        return [v if channel(n) in reading else None for n, v in zip(nodes, found, strict=True)]

    async def alive(self, nodes: Sequence[str]) -> set[str]:
        """Which of these nodes are still there (as :meth:`_lives` says)."""
        nodes = list(dict.fromkeys(nodes))
        if not nodes:
            return set()
        return {n for n, v in zip(nodes, await self._lives(nodes), strict=True) if v is not None}

    async def name_of(self, node: str) -> str | None:
        """The load balancer's name of ``node`` if it is still there, else None (as
        :meth:`_lives` says)."""
        return (await self._lives([node]))[0]
