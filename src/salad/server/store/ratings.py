"""Results, ratings and leaderboards (#34), behind a small interface of their own
(:class:`RatingStore`) beside the tables' and the players', in the same database:
:class:`SqlRatings` on a :class:`~.sql.SqlStore` (its group commit, its connections).

A finished game leaves one :class:`ResultRow` per seat; a rated one also moves its players'
ratings (per ruleset family) and adds to their history, in the same transaction. How ratings
move is the caller's (``rate``, :mod:`salad.server.ratings.model`): the store keeps them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from sqlalchemy import Connection, delete, func, insert, select, update

from salad.server.store.migrations.versions import r0006_ratings
from salad.server.store.players import players_t
from salad.server.store.sql import SqlStore

results_t, ratings_t, history_t, rated_t = r0006_ratings.tables()


@dataclass
class ResultRow:
    """One seat of one finished game."""

    table_id: str
    game_number: int
    seat: int
    player_id: str | None
    bot: str | None
    name: str | None
    preset: str
    family: str
    players: int
    place: int
    """1 for the best; equal totals share a place; a seat left for good is last."""
    points: int
    hands: list[tuple[str, int]]
    """Each hand's round id and the points the seat took in it, in order."""
    bots: list[str]
    """The bot levels that sat at the game (each once)."""
    rated: bool
    left: bool
    finished_at: float = 0.0


@dataclass
class RatingRow:
    player_id: str
    family: str
    mu: float
    sigma: float
    games: int
    updated_at: float = 0.0

    @property
    def ordinal(self) -> float:
        """The conservative rating mu - 3 sigma the leaderboard sorts by."""
        return self.mu - 3 * self.sigma


@dataclass
class HistoryRow:
    family: str
    table_id: str
    game_number: int
    mu: float
    sigma: float
    at: float


@dataclass
class BoardRow:
    """One line of a leaderboard: a rating and its player's name (None: no name yet)."""

    rating: RatingRow
    name: str | None
    games: int
    """Rated games counted on this board (all of them, or this week's)."""


Rate = Callable[[list[ResultRow], dict[str, RatingRow]], dict[str, tuple[float, float]]]
"""How a rated game moves its players' ratings: from its results and the players' ratings
before it (those who have one), each player's new (mu, sigma)."""


@dataclass
class Board:
    rows: list[BoardRow] = field(default_factory=list)
    total: int = 0


class RatingStore(Protocol):
    """Finished games' results, ratings and their history."""

    async def set_rated(self, table_id: str, rated: bool) -> None:
        """Whether the games of a table are rated (a table option)."""

    async def table_rated(self, table_id: str) -> bool:
        """Whether they are (False for a table made without the option)."""

    async def record(self, results: list[ResultRow], rate: Rate | None) -> None:
        """A finished game's results, and (``rate`` given) its players' new ratings and
        their history, in one transaction. A game recorded already is left as it is."""

    async def results(self, player_id: str) -> list[ResultRow]:
        """A player's results, the latest first."""

    async def ratings(self, player_id: str) -> list[RatingRow]:
        """A player's ratings, one per family played rated."""

    async def history(self, player_id: str) -> list[HistoryRow]:
        """A player's ratings after each rated game, oldest first."""

    async def board(
        self, family: str, since: float | None, min_games: int, offset: int, limit: int
    ) -> Board:
        """The ratings of ``family`` with ``min_games`` rated games (since ``since``, if
        given), best ordinal first: the page from ``offset``, and how many in all."""

    async def forget(self, player_id: str) -> None:
        """Delete a player's ratings and history; their results stay, with no player id."""


def result_of(row: Any) -> ResultRow:
    values = dict(row)
    values["hands"] = [tuple(h) for h in json.loads(values["hands"])]
    values["bots"] = json.loads(values["bots"])
    return ResultRow(**values)


def rating_of(row: Any) -> RatingRow:
    return RatingRow(**{k: v for k, v in dict(row).items() if k != "ordinal"})


