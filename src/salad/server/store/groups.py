"""Groups (#34), behind a small interface of their own (:class:`GroupStore`) beside the
tables' and the players': :class:`SqlGroups` on a :class:`~.sql.SqlStore` (its group commit,
its connections) and :class:`MemoryGroups` (dicts, for tests in one process).

A group is a name, an owner, an invite code and its members (players the site remembers); it
holds the score sheets its members attach (``salad-score/1`` JSON, with the member each name
is) and, through ``salad_tables.group_id``, the tables made for it, whose finished games
count in its standings (:mod:`salad.server.players.standings`).
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from salad.server.store.base import GameRow, TableRow
from salad.server.store.memory import MemoryStore
from salad.server.store.migrations.versions import r0007_groups
from salad.server.store.players import MemoryPlayers, players_t
from salad.server.store.sql import SqlStore
from salad.server.store.statements import games_t, tables_t

groups_t, members_t, sheets_t = r0007_groups.tables()


@dataclass
class GroupRow:
    id: str
    name: str
    owner_id: str | None
    code: str
    """The invite code: whoever has it may join (the owner may make a new one)."""
    created_at: float = 0.0


@dataclass
class MemberRow:
    player_id: str
    name: str | None
    """The player's name now (None: not chosen yet, or the player was deleted)."""
    joined_at: float


@dataclass
class SheetRow:
    id: str
    group_id: str
    added_by: str | None
    sheet: dict[str, Any]
    """The ``salad-score/1`` sheet as attached (checked by ``ScoreSheet.from_dict``)."""
    members: list[str | None]
    """The member each of the sheet's names is, by seat (None: a guest)."""
    played_at: float
    created_at: float = 0.0


@dataclass
class GroupGame:
    """A finished game of a table made for a group, with its table's ruleset."""

    table_id: str
    preset: str
    settings: dict[str, Any]
    game: GameRow = field(repr=False)


class GroupStore(Protocol):
    """Groups, their members, their sheets, and their tables' finished games."""

    async def create_group(self, row: GroupRow) -> None:
        """A new group, its owner its first member."""

    async def group(self, group_id: str) -> GroupRow | None:
        """A group by id (None: no such group)."""

    async def groups_of(self, player_id: str) -> list[GroupRow]:
        """The groups a player is a member of, oldest membership first."""

    async def members(self, group_id: str) -> list[MemberRow]:
        """A group's members, in the order they joined."""

    async def add_member(self, group_id: str, player_id: str) -> None:
        """A new member (one already a member: nothing changes)."""

    async def remove_member(self, group_id: str, player_id: str) -> None:
        """A member leaves or is removed."""

    async def set_group(self, group_id: str, *, code: str, owner_id: str | None) -> None:
        """A group's new invite code (the old one is void) and owner."""

    async def delete_group(self, group_id: str) -> None:
        """A group gone, with its members and its sheets (its tables' games stay)."""

    async def add_sheet(self, row: SheetRow) -> None:
        """A score sheet attached to a group."""

    async def sheets(self, group_id: str, since: float, until: float) -> list[SheetRow]:
        """A group's sheets played in ``[since, until)``, in order."""

    async def sheets_added_by(self, player_id: str) -> list[SheetRow]:
        """The sheets a player attached (their export)."""

    async def forget_sheets_by(self, player_id: str) -> None:
        """The sheets a player attached no longer say who did (a deletion)."""

    async def games(self, group_id: str, since: float, until: float) -> list[GroupGame]:
        """The finished games of the group's tables that ended in ``[since, until)``."""


def group_row(found: Any) -> GroupRow:
    return GroupRow(**{c.name: found[c.name] for c in groups_t.columns})


def sheet_row(found: Any) -> SheetRow:
    values = {c.name: found[c.name] for c in sheets_t.columns}
    values["sheet"] = json.loads(values["sheet"])
    values["members"] = json.loads(values["members"])
    return SheetRow(**values)


