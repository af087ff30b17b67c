"""One node of a cluster: which tables it holds, and the loops that keep that true.

Every :data:`~salad.server.cluster.link.BEAT` the node renews its leases and its liveness and
lets go of the tables it unloaded; beside that, it takes over every table with a game in
progress that no node holds (its holder died) from the database, where every move was stored
before anyone was told of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError

from salad.locale import N_, _
from salad.server.cluster.link import BEAT, FORGOTTEN, LEASE_MS, Link, channel
from salad.server.errors import DAMAGED_DATABASE, ActionError
from salad.server.store import DamagedDatabase, StoreTimeout
from salad.server.tables import TableManager
from salad.server.tables.turns import STOP_WAIT

log = logging.getLogger("salad.server.cluster")

AWAY = 1012
"""The close code of a websocket whose table moved to another node: reconnect (the balancer
or the node it reaches sends the client to the table's new holder)."""

MOVED = N_("this table moves to another server: reconnect")
NODE_HEADER = "salad-node"  # names the node holding a table on its answers

ADOPT_EVERY = 2
"""Beats between two looks for tables with a game in progress that no node holds."""


class Cluster:
    """This node's part in the cluster on Redis at ``url``: the placement (see
    :class:`~salad.server.tables.placement.Placement`) of its manager's tables (:meth:`serve`).

    ``name``: this node's name in the load balancer (its HAProxy ``server`` line), said in a
    ``salad-node`` header on its tables' answers and kept in Redis beside its liveness: the
    other nodes redirect its tables' requests to ``?node=NAME``. None (tests of one node's
    leases): the node's id stands for it.
    """

    fencing = True  # a node frozen past its lease stores nothing after a takeover
    resume = False  # _adopt takes the tables no node holds, one node each

    def __init__(self, url: str, name: str | None = None) -> None:
        self.node = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.name = name
        self.headers = [(NODE_HEADER.encode(), name.encode())] if name else []
        self.link = Link(url, self.node, name)
        self.manager: TableManager  # set by serve()
        self.held: dict[str, float] = {}  # the tables whose lease it holds: when it took each
        self._tasks: list[asyncio.Task[None]] = []
        self.renewed_at = 0.0  # when its leases were last renewed (event loop time)
        self._deaf: set[str] = set()  # holders found gone at the last look for tables to adopt
        # Set by stop(): the loops end at their next turn (on Python 3.11 the Redis client's
        # asyncio.wait_for may swallow a cancellation).
        self._stopping = False
        self._outlasting: dict[str, asyncio.Future[bool]] = {}  # dead holders waited out

    def serve(self, manager: TableManager) -> None:
        """Play the tables of ``manager``, built with this node as its placement
        (``TableManager(storage, placement=cluster)``)."""
        assert manager.placement is self, "the manager must be built on this node's placement"
        self.manager = manager

    # -- leases ---------------------------------------------------------------------------
    def owns(self, table_id: str) -> bool:
        return table_id in self.held

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if no node holds it."""
        if table_id in self.held:
            return True
        if await self.link.acquire(table_id):
            self.held[table_id] = asyncio.get_running_loop().time()
            return True
        return False

    async def _take(self, table_id: str, dead: str) -> bool:
        """Take the table from a node found dead (see :meth:`_adopt`)."""
        if await self.link.take(table_id, dead):
            log.warning("cluster: took table %s from node %s, which is gone", table_id, dead)
            self.held[table_id] = asyncio.get_running_loop().time()
            return True
        return False

    async def holder_name(self, table_id: str) -> str | None:
        """None if this node serves the table (it holds it, or took it now); else the balancer's
        name of the live node that holds it; ActionError (404, 503) if neither can be said.

        A lease not renewed lately (the node was frozen) may have passed to another node:
        Redis is asked before the table is served from a stale copy. A holder that is gone
        (killed) is waited out, at most a lease's life, then the table is taken.
        """
        if table_id in self.held:
            try:
                if await self._still_ours(table_id):
                    return None
            except RedisError as exc:
                raise self._no_redis(exc) from None
            self._lost(table_id)
        try:
            for attempt in range(3):
                owner = await self.link.owner(table_id)
                if owner is None and attempt == 0:
                    await self._must_exist(table_id)
                if owner is None and await self.claim(table_id):
                    return None
                if owner is None:
                    continue
                if owner == self.node:
                    return None
                name = await self.link.name_of(owner)
                if name is not None:
                    return name
                # Its holder is gone: wait for its lease to lapse or be taken.
                if not await self._outlast(table_id, owner):
                    break
        except RedisError as exc:
            raise self._no_redis(exc) from None
        raise ActionError(_("the table is changing servers: retry"), 503)

    async def _must_exist(self, table_id: str) -> None:
        """Raise the 404 of a table that is not in the database, before a table no node holds
        is taken: a made-up id takes no lease and costs the store's batches nothing."""
        try:
            found = await self.manager.storage.table_exists(table_id)
        except DamagedDatabase as exc:
            log.error("cluster: the database is damaged: %s", exc)
            raise ActionError(_(DAMAGED_DATABASE), 503) from None
        except (SQLAlchemyError, StoreTimeout) as exc:
            log.warning("cluster: the database did not answer a look-up: %s", exc)
            raise ActionError(_("the database does not answer: retry"), 503) from None
        if not found:
            raise ActionError(_("no table {table}").format(table=repr(table_id)), 404)

    @staticmethod
    def _no_redis(exc: RedisError) -> ActionError:
        log.warning(
            "cluster: Redis did not answer a request's look-up: %s: %s", type(exc).__name__, exc
        )
        return ActionError(_("the cluster's Redis does not answer: retry"), 503)

    async def _outlast(self, table_id: str, owner: str) -> bool:
        """Wait (at most a lease's life) until ``owner`` no longer holds the table; the
        requests for one table share one wait."""
        waiting = self._outlasting.get(table_id)
        if waiting is None:
            waiting = asyncio.ensure_future(self._wait_out(table_id, owner))
            self._outlasting[table_id] = waiting
            waiting.add_done_callback(lambda _: self._outlasting.pop(table_id, None))
        return await asyncio.shield(waiting)

    async def _wait_out(self, table_id: str, owner: str) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + LEASE_MS / 1000 + BEAT
        while loop.time() < deadline:
            await asyncio.sleep(BEAT / 2)
            if await self.link.owner(table_id) != owner:
                return True
        return False

    async def sure(self, table_id: str) -> bool:
        """Whether this node surely holds the table now: it does if its leases were renewed
        lately, else Redis says (no answer: not sure)."""
        if table_id not in self.held:
            return False
        try:
            return await self._still_ours(table_id)
        except RedisError:
            return False

    async def _still_ours(self, table_id: str) -> bool:
        """Whether the lease of a table this node took is still its own: surely so if its
        leases were renewed lately, else Redis is asked (a RedisError if it does not answer)."""
        renewed = asyncio.get_running_loop().time() - self.renewed_at
        if renewed < LEASE_MS / 1000 - BEAT:
            return True
        return await self.link.owner(table_id) == self.node

    def _lost(self, table_id: str) -> None:
        """Another node holds the table now: drop this node's copy and its connections."""
        log.warning("cluster: table %s is held by another node now; dropping it", table_id)
        self.held.pop(table_id, None)
        self.manager.drop(table_id, AWAY, MOVED)

    def on_unload(self, table_id: str) -> None:
        if self.held.pop(table_id, None) is not None:
            self._spawn(self._release(table_id))

    async def _release(self, table_id: str) -> None:
        """Let the lease of a table that left memory go."""
        with contextlib.suppress(RedisError):
            await self.link.release_many([table_id])

    async def forgotten(self, player_id: str) -> None:
        """Tell the other nodes that a player was deleted: their tables forget the player's
        seats (this node's did already). Redis not answering: only a warning, the store's
        rows are cleared (a table loaded again forgets them)."""
        try:
            await self.link.forgotten(player_id)
        except RedisError as exc:
            log.warning("cluster: a deleted player could not be told to the others (%s)", exc)

    def _spawn(self, coro: Any) -> None:
        self._tasks.append(asyncio.get_running_loop().create_task(coro))
        self._tasks = [t for t in self._tasks if not t.done()]

    # -- life cycle -----------------------------------------------------------------------
    async def start(self) -> None:
        await self.link.ping()  # no Redis: the server does not start (one line says why)
        ready = asyncio.get_running_loop().create_future()
        self._tasks += [
            asyncio.get_running_loop().create_task(self._present(ready)),
            asyncio.get_running_loop().create_task(self._keep()),
            asyncio.get_running_loop().create_task(self._watch()),
        ]
        await ready
        await self._renew()  # its liveness, and name, before the first beat
        log.info("cluster node %s on %s", self.node, self.link.url)

    async def stop(self) -> None:
        """Stop this node's loops, let its leases go and close its link to Redis, each step
        within :data:`STOP_WAIT` seconds (one that takes longer is left behind, in a warning)."""
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            _done, pending = await asyncio.wait(self._tasks, timeout=STOP_WAIT)
            if pending:
                names = ", ".join(sorted(t.get_coro().__qualname__ for t in pending))  # type: ignore[union-attr]
                log.warning("cluster: stopping, %s did not end in %g s", names, STOP_WAIT)
        for step in (functools.partial(self.link.release_many, list(self.held)), self.link.close):
            try:
                await asyncio.wait_for(step(), STOP_WAIT)
            except (RedisError, OSError) as exc:  # TimeoutError is an OSError
                log.warning("cluster: stopping, Redis does not answer (%s)", str(exc) or "timeout")

    # -- the loops ----------------------------------------------------------------------------
    async def _present(self, ready: asyncio.Future[None]) -> None:
        """Stay subscribed to this node's channel (the other nodes' sign that it lives), afresh
        after a break, and to :data:`FORGOTTEN` (a player deleted on any node: this node's
        tables forget their seats)."""
        while not self._stopping:
            pubsub = self.link.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node), FORGOTTEN)
                if not ready.done():
                    ready.set_result(None)
                while not self._stopping:
                    said = await pubsub.get_message(timeout=1.0)  # also reads the break
                    if said is not None and said["channel"] == FORGOTTEN:
                        self.manager.forget_player(str(said["data"]))
            except Exception as exc:  # whatever the client raises: start afresh
                log.warning(
                    "cluster: Redis channel lost (%s: %s); reconnecting", type(exc).__name__, exc
                )
                await asyncio.sleep(BEAT)
            finally:
                with contextlib.suppress(BaseException):
                    await pubsub.aclose()

    async def _keep(self) -> None:
        """Renew the leases and this node's liveness every beat, and nothing else (a slow
        database never holds a renewal up)."""
        while not self._stopping:
            await asyncio.sleep(BEAT)
            try:
                await self._renew()
            except (RedisError, OSError) as exc:
                log.warning("cluster: Redis does not answer (%s)", exc)
            except Exception:
                log.exception("cluster: keeping the leases failed")

    async def _watch(self) -> None:
        """Every :data:`ADOPT_EVERY` beats, take over the tables no node holds."""
        while not self._stopping:
            await asyncio.sleep(ADOPT_EVERY * BEAT)
            try:
                await self._adopt()
            except (RedisError, OSError) as exc:
                log.warning("cluster: Redis does not answer (%s)", exc)
            except DamagedDatabase as exc:
                log.error("cluster: the database is damaged (%s)", exc)
            except (SQLAlchemyError, StoreTimeout) as exc:
                said = (str(exc).splitlines() or [type(exc).__name__])[0]  # SQL follows
                log.warning("cluster: the database does not answer (%s)", said)
            except Exception:
                log.exception("cluster: watching the other nodes failed")

    async def _renew(self) -> None:
        now = asyncio.get_running_loop().time()
        # Let go of the tables unloaded (not of one still loading: on a slow database a load
        # may take longer than a beat, and another node would load it meanwhile).
        idle = [
            table_id
            for table_id, since in self.held.items()
            if now - since > 2 * BEAT and not self.manager.busy(table_id)
        ]
        for table_id in idle:
            del self.held[table_id]
        # In one round trip: one by one, many unloaded together held the others' renewal up.
        await self.link.release_many(idle)
        for table_id in await self.link.renew(list(self.held)):
            self._lost(table_id)
        self.renewed_at = now

    async def _adopt(self) -> None:
        """Take every table with a game in progress that no node holds, or whose holder is
        gone at two looks in a row.

        A node killed (or cut off from Redis) leaves its channel at once, while its leases last
        up to :data:`LEASE_MS`: its tables are taken at the second look rather than when they
        lapse. That is safe: each load raises the table's epoch first, so a holder only cut off
        stores nothing more, and drops its copy when it finds its lease gone.
        """
        ids = await self.manager.storage.active_tables()
        ids = [t for t in ids if t not in self.held]
        owners = await self.link.owners(ids)
        others = {o for o in owners if o is not None and o != self.node}
        deaf = others - await self.link.alive(list(others)) if others else set()
        dead, self._deaf = deaf & self._deaf, deaf
        taken = [
            table_id
            for table_id, owner in zip(ids, owners, strict=True)
            if (owner is None and await self.claim(table_id))
            or (owner in dead and await self._take(table_id, owner))
        ]
        # All at once: their loads share the store's group commits.
        await asyncio.gather(*(self._take_over(table_id) for table_id in taken))

    async def _take_over(self, table_id: str) -> None:
        try:
            await self.manager.get(table_id)
            log.warning("cluster: took over table %s (no node held it)", table_id)
        except Exception:
            log.exception("cluster: table %s could not be taken over", table_id)
