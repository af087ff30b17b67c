"""Sign-in codes (#34) and what the tables hold about a player, behind small interfaces of
their own beside the players' (:mod:`~.players`), in the same database.

:class:`SigninStore`: a player's codes, stored as their SHA-256 (never the code), used once,
until they expire, unless revoked (:class:`SqlSignins` on a :class:`~.sql.SqlStore`,
:class:`MemorySignins` in a dict). :class:`SqlPlayed`: the seats a player holds and the games
whose records name them (``salad_seats.player_id``, the ``player`` of a game's ``players``).
"""

from __future__ import annotations

import copy
import json
import time
from dataclasses import asdict, dataclass
from typing import Any, Literal, Protocol

from sqlalchemy import Connection, and_, insert, select, update

from salad.server.store.migrations.versions import r0005_signins
from salad.server.store.players import players_t
from salad.server.store.sql import SqlStore
from salad.server.store.statements import games_t, seats_t, tables_t

(signins_t,) = r0005_signins.tables()

GREY = "#808080"
"""A deleted player's colour (the column takes one)."""

Refusal = Literal["unknown", "used", "expired", "revoked"]
"""Why a code signs no one in."""


@dataclass
class SigninRow:
    id: str
    player_id: str
    code_hash: str
    created_at: float
    expires_at: float
    used_at: float | None = None
    revoked_at: float | None = None

    def state(self, now: float) -> Literal["open", "used", "expired", "revoked"]:
        if self.used_at is not None:
            return "used"
        if self.revoked_at is not None:
            return "revoked"
        return "expired" if now >= self.expires_at else "open"


class SigninStore(Protocol):
    """The sign-in codes: made, listed, revoked, used once."""

    async def add_signin(self, row: SigninRow) -> None:
        """A new code (its hash)."""

    async def signins(self, player_id: str) -> list[SigninRow]:
        """A player's codes, newest first."""

    async def revoke_signin(self, player_id: str, signin_id: str | None) -> int:
        """Revoke a player's open code (None: all of them); how many were."""

    async def use_signin(self, code_hash: str, now: float) -> str | Refusal:
        """The player a code signs in (it is used now), or why it does not."""


def refusal_or_use(row: SigninRow | None, now: float) -> Refusal | None:
    """Why ``row`` signs no one in, or None if it does."""
    if row is None:
        return "unknown"
    state = row.state(now)
    return None if state == "open" else state


class SqlSignins:
    """A :class:`SigninStore` in the database of a :class:`~.sql.SqlStore`."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def add_signin(self, row: SigninRow) -> None:
        await self.store.call(lambda conn: conn.execute(insert(signins_t).values(**asdict(row))))

    async def signins(self, player_id: str) -> list[SigninRow]:
        query = (
            select(signins_t)
            .where(signins_t.c.player_id == player_id)
            .order_by(signins_t.c.created_at.desc())
        )
        return await self.store.call(
            lambda conn: [SigninRow(**r) for r in conn.execute(query).mappings()]
        )

    async def revoke_signin(self, player_id: str, signin_id: str | None) -> int:
        where = [
            signins_t.c.player_id == player_id,
            signins_t.c.used_at.is_(None),
            signins_t.c.revoked_at.is_(None),
        ]
        if signin_id is not None:
            where.append(signins_t.c.id == signin_id)
        change = update(signins_t).where(and_(*where)).values(revoked_at=time.time())
        return await self.store.call(lambda conn: conn.execute(change).rowcount)

    async def use_signin(self, code_hash: str, now: float) -> str | Refusal:
        def use(conn: Connection) -> str | Refusal:
            found = conn.execute(
                select(signins_t).where(signins_t.c.code_hash == code_hash)
            ).mappings()
            first = found.first()
            row = None if first is None else SigninRow(**first)
            refused = refusal_or_use(row, now)
            if refused is not None or row is None:
                return refused or "unknown"
            taken = conn.execute(  # once: of two at the same time, one uses it
                update(signins_t)
                .where(
                    and_(
                        signins_t.c.id == row.id,
                        signins_t.c.used_at.is_(None),
                        signins_t.c.revoked_at.is_(None),
                    )
                )
                .values(used_at=now)
            )
            return row.player_id if taken.rowcount == 1 else "used"

        return await self.store.call(use)


class MemorySignins:
    """A :class:`SigninStore` in a dict, with the database's semantics."""

    def __init__(self) -> None:
        self.rows: dict[str, SigninRow] = {}

    async def add_signin(self, row: SigninRow) -> None:
        self.rows[row.id] = copy.copy(row)

    async def signins(self, player_id: str) -> list[SigninRow]:
        mine = [copy.copy(r) for r in self.rows.values() if r.player_id == player_id]
        return sorted(mine, key=lambda r: r.created_at, reverse=True)

    async def revoke_signin(self, player_id: str, signin_id: str | None) -> int:
        count = 0
        for r in self.rows.values():
            if r.player_id == player_id and signin_id in (None, r.id) and r.state(0) == "open":
                r.revoked_at = time.time()
                count += 1
        return count

    async def use_signin(self, code_hash: str, now: float) -> str | Refusal:
        row = next((r for r in self.rows.values() if r.code_hash == code_hash), None)
        refused = refusal_or_use(row, now)
        if refused is not None or row is None:
            return refused or "unknown"
        row.used_at = now
        return row.player_id


