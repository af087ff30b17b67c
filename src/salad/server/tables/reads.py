"""What is read of a table without changing it: its games, and a finished game's record."""

from __future__ import annotations

from typing import Any

from salad.formats.records import record_from_game
from salad.locale import _
from salad.server.errors import ActionError
from salad.server.tables.damage import Damaged, replay
from salad.server.tables.registry import Registry
from salad.server.tables.table import TableStatus


class Reads:
    """Answers about a table's games, from memory for the game being played."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def games(self, table_id: str) -> list[dict[str, Any]]:
        """Every game of the table: number, status, totals (live for the game being played),
        winners, who sat where (a seat without a name: ``Seat N``) and when it began and
        ended."""
        table = await self.registry.get(table_id)
        live = None if table.game is None else (table.game_number, list(table.game.totals))
        return [
            {
                "game_number": r.game_number,
                "status": r.status,
                "totals": live[1] if live and live[0] == r.game_number else r.totals,
                "winners": r.winners or [],
                "players": [
                    p.get("name") or _("Seat {n}").format(n=i) for i, p in enumerate(r.players)
                ],
                "started_at": r.started_at,
                "finished_at": r.finished_at,
            }
            for r in await self.registry.storage.games(table_id)
        ]

    async def record(self, table_id: str, number: int | None) -> dict[str, Any]:
        """The record of finished game ``number`` (None: the table's current game): 404 if
        there is no such game, 409 if it is not finished."""
        table = await self.registry.get(table_id)
        n = table.game_number if number is None else number
        if not 1 <= n <= table.game_number:
            raise ActionError(_("table {table} has no game {n}").format(table=table_id, n=n), 404)
        if n == table.game_number:
            if table.status == TableStatus.LOBBY:
                raise ActionError(_("game {n} has not started yet").format(n=n), 409)
            if table.status == TableStatus.PLAYING or table.game is None:
                raise ActionError(_("game {n} is still being played").format(n=n), 409)
            return record_from_game(table.game, table.game_players)
        storage = self.registry.storage
        row = await storage.game(table_id, n)
        if row is None:
            raise ActionError(_("table {table} has no game {n}").format(table=table_id, n=n), 404)
        moves = await storage.moves(table_id, n)
        try:
            game = replay(table_id, table.ruleset, len(row.players), row, moves)
        except Damaged as exc:
            self.registry.tell(exc)
            raise
        return record_from_game(game, row.players)
