"""The cluster's link to Redis, on a real redis-server: leases, a node's name for redirects,
and whether it is subscribed to its channel (a node killed leaves it at once, seconds before
its leases lapse)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from salad.server.cluster.link import LEASE_MS, RENEW_CHUNK, Link, channel


async def soon(check: Callable[[], Awaitable[bool]], seconds: float = 2.0) -> bool:
    """Whether ``check()`` comes true within ``seconds`` (Redis answers each connection in
    turn: what one connection did may not be seen by another at once)."""
    end = asyncio.get_running_loop().time() + seconds
    while not await check():
        if asyncio.get_running_loop().time() > end:
            return False
        await asyncio.sleep(0.02)
    return True


async def named(link: Link, node: str, name: str | None) -> bool:
    """Whether ``link`` finds ``node`` named ``name`` (None: gone)."""
    return await link.name_of(node) == name


def test_a_node_that_left_its_channel_is_gone_and_a_live_one_is_named(redis_server: Any) -> None:
    """A node is there, and named for redirects, while its liveness lasts and it is
    subscribed to its channel; killed (the subscription ends), it is gone at once."""

    async def run() -> None:
        a, b = Link(redis_server.url, "node-a", "n1"), Link(redis_server.url, "node-b")
        try:
            assert await b.name_of("node-a") is None
            await a.renew([])  # its liveness, but not subscribed yet: not there
            assert await b.alive(["node-a"]) == set()
            assert await b.name_of("node-a") is None
            pubsub = a.redis.pubsub()
            await pubsub.subscribe(channel("node-a"))
            assert await soon(lambda: named(b, "node-a", "n1"))  # the subscription reaches Redis
            assert await b.alive(["node-a", "node-c"]) == {"node-a"}
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            assert await soon(lambda: named(b, "node-a", None))  # the close reaches Redis
            assert await b.alive(["node-a"]) == set()  # killed: gone before its liveness lapses
            # Leases: one holder at a time.
            assert await a.acquire("t1") and not await b.acquire("t1")
            assert await b.owner("t1") == "node-a"
            await a.release_many(["t1"])
            assert await b.owner("t1") is None
            # A node without a name is named by its id.
            assert b.name == "node-b"
        finally:
            await a.close()
            await b.close()

    asyncio.run(run())


def test_a_renewal_keeps_its_own_leases_and_names_those_lost(redis_server: Any) -> None:
    """One beat renews every lease of a node in a call per RENEW_CHUNK leases: those it holds
    are kept (their time to live set again), one that lapsed (a Redis restart) is taken back,
    and those another node holds now are named, across the calls, in order."""

    async def run() -> None:
        a, b = Link(redis_server.url, "node-a"), Link(redis_server.url, "node-b")
        try:
            ids = [f"t{i:04d}" for i in range(2 * RENEW_CHUNK + 7)]  # three calls
            for t in ids:
                assert await a.acquire(t)
            taken = [ids[3], ids[RENEW_CHUNK + 1], ids[-1]]
            for t in taken:
                await a.release_many([t])
                assert await b.acquire(t)
            lapsed = ids[RENEW_CHUNK]
            await a.redis.delete(f"salad:lease:{lapsed}")
            await a.redis.pexpire(f"salad:lease:{ids[0]}", 50)
            assert await a.renew(ids) == taken
            assert await b.owner(lapsed) == "node-a"
            assert await a.redis.pttl(f"salad:lease:{ids[0]}") > LEASE_MS - 1000
            assert [await b.owner(t) for t in taken] == ["node-b"] * 3
            assert await b.alive(["node-a"]) == set()  # its liveness is set, but no channel read
            assert await a.redis.pttl("salad:alive:node-a") > 0
        finally:
            await a.close()
            await b.close()

    asyncio.run(run())