class SqlGroups:
    """A :class:`GroupStore` in the database of a :class:`~.sql.SqlStore`."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def create_group(self, row: GroupRow) -> None:
        values = asdict(row)
        values["created_at"] = now = time.time()

        def create(conn: Connection) -> None:
            conn.execute(insert(groups_t).values(**values))
            if row.owner_id is not None:
                conn.execute(
                    insert(members_t).values(group_id=row.id, player_id=row.owner_id, joined_at=now)
                )

        await self.store.call(create)

    async def group(self, group_id: str) -> GroupRow | None:
        def read(conn: Connection) -> GroupRow | None:
            found = conn.execute(select(groups_t).where(groups_t.c.id == group_id)).mappings()
            first = found.first()
            return None if first is None else group_row(first)

        return await self.store.call(read)

    async def groups_of(self, player_id: str) -> list[GroupRow]:
        query = (
            select(groups_t)
            .join(members_t, members_t.c.group_id == groups_t.c.id)
            .where(members_t.c.player_id == player_id)
            .order_by(members_t.c.joined_at, groups_t.c.id)
        )
        return await self.store.call(
            lambda conn: [group_row(r) for r in conn.execute(query).mappings()]
        )

    async def members(self, group_id: str) -> list[MemberRow]:
        query = (
            select(members_t.c.player_id, players_t.c.name, members_t.c.joined_at)
            .select_from(members_t.outerjoin(players_t, players_t.c.id == members_t.c.player_id))
            .where(members_t.c.group_id == group_id)
            .order_by(members_t.c.joined_at, members_t.c.player_id)
        )
        return await self.store.call(
            lambda conn: [MemberRow(r[0], r[1], r[2]) for r in conn.execute(query)]
        )

    async def add_member(self, group_id: str, player_id: str) -> None:
        def add(conn: Connection) -> None:
            key = and_(members_t.c.group_id == group_id, members_t.c.player_id == player_id)
            if conn.scalar(select(func.count()).select_from(members_t).where(key)) == 0:
                conn.execute(
                    insert(members_t).values(
                        group_id=group_id, player_id=player_id, joined_at=time.time()
                    )
                )

        await self.store.call(add)

    async def remove_member(self, group_id: str, player_id: str) -> None:
        gone = delete(members_t).where(
            and_(members_t.c.group_id == group_id, members_t.c.player_id == player_id)
        )
        await self.store.call(lambda conn: conn.execute(gone))

    async def set_group(self, group_id: str, *, code: str, owner_id: str | None) -> None:
        change = update(groups_t).where(groups_t.c.id == group_id)
        change = change.values(code=code, owner_id=owner_id)
        await self.store.call(lambda conn: conn.execute(change))

    async def delete_group(self, group_id: str) -> None:
        def gone(conn: Connection) -> None:
            conn.execute(delete(members_t).where(members_t.c.group_id == group_id))
            conn.execute(delete(sheets_t).where(sheets_t.c.group_id == group_id))
            conn.execute(delete(groups_t).where(groups_t.c.id == group_id))

        await self.store.call(gone)

    async def add_sheet(self, row: SheetRow) -> None:
        values = asdict(row)
        values["sheet"] = json.dumps(row.sheet, sort_keys=True)
        values["members"] = json.dumps(row.members)
        values["created_at"] = time.time()
        await self.store.call(lambda conn: conn.execute(insert(sheets_t).values(**values)))

    async def sheets(self, group_id: str, since: float, until: float) -> list[SheetRow]:
        query = (
            select(sheets_t)
            .where(
                sheets_t.c.group_id == group_id,
                sheets_t.c.played_at >= since,
                sheets_t.c.played_at < until,
            )
            .order_by(sheets_t.c.played_at, sheets_t.c.id)
        )
        return await self.store.call(
            lambda conn: [sheet_row(r) for r in conn.execute(query).mappings()]
        )

    async def sheets_added_by(self, player_id: str) -> list[SheetRow]:
        query = select(sheets_t).where(sheets_t.c.added_by == player_id).order_by(sheets_t.c.id)
        return await self.store.call(
            lambda conn: [sheet_row(r) for r in conn.execute(query).mappings()]
        )

    async def forget_sheets_by(self, player_id: str) -> None:
        change = update(sheets_t).where(sheets_t.c.added_by == player_id).values(added_by=None)
        await self.store.call(lambda conn: conn.execute(change))

    async def games(self, group_id: str, since: float, until: float) -> list[GroupGame]:
        query = (
            select(
                games_t,
                tables_t.c.preset,
                tables_t.c.settings,
            )
            .join(tables_t, tables_t.c.id == games_t.c.table_id)
            .where(
                tables_t.c.group_id == group_id,
                games_t.c.status == "over",
                games_t.c.finished_at >= since,
                games_t.c.finished_at < until,
            )
            .order_by(games_t.c.finished_at, games_t.c.table_id, games_t.c.game_number)
        )

        def read(conn: Connection) -> list[GroupGame]:
            return [
                GroupGame(
                    r["table_id"],
                    r["preset"],
                    json.loads(r["settings"]),
                    GameRow(
                        game_number=r["game_number"],
                        seed=r["seed"],
                        players=json.loads(r["players"]),
                        status=r["status"],
                        totals=json.loads(r["totals"]),
                        winners=json.loads(r["winners"]),
                        started_at=r["started_at"],
                        finished_at=r["finished_at"],
                    ),
                )
                for r in conn.execute(query).mappings()
            ]

        return await self.store.call(read)


class MemoryGroups:
    """A :class:`GroupStore` in dicts, with the database's semantics; the players' names come
    from ``players`` and the tables' games from ``tables``, when given."""

    def __init__(self, players: MemoryPlayers | None = None, tables: MemoryStore | None = None):
        self.players = players
        self.tables = tables
        self.groups: dict[str, GroupRow] = {}
        self.joined: dict[str, dict[str, float]] = {}
        """Each group's members and when they joined."""
        self.sheet_rows: dict[str, SheetRow] = {}

    async def create_group(self, row: GroupRow) -> None:
        if row.id in self.groups:
            raise KeyError(f"group {row.id!r} exists already")
        self.groups[row.id] = copy.copy(row)
        self.groups[row.id].created_at = now = time.time()
        self.joined[row.id] = {} if row.owner_id is None else {row.owner_id: now}

    async def group(self, group_id: str) -> GroupRow | None:
        found = self.groups.get(group_id)
        return copy.copy(found) if found is not None else None

    async def groups_of(self, player_id: str) -> list[GroupRow]:
        mine = [(m[player_id], g) for g, m in self.joined.items() if player_id in m]
        return [copy.copy(self.groups[g]) for _, g in sorted(mine)]

    async def members(self, group_id: str) -> list[MemberRow]:
        joined = sorted(self.joined.get(group_id, {}).items(), key=lambda m: (m[1], m[0]))
        rows = self.players.players if self.players is not None else {}
        return [MemberRow(p, rows[p].name if p in rows else None, at) for p, at in joined]

    async def add_member(self, group_id: str, player_id: str) -> None:
        self.joined.setdefault(group_id, {}).setdefault(player_id, time.time())

    async def remove_member(self, group_id: str, player_id: str) -> None:
        self.joined.get(group_id, {}).pop(player_id, None)

    async def set_group(self, group_id: str, *, code: str, owner_id: str | None) -> None:
        self.groups[group_id].code, self.groups[group_id].owner_id = code, owner_id

    async def delete_group(self, group_id: str) -> None:
        self.groups.pop(group_id, None)
        self.joined.pop(group_id, None)
        for sheet_id in [k for k, s in self.sheet_rows.items() if s.group_id == group_id]:
            del self.sheet_rows[sheet_id]

    async def add_sheet(self, row: SheetRow) -> None:
        self.sheet_rows[row.id] = copy.deepcopy(row)
        self.sheet_rows[row.id].created_at = time.time()

    async def sheets(self, group_id: str, since: float, until: float) -> list[SheetRow]:
        found = [
            s
            for s in self.sheet_rows.values()
            if s.group_id == group_id and since <= s.played_at < until
        ]
        return [copy.deepcopy(s) for s in sorted(found, key=lambda s: (s.played_at, s.id))]

    async def sheets_added_by(self, player_id: str) -> list[SheetRow]:
        found = [s for s in self.sheet_rows.values() if s.added_by == player_id]
        return [copy.deepcopy(s) for s in sorted(found, key=lambda s: s.id)]

    async def forget_sheets_by(self, player_id: str) -> None:
        for s in self.sheet_rows.values():
            if s.added_by == player_id:
                s.added_by = None

    async def games(self, group_id: str, since: float, until: float) -> list[GroupGame]:
        if self.tables is None:
            return []
        found: list[GroupGame] = []
        for table in self.tables.tables.values():
            if table.group_id != group_id:
                continue
            for game in self.tables.games_of.get(table.id, {}).values():
                ended = game.finished_at
                if game.status == "over" and ended is not None and since <= ended < until:
                    found.append(group_game(table, game))
        return sorted(
            found, key=lambda g: (g.game.finished_at or 0.0, g.table_id, g.game.game_number)
        )


def group_game(table: TableRow, game: GameRow) -> GroupGame:
    return GroupGame(table.id, table.preset, copy.deepcopy(table.settings), copy.deepcopy(game))
