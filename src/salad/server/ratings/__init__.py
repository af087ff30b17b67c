"""Results, ratings, profiles and leaderboards (#34): what a finished game leaves
(:mod:`.model`), what a player's profile shows (:mod:`.profile`), and how the app takes them
in (:func:`install`)."""

from __future__ import annotations

import logging
from dataclasses import replace

from fastapi import FastAPI

from salad.server.players.identity import Identities
from salad.server.ratings.model import game_results, rate
from salad.server.store import SqlStore, TableStore
from salad.server.store.ratings import RatingStore, ResultRow
from salad.server.store.ratings_sql import SqlRatings
from salad.server.tables import TableManager
from salad.server.tables.table import Table

log = logging.getLogger("salad.server")


class Ratings:
    """Results and ratings kept as games end, and what a player's export and deletion take
    of them (a :class:`~salad.server.players.identity.PlayerPart`)."""

    name = "ratings"

    def __init__(self, store: RatingStore, tables: TableStore) -> None:
        self.store = store
        self.tables = tables

    async def game_over(self, table: Table, finished_at: float = 0.0) -> None:
        """A game just ended (its last move stored): its results, and its ratings if rated
        (``finished_at``: when it ended, if not now). Recorded once, however often it is
        called. A failure is logged: the game itself is stored already."""
        try:
            results = game_results(table, await self.store.table_rated(table.id))
            results = [replace(r, finished_at=finished_at) for r in results]
            await self.store.record(results, rate if results and results[0].rated else None)
        except Exception:
            log.exception("table %s: the results of game %d", table.id, table.game_number)

    async def loaded(self, table: Table) -> None:
        """A table just loaded (a restart, a reload, another node's table taken over): whether
        it is rated (its lobby says), and its finished game's results, if its server stopped
        before recording them."""
        table.rated = await self.store.table_rated(table.id)  # read as the table's own rows
        if table.game is None or not table.game.is_over():
            return
        try:
            if await self.store.recorded(table.id, table.game_number):
                return
            row = await self.tables.game(table.id, table.game_number)
        except Exception:  # the table loads all the same: its next load tries again
            log.exception("table %s: the results of game %d", table.id, table.game_number)
            return
        log.info("table %s: recording the results of game %d late", table.id, table.game_number)
        await self.game_over(table, (row.finished_at if row else None) or 0.0)

    async def make_rated(self, table: Table) -> None:
        """Make a table just created rated: kept, and said in its lobby."""
        await self.store.set_rated(table.id, True)
        table.rated = True
        table.changed()

    async def export(self, player_id: str) -> dict[str, object]:
        def result(r: ResultRow) -> dict[str, object]:
            return {k: v for k, v in vars(r).items() if k not in ("player_id", "penalties")}

        return {
            "results": [result(r) for r in await self.store.results(player_id)],
            "ratings": [
                {**vars(r), "ordinal": r.ordinal} for r in await self.store.ratings(player_id)
            ],
            "history": [vars(h) for h in await self.store.history(player_id)],
        }

    async def forget(self, player_id: str) -> None:
        await self.store.forget(player_id)


def install(app: FastAPI, storage: SqlStore, manager: TableManager) -> None:
    """Keep the results of every game the app's tables finish, and register the part."""
    ratings = app.state.ratings = Ratings(SqlRatings(storage), storage)
    manager.registry.finished.append(ratings.game_over)
    manager.registry.loaded.append(ratings.loaded)  # the results a stopped server missed
    manager.registry.recover.append(ratings.store.unrecorded)
    identities: Identities = app.state.identities
    identities.parts.append(ratings)
