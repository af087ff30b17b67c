"""Players the site remembers (#34), behind a small interface of their own
(:class:`PlayerStore`) beside the tables' (:class:`~.base.TableStore`), in the same database:
:class:`SqlPlayers` on a :class:`~.sql.SqlStore` (its group commit, its connections) and
:class:`MemoryPlayers` (a dict, for tests in one process).

A player is an id (random, unguessable, held by its browser in a signed cookie) and what they
chose: a name (one player's at a time, whatever its case), a colour, a language.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.expression import ColumnElement

from salad.server.store.migrations.versions import r0004_players
from salad.server.store.sql import SqlStore

(players_t,) = r0004_players.tables()


class NameTaken(ValueError):
    """A name another player has (names are compared casefolded)."""


@dataclass
class PlayerRow:
    id: str
    name: str | None
    colour: str
    language: str
    created_at: float = 0.0
    seen_at: float = 0.0
    deleted_at: float | None = None


def name_key(name: str | None) -> str | None:
    """The form two names are compared in: ``Éva`` and ``éVA`` are one name.

    >>> name_key("Éva") == name_key("éVA"), name_key(None)
    (True, None)
    """
    return None if name is None else name.casefold()


class PlayerStore(Protocol):
    """The players: made, read, changed."""

    async def create_player(self, row: PlayerRow) -> None:
        """A new player (its name free, else :class:`NameTaken`)."""

    async def player(self, player_id: str) -> PlayerRow | None:
        """A player by id (None: no such player)."""

    async def player_named(self, name: str) -> PlayerRow | None:
        """The player of that name, whatever its case (None: nobody has it)."""

    async def update_player(
        self, player_id: str, *, name: str | None, colour: str, language: str
    ) -> None:
        """A player's new name, colour and language (a name another has: :class:`NameTaken`)."""


class SqlPlayers:
    """A :class:`PlayerStore` in the database of a :class:`~.sql.SqlStore`."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def create_player(self, row: PlayerRow) -> None:
        values = asdict(row)
        values["name_key"] = name_key(row.name)
        values["created_at"] = values["seen_at"] = time.time()

        def create(conn: Connection) -> None:
            conn.execute(insert(players_t).values(**values))

        await self._changing(create, row.name)

    async def player(self, player_id: str) -> PlayerRow | None:
        return await self._one(players_t.c.id == player_id)

    async def player_named(self, name: str) -> PlayerRow | None:
        return await self._one(players_t.c.name_key == name_key(name))

    async def update_player(
        self, player_id: str, *, name: str | None, colour: str, language: str
    ) -> None:
        change = (
            update(players_t)
            .where(players_t.c.id == player_id)
            .values(name=name, name_key=name_key(name), colour=colour, language=language)
        )
        await self._changing(lambda conn: conn.execute(change), name)

    async def _changing(self, fn: Callable[[Connection], Any], name: str | None) -> None:
        try:
            await self.store.call(fn)
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is another player's") from None

    async def _one(self, where: ColumnElement[bool]) -> PlayerRow | None:
        def read(conn: Connection) -> PlayerRow | None:
            found = conn.execute(select(players_t).where(where)).mappings().first()
            if found is None:
                return None
            return PlayerRow(**{k: v for k, v in found.items() if k != "name_key"})

        return await self.store.call(read)


class MemoryPlayers:
    """A :class:`PlayerStore` in a dict, with the database's semantics (names unique)."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerRow] = {}

    def _free(self, player_id: str, name: str | None) -> None:
        key = name_key(name)
        if key is not None and any(
            name_key(p.name) == key for p in self.players.values() if p.id != player_id
        ):
            raise NameTaken(f"the name {name!r} is another player's")

    async def create_player(self, row: PlayerRow) -> None:
        if row.id in self.players:
            raise KeyError(f"player {row.id!r} exists already")
        self._free(row.id, row.name)
        self.players[row.id] = copy.copy(row)
        self.players[row.id].created_at = self.players[row.id].seen_at = time.time()

    async def player(self, player_id: str) -> PlayerRow | None:
        found = self.players.get(player_id)
        return copy.copy(found) if found is not None else None

    async def player_named(self, name: str) -> PlayerRow | None:
        key = name_key(name)
        for p in self.players.values():
            if name_key(p.name) == key:
                return copy.copy(p)
        return None

    async def update_player(
        self, player_id: str, *, name: str | None, colour: str, language: str
    ) -> None:
        self._free(player_id, name)
        row = self.players[player_id]
        row.name, row.colour, row.language = name, colour, language
