"""The tables a server holds in memory: loaded as last stored (one load per table, its game
replayed move by move), let go of when idle or played elsewhere; and the fenced store every
change of a table goes through (each under the table's lock, on this server's only copy)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, TypeVar

from salad.errors import SaladError
from salad.locale import N_, _
from salad.server.errors import ActionError
from salad.server.store import DamagedDatabase, StaleCopy, TableStore
from salad.server.tables.damage import Damaged, replay
from salad.server.tables.hand_end import restore_presses
from salad.server.tables.placement import Placement
from salad.server.tables.table import TABLE_ID, Table, TableStatus
from salad.server.tables.talk import Talk
from salad.server.tables.turns import STOP_WAIT, Turns
from salad.settings import from_ref

log = logging.getLogger("salad.server")

T = TypeVar("T")

STALE = 1012
"""The close code of connections to a table this server lets go of: reconnect."""

NO_TABLE = 4404
"""The close code of a connection to a table that does not exist: the web client stops."""

UNLOAD_AFTER = 600.0
"""Seconds a table no one uses stays in memory before it leaves (:meth:`Registry.sweep`)."""


class Registry:
    """The tables in memory, and when each was last used."""

    def __init__(
        self,
        storage: TableStore,
        placement: Placement,
        turns: Turns,
        talk: Talk,
        unload_after: float | None = UNLOAD_AFTER,
    ) -> None:
        self.storage = storage
        self.placement = placement
        self.turns = turns
        self.talk = talk
        self.unload_after = unload_after
        """Seconds after which a table no one uses leaves memory (None: never)."""
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._used: dict[str, float] = {}
        """When each table in memory was last asked for or changed (the loop's clock)."""
        self._sweeper: asyncio.Task[None] | None = None
        self.finished: list[Callable[[Table], Awaitable[None]]] = []
        """Called with a table whose game has just ended (its last move stored, the table's
        lock held): what keeps the games' results (:mod:`salad.server.ratings`)."""
        self.loaded: list[Callable[[Table], Awaitable[None]]] = []
        """Called with a table as it enters memory (loaded, or just made), before anyone
        else sees it (:meth:`entering`): what names a group's table's group, and records the
        results of a finished game whose server stopped before its :attr:`finished` ran."""
        self.recover: list[Callable[[], Awaitable[list[str]]]] = []
        """The ids of more tables to load as the server starts (if the placement resumes
        tables): those with a finished game whose results are missing."""
        self.damaged: dict[str, str] = {}
        """The tables that could not be opened, by id: what is wrong with them (logged once
        each: :meth:`tell`)."""

    async def entering(self, table: Table) -> None:
        """Run the :attr:`loaded` hooks on a table entering memory."""
        for loaded in self.loaded:
            await loaded(table)

    def busy(self, table_id: str) -> bool:
        """Whether the table is in memory or being loaded."""
        return table_id in self.tables or table_id in self._loading

    def touch(self, table_id: str) -> float:
        """Note the table was used now (the loop's clock, returned)."""
        now = self._used[table_id] = asyncio.get_running_loop().time()
        return now

    def add(self, table: Table) -> None:
        """Hold a table just created or loaded (its seats away from now)."""
        table.turn_start = now = self.touch(table.id)
        for s in table.seats:
            s.away_since = now
        self.tables[table.id] = table

    # -- life cycle -----------------------------------------------------------------------
    async def resume(self) -> None:
        """Load every table with a game in progress and every table :attr:`recover` names
        (if the placement resumes tables), then unload idle tables every while (if they are
        ever unloaded)."""
        ids: list[str] = []
        if self.placement.resume:
            # First the tables to recover, before any resumed game can end and be rated.
            for more in self.recover:
                ids += await more()
            ids += await self.storage.active_tables()
            ids = list(dict.fromkeys(ids))  # each once, in that order
        for table_id in ids:
            try:
                await self.get(table_id)
            except Damaged:
                pass  # said (tell)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
        if ids:
            log.info("resumed %d table(s): games in progress, or ended without results", len(ids))
        if self.unload_after is not None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def close(self) -> None:
        """Stop the sweeper, every table's timer and every connection."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            await asyncio.wait([self._sweeper], timeout=STOP_WAIT)  # as the bot turns
        for table in self.tables.values():
            if table.timer is not None:
                table.timer.cancel()
            for c in table.connections():
                c.stop()

    # -- finding tables -------------------------------------------------------------------
    async def get(self, table_id: str) -> Table:
        """The table in memory, loaded if need be: 404 if there is none, 503 if another
        server plays it (a cluster's)."""
        table = self.tables.get(table_id)
        if table is not None:
            self.touch(table_id)
            return table
        if not TABLE_ID.fullmatch(table_id):
            raise ActionError(_("no table {table}").format(table=repr(table_id)), 404)
        if not self.placement.owns(table_id):  # a cluster node routes requests to its node
            raise ActionError(
                _("table {table} is served by another server: retry").format(table=repr(table_id)),
                503,
            )
        loading = self._loading.get(table_id)
        if loading is None:
            # One load per table, however many requests ask for it meanwhile.
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        table = await asyncio.shield(loading)
        if table is None:
            raise ActionError(_("no table {table}").format(table=repr(table_id)), 404)
        return table

    async def _load(self, table_id: str) -> Table | None:
        """The table as stored, in memory; None if there is none. :class:`Damaged` (said once
        in the log: :meth:`tell`) if what is stored of it cannot be read back."""
        try:
            table = await self._read(table_id)
            self.damaged.pop(table_id, None)  # mended, if it was damaged
            return table
        except Damaged as exc:
            self.tell(exc)
            raise
        except DamagedDatabase as exc:
            damaged = Damaged(table_id, f"the database is damaged: {exc}")
        except (SaladError, ValueError, TypeError, KeyError) as exc:  # its rows, not the store
            damaged = Damaged(table_id, f"{type(exc).__name__}: {exc}")
        self.tell(damaged)
        raise damaged

    def tell(self, exc: Damaged) -> None:
        """Note a table that cannot be opened, and log why (one line, once a table)."""
        if exc.table_id not in self.damaged:
            log.error("table %s cannot be opened: %s", exc.table_id, exc.cause)
        self.damaged[exc.table_id] = exc.cause

    async def _read(self, table_id: str) -> Table | None:
        # The epoch is raised before anything is read: a move stored by a node that loaded the
        # table before is either in what is read below, or refused.
        epoch = await self.storage.fence(table_id) if self.placement.fencing else None
        row = await self.storage.load_table(table_id)
        if row is None:
            return None
        rs = from_ref({"preset": row.preset, "settings": row.settings}, f"table {table_id}")
        table = Table(row, rs)
        table.epoch = epoch
        if row.status in (TableStatus.PLAYING, TableStatus.OVER):
            game_row = await self.storage.game(table_id, row.game_number)
            moves = await self.storage.moves(table_id, row.game_number)
            if game_row is None:
                raise Damaged(table_id, f"game {row.game_number} is missing")
            game = replay(table_id, rs, len(table.seats), game_row, moves)
            table.game = game
            table.moves = len(moves)
            table.game_players = game_row.players
            table.resume_hand_end()
        self.talk.restore(table, row.talk)
        restore_presses(table, row.pressed)
        await self.entering(table)
        self.add(table)
        self.turns.schedule(table)
        return table

    # -- unloading idle tables ----------------------------------------------------------------
    def idle(self, table: Table, now: float) -> bool:
        """Whether ``table`` may leave memory (to come back as stored on the next :meth:`get`):
        no one is connected, nothing is under way (no change holds its lock, no bot or timer
        is due: a game bots are playing never is) and no one has asked for it lately."""
        if self.unload_after is None or table.lock.locked() or table.timer is not None:
            return False
        if table.spectators or any(s.conns for s in table.seats):
            return False
        return now - self._used.get(table.id, now) >= self.unload_after

    def sweep(self) -> list[str]:
        """Unload every idle table; the ids unloaded. It never awaits, so no request sees a
        table between the check and its removal."""
        now = asyncio.get_running_loop().time()
        gone = [t.id for t in self.tables.values() if self.idle(t, now)]
        for table_id in gone:
            del self.tables[table_id]
            self._used.pop(table_id, None)
            self.talk.rooms.pop(table_id, None)  # kept in the store: back when it is loaded
            self.placement.on_unload(table_id)
        if gone:
            log.info("unloaded %d idle table(s); %d in memory", len(gone), len(self.tables))
        return gone

    def drop(self, table_id: str, code: int, reason: str) -> None:
        """Let go of a table at once (another server holds it now): its timers stop and its
        connections close with ``code``, for their clients to reconnect."""
        table = self.tables.pop(table_id, None)
        self._used.pop(table_id, None)
        self.talk.rooms.pop(table_id, None)
        if table is None:
            return
        if table.timer is not None:
            table.timer.cancel()
            table.timer = None
        table.status = TableStatus.DROPPED
        for conn in table.connections():
            conn.kick(code, reason)

    def let_go(self, table_id: str, reason: str) -> None:
        """Drop a copy of a table that another server may play now (its connections close
        with :data:`STALE` and ``reason``), and say it left memory."""
        self.drop(table_id, STALE, reason)
        self.placement.on_unload(table_id)

    async def _sweep_forever(self) -> None:
        assert self.unload_after is not None
        every = min(60.0, max(0.2, self.unload_after / 4))
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # a sweep that fails leaves tables in memory, nothing worse
                log.exception("unloading idle tables failed (%d in memory)", len(self.tables))

    # -- storing a table's changes -----------------------------------------------------------
    async def store(self, table: Table, fn: Callable[..., Awaitable[T]], *args: Any) -> T:
        """Store a change of ``table`` from this copy, ``fn(table.id, *args, epoch=...)`` (a
        method of :attr:`storage`), unless another server may play the table now (a cluster's;
        :meth:`TableStore.fence`): then this copy is let go and the change refused."""
        await self.check_sure(table)
        try:
            return await fn(table.id, *args, epoch=table.epoch)
        except StaleCopy:
            self.stale(table, fn.__name__)

    async def check_sure(self, table: Table) -> None:
        """Refuse (503) a change of a table this server may no longer hold, and let it go."""
        if not await self.placement.sure(table.id):
            log.warning("table %s: not sure this server still holds it; letting go", table.id)
            self.let_go(table.id, N_("this table moved to another server: reconnect"))
            raise ActionError(_("this table moved to another server: reconnect"), 503)

    def stale(self, table: Table, what: str) -> NoReturn:
        """Another server loaded this table since this copy was (while this one was cut off or
        frozen): let go of the copy (the next request loads the table) and refuse the change."""
        log.warning("table %s: %s refused, another server played it; reloading", table.id, what)
        self.let_go(table.id, N_("this table was played elsewhere meanwhile: reconnect"))
        raise ActionError(_("the table changed meanwhile: reload it and try again"), 409)
