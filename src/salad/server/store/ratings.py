"""Results, ratings and leaderboards (#34), behind a small interface of their own
(:class:`RatingStore`) beside the tables' and the players', in the same database:
:class:`~.ratings_sql.SqlRatings` on a :class:`~.sql.SqlStore` (its group commit, its
connections) and :class:`MemoryRatings` (a dict, for tests in one process).

A finished game leaves one :class:`ResultRow` per seat; a rated one also moves its players'
ratings (per ruleset family) and adds to their history, in the same transaction. How ratings
move is the caller's (``rate``, :mod:`salad.server.ratings.model`): the store keeps them.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Protocol


def week_start(now: float) -> float:
    """The start of the week of ``now``: its Monday, 00:00 UTC (a weekly board's).

    >>> datetime.fromtimestamp(week_start(1765000000.0), UTC).isoformat()
    '2025-12-01T00:00:00+00:00'
    """
    day = datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return (day - timedelta(days=day.weekday())).timestamp()


@dataclass
class PenaltyTaken:
    """One penalty of a game's ruleset (its id and name from the ruleset's data), or the moon
    (:data:`MOON`), for one seat: the hands it was in play, those the seat took it in (shot
    it, for the moon), and the points it cost (the moon: what shooting it changed)."""

    id: str
    name: str
    hands: int
    taken: int
    points: int


MOON = "moon"
"""The id of the moon among a seat's :class:`PenaltyTaken` (no penalty's id is this)."""


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
    """When the game ended (0: now, as it is recorded)."""
    penalties: list[PenaltyTaken] = field(default_factory=list)
    """The seat's penalties, by kind: kept in the player's sums (``penalty``), not stored
    with the result."""


@dataclass
class StatRow:
    """One of a player's sums over their finished games, which a profile shows: ``kind``
    ``played`` (``key`` family/players: ``n`` games), ``bot`` (``key`` a bot level: ``n``
    games with it, ``hits`` wins, ``total`` and ``squares`` of the points), ``bot-hand`` (the
    same a hand), ``round`` (``key`` a round id, ``note`` a preset that has it: ``n`` hands,
    ``hits`` those the player took points in) and ``penalty`` (``key`` a penalty's id or
    :data:`MOON`, ``note`` its name: ``n`` hands it was in play, ``hits`` those the player
    took it in, ``total`` its points)."""

    kind: str
    key: str
    note: str | None
    n: int
    hits: int = 0
    total: float = 0.0
    squares: float = 0.0


def stats_of(results: Iterable[ResultRow]) -> list[StatRow]:
    """The sums of these results (one player's), each kind and key once."""
    found: dict[tuple[str, str], StatRow] = {}

    def add(kind: str, key: str, note: str | None, points: list[int], hits: int) -> None:
        row = found.setdefault((kind, key), StatRow(kind, key, note, 0))
        row.n += len(points)
        row.hits += hits
        row.total += sum(points)
        row.squares += sum(p * p for p in points)

    for r in results:
        add("played", f"{r.family}/{r.players}", r.family, [0], 0)
        hands = [p for _, p in r.hands]
        for bot in r.bots:
            add("bot", bot, None, [r.points], int(r.place == 1))
            add("bot-hand", bot, None, hands, 0)
        for round_id, points in r.hands:
            add("round", round_id, r.preset, [points], int(points != 0))
        for p in r.penalties:
            row = found.setdefault(("penalty", p.id), StatRow("penalty", p.id, p.name, 0))
            row.n += p.hands
            row.hits += p.taken
            row.total += p.points
    return list(found.values())


@dataclass
class RatingRow:
    player_id: str
    family: str
    mu: float
    sigma: float
    games: int
    updated_at: float = 0.0
    week: float = 0.0
    """The start of the week of the latest rated game (:func:`week_start`)."""
    week_games: int = 0
    """Rated games that week."""

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
class ProfileRows:
    stats: list[StatRow]
    listed: list[ResultRow]
    ratings: list[RatingRow]
    history: list[HistoryRow]


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

    async def recorded(self, table_id: str, game_number: int) -> bool:
        """Whether that game's results are recorded."""

    async def unrecorded(self) -> list[str]:
        """The tables whose current game is over and has no results (their server stopped
        between the game's last move and its results), the earliest finished first."""

    async def results(
        self, player_id: str, offset: int = 0, limit: int | None = None
    ) -> list[ResultRow]:
        """A player's results, the latest first (``limit`` of them from ``offset``)."""

    async def stats(self, player_id: str) -> list[StatRow]:
        """A player's sums over their finished games (:class:`StatRow`)."""

    async def ratings(self, player_id: str) -> list[RatingRow]:
        """A player's ratings, one per family played rated."""

    async def history(self, player_id: str, limit: int | None = None) -> list[HistoryRow]:
        """A player's ratings after each rated game (the latest ``limit``), oldest first."""

    async def profile_rows(
        self, player_id: str, offset: int, limit: int, history: int
    ) -> ProfileRows:
        """What a player's profile shows, read at once: their sums, ``limit`` of their results
        from ``offset``, their ratings and the latest ``history`` of their history."""

    async def board(
        self, family: str, week: float | None, min_games: int, offset: int, limit: int
    ) -> Board:
        """The ratings of ``family`` with ``min_games`` rated games (in the week starting at
        ``week``, if given), best ordinal first: the page from ``offset``, and how many."""

    async def forget(self, player_id: str) -> None:
        """Delete a player's ratings, history and sums; their results stay, with no player
        id."""


def next_rating(
    old: RatingRow | None, player_id: str, family: str, mu: float, sigma: float, now: float
) -> RatingRow:
    """A player's rating after one more rated game (``old``: before it, if any)."""
    week = week_start(now)
    return RatingRow(
        player_id,
        family,
        mu,
        sigma,
        games=1 + (old.games if old else 0),
        updated_at=now,
        week=week,
        week_games=1 + (old.week_games if old and old.week == week else 0),
    )


class MemoryRatings:
    """A :class:`RatingStore` in lists and dicts, with the database's semantics (for tests in
    one process)."""

    def __init__(self) -> None:
        self.rated: dict[str, bool] = {}
        self.done: list[ResultRow] = []
        self.current: dict[tuple[str, str], RatingRow] = {}
        self.past: dict[str, list[HistoryRow]] = {}

    async def set_rated(self, table_id: str, rated: bool) -> None:
        self.rated[table_id] = rated

    async def table_rated(self, table_id: str) -> bool:
        return self.rated.get(table_id, False)

    async def record(self, results: list[ResultRow], rate: Rate | None) -> None:
        if not results:
            return
        first = results[0]
        now = first.finished_at or time.time()
        game = (first.table_id, first.game_number)
        if any((r.table_id, r.game_number) == game for r in self.done):
            return
        self.done += [replace(r, finished_at=now) for r in results]
        if rate is None:
            return
        before = {
            pid: row
            for (pid, family), row in self.current.items()
            if family == first.family and any(r.player_id == pid for r in results)
        }
        for player_id, (mu, sigma) in rate(results, before).items():
            new = next_rating(before.get(player_id), player_id, first.family, mu, sigma, now)
            self.current[(player_id, first.family)] = new
            self.past.setdefault(player_id, []).append(
                HistoryRow(first.family, first.table_id, first.game_number, mu, sigma, now)
            )

    async def recorded(self, table_id: str, game_number: int) -> bool:
        return any((r.table_id, r.game_number) == (table_id, game_number) for r in self.done)

    async def unrecorded(self) -> list[str]:
        return []  # it keeps no tables: the tables' own store in memory loses nothing

    async def results(
        self, player_id: str, offset: int = 0, limit: int | None = None
    ) -> list[ResultRow]:
        mine = [r for r in reversed(self.done) if r.player_id == player_id]
        return mine[offset : None if limit is None else offset + limit]

    async def stats(self, player_id: str) -> list[StatRow]:
        return stats_of(r for r in self.done if r.player_id == player_id)

    async def ratings(self, player_id: str) -> list[RatingRow]:
        return [copy.copy(r) for (pid, _), r in self.current.items() if pid == player_id]

    async def history(self, player_id: str, limit: int | None = None) -> list[HistoryRow]:
        found = self.past.get(player_id, [])
        return found[-limit:] if limit else list(found)

    async def profile_rows(
        self, player_id: str, offset: int, limit: int, history: int
    ) -> ProfileRows:
        return ProfileRows(
            await self.stats(player_id),
            await self.results(player_id, offset, limit),
            await self.ratings(player_id),
            await self.history(player_id, history),
        )

    async def board(
        self, family: str, week: float | None, min_games: int, offset: int, limit: int
    ) -> Board:
        def games(r: RatingRow) -> int:
            return r.games if week is None else (r.week_games if r.week == week else 0)

        found = [r for r in self.current.values() if r.family == family and games(r) >= min_games]
        found.sort(key=lambda r: (r.ordinal, r.player_id), reverse=True)
        return Board(
            [BoardRow(copy.copy(r), None, games(r)) for r in found[offset : offset + limit]],
            len(found),
        )

    async def forget(self, player_id: str) -> None:
        self.current = {k: v for k, v in self.current.items() if k[0] != player_id}
        self.past.pop(player_id, None)
        self.done = [
            replace(r, player_id=None) if r.player_id == player_id else r for r in self.done
        ]
