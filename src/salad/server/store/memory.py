"""An in-memory :class:`~.base.TableStore` (the table manager's unit tests) with the SQL store's
semantics: a move numbered twice refused, fencing epochs and their refusals. Rows are copied in
and out, so no caller holds the store's own."""

from __future__ import annotations

import asyncio
import copy
import time
from typing import Any

from salad.server.store.base import (
    KEPT,
    DuplicateMove,
    Epoch,
    GameRow,
    MoveRow,
    Over,
    Players,
    SeatRow,
    StaleCopy,
    TableRow,
)


class MemoryStore:
    def __init__(self) -> None:
        self.tables: dict[str, TableRow] = {}
        self.games_of: dict[str, dict[int, GameRow]] = {}
        self.moves_of: dict[tuple[str, int], dict[int, MoveRow]] = {}
        self.epochs: dict[str, int] = {}
        self.reviews: dict[tuple[str, int, int, int], str] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def ping(self) -> None:
        await asyncio.sleep(0)

    def _held(self, table_id: str, epoch: int | None) -> None:
        if epoch is not None and self.epochs.get(table_id) != epoch:
            raise StaleCopy(f"table {table_id} was loaded by another server")

    def _table(self, table_id: str) -> TableRow:
        row = self.tables.get(table_id)
        if row is None:  # as the database's foreign keys would refuse it
            raise KeyError(f"no table {table_id!r}")
        return row

    async def create_table(self, row: TableRow) -> None:
        if row.id in self.tables:
            raise KeyError(f"table {row.id!r} exists already")
        self.tables[row.id] = copy.deepcopy(row)
        self.tables[row.id].created_at = time.time()

    async def save_seats(self, table_id: str, seats: list[SeatRow], *, epoch: Epoch = None) -> None:
        self._held(table_id, epoch)
        row = self._table(table_id)
        row.seats = copy.deepcopy(seats)
        row.players = len(seats)

    async def start_game(
        self, table_id: str, game_number: int, seed: int, players: Players, *, epoch: Epoch = None
    ) -> None:
        self._held(table_id, epoch)
        games = self.games_of.setdefault(table_id, {})
        if game_number in games:
            raise KeyError(f"table {table_id}: game {game_number} exists already")
        row = self._table(table_id)
        games[game_number] = GameRow(
            game_number, seed, copy.deepcopy(players), "playing", started_at=time.time()
        )
        row.status, row.game_number = "playing", game_number

    async def add_move(
        self,
        table_id: str,
        game_number: int,
        move: MoveRow,
        over: Over | None = None,
        epoch: Epoch = None,
    ) -> None:
        self._held(table_id, epoch)
        moves = self.moves_of.setdefault((table_id, game_number), {})
        if move.seq in moves:
            raise DuplicateMove(f"table {table_id}: move {move.seq} is stored already")
        moves[move.seq] = copy.copy(move)
        if over is not None:
            game = self.games_of[table_id][game_number]
            game.status, game.finished_at = "over", time.time()
            game.totals, game.winners = list(over[0]), list(over[1])
            self._table(table_id).status = "over"

    async def take_back(
        self, table_id: str, game_number: int, keep: int, players: Players, *, epoch: Epoch = None
    ) -> None:
        self._held(table_id, epoch)
        moves = self.moves_of.get((table_id, game_number), {})
        for seq in [s for s in moves if s > keep]:
            del moves[seq]
        self.games_of[table_id][game_number].players = copy.deepcopy(players)

    async def fence(self, table_id: str) -> int:
        if table_id not in self.tables:
            return 0
        self.epochs[table_id] = epoch = self.epochs.get(table_id, 0) + 1
        return epoch

    async def keep(self, table_id: str, part: str, value: Any, *, epoch: Epoch = None) -> None:
        if part not in KEPT:
            raise ValueError(f"a table keeps no {part!r}")
        self._held(table_id, epoch)
        if table_id in self.tables:  # as SQL's update of no row: nothing
            setattr(self.tables[table_id], part, copy.deepcopy(value))

    async def save_review(
        self, table_id: str, game_number: int, seat: int, worlds: int, review: str
    ) -> None:
        self.reviews[(table_id, game_number, seat, worlds)] = review

    async def load_table(self, table_id: str) -> TableRow | None:
        row = self.tables.get(table_id)
        return None if row is None else copy.deepcopy(row)

    async def table_exists(self, table_id: str) -> bool:
        return table_id in self.tables

    async def active_tables(self) -> list[str]:
        return sorted(t for t, row in self.tables.items() if row.status == "playing")

    async def games(self, table_id: str) -> list[GameRow]:
        games = self.games_of.get(table_id, {})
        return [copy.deepcopy(games[n]) for n in sorted(games)]

    async def game(self, table_id: str, game_number: int) -> GameRow | None:
        found = self.games_of.get(table_id, {}).get(game_number)
        return None if found is None else copy.deepcopy(found)

    async def moves(self, table_id: str, game_number: int) -> list[MoveRow]:
        moves = self.moves_of.get((table_id, game_number), {})
        return [copy.copy(moves[s]) for s in sorted(moves)]

    async def load_review(
        self, table_id: str, game_number: int, seat: int, worlds: int
    ) -> str | None:
        return self.reviews.get((table_id, game_number, seat, worlds))