class SqlRatings:
    """A :class:`RatingStore` in the database of a :class:`~.sql.SqlStore`."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def set_rated(self, table_id: str, rated: bool) -> None:
        def save(conn: Connection) -> None:
            conn.execute(delete(rated_t).where(rated_t.c.table_id == table_id))
            conn.execute(insert(rated_t).values(table_id=table_id, rated=rated))

        await self.store.call(save)

    async def table_rated(self, table_id: str) -> bool:
        query = select(rated_t.c.rated).where(rated_t.c.table_id == table_id)
        return bool(await self.store.call(lambda conn: conn.scalar(query)))

    async def record(self, results: list[ResultRow], rate: Rate | None) -> None:
        if not results:
            return
        now = time.time()
        first = results[0]

        def record(conn: Connection) -> None:
            done = conn.scalar(
                select(results_t.c.seat).where(
                    (results_t.c.table_id == first.table_id)
                    & (results_t.c.game_number == first.game_number)
                )
            )
            if done is not None:
                return
            rows = []
            for r in results:
                row = asdict(r)
                row["hands"] = json.dumps(r.hands)
                row["bots"] = json.dumps(r.bots)
                row["finished_at"] = now
                rows.append(row)
            conn.execute(insert(results_t), rows)
            if rate is None:
                return
            ids = [r.player_id for r in results if r.player_id is not None]
            before = {
                row.player_id: row
                for row in map(
                    rating_of,
                    conn.execute(
                        select(ratings_t).where(
                            ratings_t.c.player_id.in_(ids) & (ratings_t.c.family == first.family)
                        )
                    ).mappings(),
                )
            }
            for player_id, (mu, sigma) in rate(results, before).items():
                values = {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma, "updated_at": now}
                old = before.get(player_id)
                if old is None:
                    conn.execute(
                        insert(ratings_t).values(
                            player_id=player_id, family=first.family, games=1, **values
                        )
                    )
                else:
                    conn.execute(
                        update(ratings_t)
                        .where(
                            (ratings_t.c.player_id == player_id)
                            & (ratings_t.c.family == first.family)
                        )
                        .values(games=old.games + 1, **values)
                    )
                conn.execute(
                    insert(history_t).values(
                        player_id=player_id,
                        family=first.family,
                        table_id=first.table_id,
                        game_number=first.game_number,
                        mu=mu,
                        sigma=sigma,
                        at=now,
                    )
                )

        await self.store.call(record)

    async def results(self, player_id: str) -> list[ResultRow]:
        query = (
            select(results_t)
            .where(results_t.c.player_id == player_id)
            .order_by(results_t.c.finished_at.desc())
        )
        return await self.store.call(
            lambda conn: [result_of(r) for r in conn.execute(query).mappings()]
        )

    async def ratings(self, player_id: str) -> list[RatingRow]:
        query = select(ratings_t).where(ratings_t.c.player_id == player_id)
        return await self.store.call(
            lambda conn: [rating_of(r) for r in conn.execute(query).mappings()]
        )

    async def history(self, player_id: str) -> list[HistoryRow]:
        h = history_t.c
        query = (
            select(h.family, h.table_id, h.game_number, h.mu, h.sigma, h.at)
            .where(h.player_id == player_id)
            .order_by(h.at, h.id)
        )
        return await self.store.call(
            lambda conn: [HistoryRow(**r) for r in conn.execute(query).mappings()]
        )

    async def board(
        self, family: str, since: float | None, min_games: int, offset: int, limit: int
    ) -> Board:
        r = ratings_t.c
        if since is None:
            counted = select(r.player_id, r.games.label("counted")).where(
                (r.family == family) & (r.games >= min_games)
            )
        else:
            h = history_t.c
            counted = (
                select(h.player_id, func.count().label("counted"))
                .where((h.family == family) & (h.at >= since))
                .group_by(h.player_id)
                .having(func.count() >= min_games)
            )
        sub = counted.subquery()
        joined = ratings_t.join(sub, sub.c.player_id == r.player_id).outerjoin(
            players_t, players_t.c.id == r.player_id
        )
        query = (
            select(ratings_t, sub.c.counted, players_t.c.name)
            .select_from(joined)
            .where(r.family == family)
            .order_by(r.ordinal.desc(), r.player_id)
            .offset(offset)
            .limit(limit)
        )
        total = select(func.count()).select_from(sub)

        def read(conn: Connection) -> Board:
            rows = [
                BoardRow(
                    rating_of({k: v for k, v in m.items() if k not in ("counted", "name")}),
                    m["name"],
                    m["counted"],
                )
                for m in conn.execute(query).mappings()
            ]
            return Board(rows, int(conn.scalar(total) or 0))

        return await self.store.call(read)

    async def forget(self, player_id: str) -> None:
        def forget(conn: Connection) -> None:
            conn.execute(delete(ratings_t).where(ratings_t.c.player_id == player_id))
            conn.execute(delete(history_t).where(history_t.c.player_id == player_id))
            conn.execute(
                update(results_t).where(results_t.c.player_id == player_id).values(player_id=None)
            )

        await self.store.call(forget)
