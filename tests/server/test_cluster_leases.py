"""A node's leases on a real Redis: the leases that requests for made-up tables take are let go
together, so that a client asking for many of them cannot hold the renewal of the real ones up
(a lease not renewed for 3 s passes to another node, which takes the table)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from salad.server.cluster import Cluster
from salad.server.cluster.link import BEAT
from salad.server.storage import Storage
from salad.server.tables import TableManager

MADE_UP = 10_000


def test_the_leases_of_made_up_tables_do_not_hold_the_renewal_up(
    redis_server: Any, tmp_path: Path
) -> None:
    ids = [f"made-up-{i}" for i in range(MADE_UP)]

    async def run() -> tuple[float, list[str | None], dict[str, float], str | None]:
        storage = Storage(str(tmp_path / "t.db"))
        cluster = Cluster(redis_server.url, TableManager(storage))
        try:
            # Each request for a made-up table took its lease (then found no table).
            assert all(await asyncio.gather(*(cluster.claim(t) for t in ids)))
            loop = asyncio.get_running_loop()
            for t in ids:
                cluster.held[t] = loop.time() - 3 * BEAT
            assert await cluster.claim("real")  # a table taken a moment ago: kept
            started = loop.time()
            await cluster._renew()
            took = loop.time() - started
            return (
                took,
                await cluster.link.owners(ids),
                cluster.held,
                await cluster.link.owner("real"),
            )
        finally:
            await cluster.link.close()
            storage.close()

    took, owners, held, real = asyncio.run(run())
    assert set(owners) == {None}  # every made-up table's lease let go
    assert list(held) == ["real"] and real is not None
    # One beat's renewal within the beat: letting 10 000 leases go one by one took about 1 s.
    assert took < BEAT, f"renewing took {took:.2f} s"
