"""Results, ratings, profiles and leaderboards (#34): what a finished game leaves
(:mod:`.model`), what a player's profile shows (:mod:`.profile`), and how the app takes them
in (:func:`install`)."""

from __future__ import annotations

import logging

from fastapi import FastAPI

from salad.server.players.identity import Identities
from salad.server.ratings.model import game_results, rate
from salad.server.store import SqlStore
from salad.server.store.ratings import RatingStore, ResultRow, SqlRatings
from salad.server.tables import TableManager
from salad.server.tables.table import Table

log = logging.getLogger("salad.server")


class Ratings:
    """Results and ratings kept as games end, and what a player's export and deletion take
    of them (a :class:`~salad.server.players.identity.PlayerPart`)."""

    name = "ratings"

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    async def game_over(self, table: Table) -> None:
        """A game just ended (its last move stored): its results, and its ratings if rated.
        A failure is logged: the game itself is stored already."""
        try:
            results = game_results(table, await self.store.table_rated(table.id))
            await self.store.record(results, rate if results and results[0].rated else None)
        except Exception:
            log.exception("table %s: the results of game %d", table.id, table.game_number)

    async def export(self, player_id: str) -> dict[str, object]:
        def result(r: ResultRow) -> dict[str, object]:
            return {k: v for k, v in vars(r).items() if k != "player_id"}

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
    ratings = app.state.ratings = Ratings(SqlRatings(storage))
    manager.registry.finished.append(ratings.game_over)
    identities: Identities = app.state.identities
    identities.parts.append(ratings)
