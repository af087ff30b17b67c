"""The SQL side of the ratings' store (:class:`~.ratings.RatingStore`): :class:`SqlRatings`
and the statements it runs, on the tables of revision 0006."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from salad.server.store.migrations.versions import r0006_ratings
from salad.server.store.players import players_t
from salad.server.store.ratings import (
    Board,
    BoardRow,
    HistoryRow,
    ProfileRows,
    Rate,
    RatingRow,
    ResultRow,
    StatRow,
    next_rating,
    stats_of,
)
from salad.server.store.sql import SqlStore
from salad.server.store.statements import games_t, tables_t

results_t, ratings_t, stats_t, history_t, rated_t = r0006_ratings.tables()


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
        first = results[0]
        now = first.finished_at or time.time()

        def record(conn: Connection) -> None:
            if is_recorded(conn, first.table_id, first.game_number):
                return
            rows = []
            for r in results:
                row = asdict(r)
                del row["penalties"]  # in the sums only
                row["hands"] = json.dumps(r.hands)
                row["bots"] = json.dumps(r.bots)
                row["finished_at"] = now
                rows.append(row)
            conn.execute(insert(results_t), rows)
            for player_id in {r.player_id for r in results if r.player_id is not None}:
                add_stats(conn, player_id, stats_of(r for r in results if r.player_id == player_id))
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
                old = before.get(player_id)
                new = next_rating(old, player_id, first.family, mu, sigma, now)
                values = {**asdict(new), "ordinal": new.ordinal}
                if old is None:
                    conn.execute(insert(ratings_t).values(**values))
                else:
                    conn.execute(
                        update(ratings_t)
                        .where(
                            (ratings_t.c.player_id == player_id)
                            & (ratings_t.c.family == first.family)
                        )
                        .values(**values)
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

    async def recorded(self, table_id: str, game_number: int) -> bool:
        return bool(await self.store.call(lambda conn: is_recorded(conn, table_id, game_number)))

    async def unrecorded(self) -> list[str]:
        t, g, r = tables_t.c, games_t.c, results_t.c
        query = (
            select(t.id)
            .select_from(
                tables_t.join(
                    games_t, (g.table_id == t.id) & (g.game_number == t.game_number)
                ).outerjoin(results_t, (r.table_id == t.id) & (r.game_number == t.game_number))
            )
            .where((t.status == "over") & r.table_id.is_(None))
            .order_by(g.finished_at)
        )
        return list(await self.store.call(lambda conn: conn.scalars(query).all()))

    async def results(
        self, player_id: str, offset: int = 0, limit: int | None = None
    ) -> list[ResultRow]:
        return await self.store.call(lambda conn: read_results(conn, player_id, offset, limit))

    async def stats(self, player_id: str) -> list[StatRow]:
        return await self.store.call(lambda conn: read_stats(conn, player_id))

    async def ratings(self, player_id: str) -> list[RatingRow]:
        return await self.store.call(lambda conn: read_ratings(conn, player_id))

    async def history(self, player_id: str, limit: int | None = None) -> list[HistoryRow]:
        return await self.store.call(lambda conn: read_history(conn, player_id, limit))

    async def profile_rows(
        self, player_id: str, offset: int, limit: int, history: int
    ) -> ProfileRows:
        def read(conn: Connection) -> ProfileRows:
            return ProfileRows(
                read_stats(conn, player_id),
                read_results(conn, player_id, offset, limit),
                read_ratings(conn, player_id),
                read_history(conn, player_id, history),
            )

        return await self.store.call(read)

    async def board(
        self, family: str, week: float | None, min_games: int, offset: int, limit: int
    ) -> Board:
        r = ratings_t.c
        if week is None:
            where = (r.family == family) & (r.games >= min_games)
        else:
            where = (r.family == family) & (r.week == week) & (r.week_games >= min_games)
        query = (
            select(ratings_t, players_t.c.name)
            .select_from(ratings_t.outerjoin(players_t, players_t.c.id == r.player_id))
            .where(where)
            .order_by(r.ordinal.desc(), r.player_id.desc())  # the index's order, backwards
            .offset(offset)
            .limit(limit)
        )
        total = select(func.count()).select_from(ratings_t).where(where)

        def read(conn: Connection) -> Board:
            rows = []
            for m in conn.execute(query).mappings():
                rating = rating_of({k: v for k, v in m.items() if k != "name"})
                games = rating.games if week is None else rating.week_games
                rows.append(BoardRow(rating, m["name"], games))
            return Board(rows, int(conn.scalar(total) or 0))

        return await self.store.call(read)

    async def forget(self, player_id: str) -> None:
        def forget(conn: Connection) -> None:
            conn.execute(delete(ratings_t).where(ratings_t.c.player_id == player_id))
            conn.execute(delete(history_t).where(history_t.c.player_id == player_id))
            conn.execute(delete(stats_t).where(stats_t.c.player_id == player_id))
            conn.execute(
                update(results_t).where(results_t.c.player_id == player_id).values(player_id=None)
            )

        await self.store.call(forget)


def is_recorded(conn: Connection, table_id: str, game_number: int) -> bool:
    r = results_t.c
    query = select(r.seat).where((r.table_id == table_id) & (r.game_number == game_number))
    return conn.scalar(query.limit(1)) is not None


def read_results(
    conn: Connection, player_id: str, offset: int = 0, limit: int | None = None
) -> list[ResultRow]:
    query = (
        select(results_t)
        .where(results_t.c.player_id == player_id)
        .order_by(results_t.c.finished_at.desc(), results_t.c.table_id)
        .offset(offset)
        .limit(limit)
    )
    return [result_of(r) for r in conn.execute(query).mappings()]


def read_stats(conn: Connection, player_id: str) -> list[StatRow]:
    s = stats_t.c
    query = select(s.kind, s.key, s.note, s.n, s.hits, s.total, s.squares)
    return [StatRow(**r) for r in conn.execute(query.where(s.player_id == player_id)).mappings()]


def read_ratings(conn: Connection, player_id: str) -> list[RatingRow]:
    query = select(ratings_t).where(ratings_t.c.player_id == player_id)
    return [rating_of(r) for r in conn.execute(query).mappings()]


def read_history(conn: Connection, player_id: str, limit: int | None) -> list[HistoryRow]:
    """The latest ``limit`` of a player's history, oldest first."""
    h = history_t.c
    query = (
        select(h.family, h.table_id, h.game_number, h.mu, h.sigma, h.at)
        .where(h.player_id == player_id)
        .order_by(h.at.desc(), h.id.desc())
        .limit(limit)
    )
    return [HistoryRow(**r) for r in conn.execute(query).mappings()][::-1]


def add_stats(conn: Connection, player_id: str, stats: list[StatRow]) -> None:
    """Add ``stats`` to the player's sums (each kind and key once)."""
    s = stats_t.c
    have = {
        (row.kind, row.key)
        for row in conn.execute(select(s.kind, s.key).where(s.player_id == player_id))
    }
    for row in stats:
        if (row.kind, row.key) in have:
            conn.execute(
                update(stats_t)
                .where((s.player_id == player_id) & (s.kind == row.kind) & (s.key == row.key))
                .values(
                    n=s.n + row.n,
                    hits=s.hits + row.hits,
                    total=s.total + row.total,
                    squares=s.squares + row.squares,
                )
            )
        else:
            conn.execute(insert(stats_t).values(player_id=player_id, **asdict(row)))
