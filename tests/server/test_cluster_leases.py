"""A node's leases on a real Redis: a request for a made-up table takes none (it is answered
404 from a look-up in the database, and costs the writer nothing), and the leases a node lets
go are let go together, so that however many there are they cannot hold the renewal of the
others up (a lease not renewed for 3 s passes to another node, which takes the table); a
node told to stop stops, though the cancellation of one of its loops is lost; and the look
for tables no node holds keeps off the writer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from redis.exceptions import RedisError
from sqlalchemy import create_engine, text

from salad.formats.rules import load_ruleset
from salad.server.cluster.link import BEAT
from salad.server.cluster.node import Cluster
from salad.server.errors import DAMAGED_DATABASE, ActionError
from salad.server.store import MemoryStore, SqlStore, TableRow, TableStore, database_url
from salad.server.tables import TableManager
from salad.server.tables.turns import STOP_WAIT

MANY = 10_000


def node_on(url: str, storage: TableStore) -> Cluster:
    """A cluster node on Redis at ``url`` with a manager of its tables on ``storage``."""
    node = Cluster(url)
    node.serve(TableManager(storage, placement=node))
    return node


def rename_tables(url: str) -> None:
    """The tables gone from the database (damaged: the store says so, as DamagedDatabase)."""
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as conn:
            conn.execute(text("ALTER TABLE salad_tables RENAME TO gone"))
    finally:
        engine.dispose()


def test_many_leases_let_go_do_not_hold_the_renewal_up(redis_server: Any, tmp_path: Path) -> None:
    ids = [f"unloaded-{i}" for i in range(MANY)]

    async def run() -> tuple[float, list[str | None], dict[str, float], str | None]:
        cluster = node_on(redis_server.url, MemoryStore())
        try:
            # Leases of tables this node no longer has in memory, past two beats.
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

    took, owners, held, real = asyncio.run(run())
    assert set(owners) == {None}  # every such lease let go
    assert list(held) == ["real"] and real is not None
    # One beat's renewal within the beat: letting 10 000 leases go one by one took about 1 s.
    assert took < BEAT, f"renewing took {took:.2f} s"


def test_a_made_up_table_takes_no_lease_and_a_real_one_does(
    redis_server: Any, tmp_path: Path
) -> None:
    async def run() -> None:
        storage = SqlStore(str(tmp_path / "t.db"))
        await storage.open()
        rs = load_ruleset("canadian")
        row = TableRow("real", rs.preset, rs.settings, 4, None, None, "lobby", 1)
        await storage.create_table(row)
        cluster = node_on(redis_server.url, storage)
        try:
            for made_up in ("made-up", "x" * 32):
                with pytest.raises(ActionError) as refused:
                    await cluster.holder_name(made_up)
                assert (refused.value.status, refused.value.message) == (
                    404,
                    f"no table {made_up!r}",
                )
                assert await cluster.link.owner(made_up) is None
            assert cluster.held == {}
            assert await cluster.holder_name("real") is None  # this node serves it
            assert await cluster.link.owner("real") == cluster.node
            # A database that fails (here damaged: its tables gone) is a 503 that says so; no
            # lease.
            rename_tables(storage.url)
            with pytest.raises(ActionError) as away:
                await cluster.holder_name("other")
            assert (away.value.status, away.value.message) == (503, DAMAGED_DATABASE)
            assert await cluster.link.owner("other") is None
        finally:
            await cluster.link.close()
            await storage.close()

    asyncio.run(run())


def test_a_node_stops_though_a_cancellation_is_lost(redis_server: Any, tmp_path: Path) -> None:
    """A node told to stop stops: its loops end even when the cancellation of one is lost
    (on Python 3.11, ``asyncio.wait_for`` inside the Redis client may swallow it, and the
    renewal loop carried on, holding the node's exit up until it was killed)."""

    async def run() -> tuple[float, list[bool]]:
        cluster = node_on(redis_server.url, MemoryStore())
        await cluster.start()
        renewing = asyncio.Event()

        async def renew_losing_the_cancel() -> None:
            renewing.set()
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:  # what the client did with it
                raise RedisError("Timeout reading from the socket") from None

        cluster._renew = renew_losing_the_cancel  # type: ignore[method-assign]
        await asyncio.wait_for(renewing.wait(), 5)
        tasks = list(cluster._tasks)
        started = asyncio.get_running_loop().time()
        await cluster.stop()
        took = asyncio.get_running_loop().time() - started
        done = [t.done() for t in tasks]
        cluster._stopping = True  # so that a loop that carried on ends, for the test to end
        await asyncio.wait(tasks, timeout=2)
        return took, done

    took, done = asyncio.run(run())
    assert all(done), "a loop of the node carried on after it stopped"
    assert took < STOP_WAIT, f"stopping took {took:.1f} s"


def test_the_look_for_unheld_tables_keeps_off_the_batches(
    redis_server: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every second each node looks for the tables being played that no node holds. It reads
    them on a connection of its own, not in the store's batches, whose moves would wait
    behind it; and a database that does not answer is one line in the log, not a traceback
    every second."""

    async def run() -> None:
        first = TableManager(SqlStore(str(tmp_path / "t.db")))
        await first.open()
        made = await first.create(load_ruleset("canadian"), "Host", [("bot", "random")] * 3)
        await first.start(made.table_id, made.token)
        await first.close()  # its node is gone: no lease, and the game stays in the database
        storage = SqlStore(str(tmp_path / "t.db"))
        cluster = node_on(redis_server.url, storage)
        manager = cluster.manager
        batched, look = storage.commit.call, storage.active_tables
        looking = False

        async def no_look(op: Any) -> Any:
            assert not looking, "the look went through the batches"
            return await batched(op)

        async def looked() -> list[str]:
            nonlocal looking
            looking = True
            try:
                return await look()
            finally:
                looking = False

        storage.commit.call = no_look  # type: ignore[method-assign]
        storage.active_tables = looked  # type: ignore[method-assign]
        try:
            await cluster._adopt()
            assert await cluster.link.owner(made.table_id) == cluster.node
            rename_tables(storage.url)
            watching = asyncio.ensure_future(cluster._watch())
            await asyncio.sleep(3 * BEAT)
            cluster._stopping = True
            await asyncio.wait([watching], timeout=2 * BEAT)
        finally:
            await cluster.link.close()
            await manager.close()

    asyncio.run(run())
    said = [r for r in caplog.records if "the database is damaged" in r.getMessage()]
    assert said and all(r.exc_info is None and "\n" not in r.getMessage() for r in said), said