@dataclass
class PlayedSeat:
    """A seat a player holds at a table (its table's status: lobby, playing, over)."""

    table_id: str
    seat: int
    name: str | None
    status: str
    game_number: int


class SqlPlayed:
    """The seats and games of a player, in the tables' own database (:class:`~.sql.SqlStore`)."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def seats(self, player_id: str) -> list[PlayedSeat]:
        """The seats the player holds, the newest tables first."""
        query = (
            select(
                seats_t.c.table_id,
                seats_t.c.seat,
                seats_t.c.name,
                tables_t.c.status,
                tables_t.c.game_number,
            )
            .join(tables_t, tables_t.c.id == seats_t.c.table_id)
            .where(seats_t.c.player_id == player_id)
            .order_by(tables_t.c.updated_at.desc(), seats_t.c.seat)
        )
        return await self.store.call(
            lambda conn: [PlayedSeat(**r) for r in conn.execute(query).mappings()]
        )

    async def games(self, player_id: str) -> list[dict[str, Any]]:
        """The games whose records name the player: table, game number, seat, the names, and
        the totals and winners of a finished one."""
        needle = json.dumps(player_id)  # the id as the records' JSON writes it, quotes and all
        pattern = "%" + escape_like(needle) + "%"
        query = (
            select(games_t)
            .where(games_t.c.players.like(pattern, escape="\\"))
            .order_by(games_t.c.started_at)
        )

        def read(conn: Connection) -> list[dict[str, Any]]:
            found = []
            for r in conn.execute(query).mappings():
                players = json.loads(r["players"])
                seats = [i for i, p in enumerate(players) if p.get("player") == player_id]
                if not seats:  # the id's text elsewhere in the record (a name)
                    continue
                finished = r["status"] == "over"
                found.append(
                    {
                        "table_id": r["table_id"],
                        "game_number": r["game_number"],
                        "seat": seats[0],
                        "names": [p.get("name") for p in players],
                        "status": r["status"],
                        "started_at": r["started_at"],
                        "finished_at": r["finished_at"],
                        "totals": json.loads(r["totals"]) if finished and r["totals"] else None,
                        "winners": json.loads(r["winners"]) if finished and r["winners"] else None,
                    }
                )
            return found

        return await self.store.call(read)

    async def anonymise(self, player_id: str) -> None:
        """The player's row keeps only its id and when it was deleted (the records of games
        that name the id stay whole, and show no name for it)."""
        change = (
            update(players_t)
            .where(players_t.c.id == player_id)
            .values(name=None, name_key=None, colour=GREY, language="en", deleted_at=time.time())
        )
        await self.store.call(lambda conn: conn.execute(change))

    async def forget(self, player_id: str) -> None:
        """The seats no longer name the player; the games' records stay whole."""
        change = update(seats_t).where(seats_t.c.player_id == player_id).values(player_id=None)
        await self.store.call(lambda conn: conn.execute(change))


def escape_like(text: str) -> str:
    r"""``text`` matched as itself by ``LIKE ... ESCAPE '\'``.

    >>> escape_like("a_b%c")
    'a\\_b\\%c'
    """
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
