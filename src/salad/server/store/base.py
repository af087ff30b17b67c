"""The :class:`TableStore` protocol (in the spirit of boardgame.io's storage interface) and the
rows it holds and hands back.

Every method is a coroutine. A write returns once it is stored for good (or raises). The
writes of a table that a cluster node makes from its copy take that copy's fencing ``epoch``
(None: not a cluster's copy, not fenced): if another node has loaded the table since
(:meth:`TableStore.fence` raised its epoch), the write stores nothing and raises
:class:`StaleCopy`. A server database (PostgreSQL) that does not answer makes the
store raise :class:`StoreTimeout` within ``STORE_TIMEOUT`` seconds; a SQLite file that
another process keeps busy for as long makes its write fail with SQLAlchemy's
``OperationalError`` ("database is locked"), since SQLite's writes run on the event loop.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Protocol

STORE_TIMEOUT = 10.0
"""Seconds a batch may wait for a server database (frozen, or cut off without a word) before
its calls are refused (StoreTimeout): one batch stuck does not hold up every table's."""

Over = tuple[list[int], list[int]]
"""A finished game's totals and winners (stored with the move that ended it)."""

Epoch = int | None
"""A write's fencing ``epoch``, as above (None: not fenced)."""

Players = list[dict[str, Any]]
"""A game's players as stored with it: each seat's name, its bot or its ``player`` (the id of
a player the site remembers, :mod:`~.players`), what the record notes."""

KEPT = ("talk", "pressed")
"""What a table keeps besides its games (:meth:`TableStore.keep`): its talk
(:mod:`salad.server.tables.talk`) and who has pressed Next hand
(:mod:`salad.server.tables.hand_end`), each a JSON value."""


class StaleCopy(Exception):
    """A change from a copy of a table that another server has loaded since: not stored."""


class DuplicateMove(StaleCopy):
    """A move whose number is stored already: not stored (the SQL store raises the database's
    own IntegrityError)."""


class StoreTimeout(Exception):
    """A batch the database did not answer in time (``STORE_TIMEOUT``): refused, though it may
    have been stored after all."""


def hash_token(token: str) -> str:
    """The stored form of a seat token (tokens are long random strings: no salt needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    player: str | None = None
    """The id of the player who sits there (:mod:`~.players`), if their browser had one."""


@dataclass
class MoveRow:
    seq: int
    seat: int
    move: int
    code: str
    by: str = "human"


@dataclass
class GameRow:
    game_number: int
    seed: int
    players: Players
    status: str
    totals: list[int] | None = None
    winners: list[int] | None = None
    started_at: float = 0.0
    finished_at: float | None = None


@dataclass
class TableRow:
    id: str
    preset: str
    settings: dict[str, Any]
    players: int
    turn_timer: float | None
    bot_takeover: float | None
    status: str
    game_number: int
    seed: int | None = None
    seats: list[SeatRow] = field(default_factory=list)
    created_at: float = 0.0
    talk: Any = None
    pressed: Any = None
    """What the table keeps (:data:`KEPT`), as last kept; None: nothing kept yet."""
    pace: str = "normal"
    """How fast its bots play and how long a finished trick stays: slow, normal or fast."""
    group_id: str | None = None
    """The group the table was made for (:mod:`~.groups`): only its members take a seat."""


class TableStore(Protocol):
    """Tables, seats, games, moves, reviews and fencing epochs."""

    async def open(self) -> None:
        """Make the store ready (a database: its schema brought up to date). Idempotent."""

    async def close(self) -> None:
        """Store what waits, then let every connection go."""

    async def ping(self) -> None:
        """A round trip to the database (the health check's)."""

    # -- writes --------------------------------------------------------------------------
    async def create_table(self, row: TableRow) -> None:
        """A new table and its seats."""

    async def save_seats(self, table_id: str, seats: list[SeatRow], *, epoch: Epoch = None) -> None:
        """Replace every seat of a table (seats are renumbered when one is removed)."""

    async def set_pace(self, table_id: str, pace: str, *, epoch: Epoch = None) -> None:
        """The table's pace (the host changed it)."""

    async def start_game(
        self, table_id: str, game_number: int, seed: int, players: Players, *, epoch: Epoch = None
    ) -> None:
        """A new game, and the table marked as playing it."""

    async def add_move(
        self,
        table_id: str,
        game_number: int,
        move: MoveRow,
        over: Over | None = None,
        epoch: Epoch = None,
    ) -> None:
        """One accepted move; ``over`` (totals, winners) when it ended the game, which is then
        marked over with the table. A move whose ``seq`` is stored already is refused."""

    async def take_back(
        self, table_id: str, game_number: int, keep: int, players: Players, *, epoch: Epoch = None
    ) -> None:
        """Delete the moves of a game after the first ``keep`` (an undo), and store its
        players' entries (which count the undos, for the record)."""

    async def fence(self, table_id: str) -> int:
        """Raise the table's epoch (a cluster node loads it): the new epoch (0, and nothing
        written, for a table that does not exist). Writes with an older epoch are refused from
        now on; one being stored at this moment is waited for."""

    async def keep(self, table_id: str, part: str, value: Any, *, epoch: Epoch = None) -> None:
        """Keep ``value`` as the table's ``part`` (one of :data:`KEPT`), handed back in
        the :class:`TableRow` of :meth:`load_table` (a restart, or another node)."""

    async def save_review(
        self, table_id: str, game_number: int, seat: int, worlds: int, review: str
    ) -> None:
        """Store a game review's JSON (replacing one of the same key: both are the same)."""

    # -- reads ---------------------------------------------------------------------------
    async def load_table(self, table_id: str) -> TableRow | None:
        """A table and its seats (None: no such table)."""

    async def table_exists(self, table_id: str) -> bool:
        """Whether the table exists (read aside from the writes: it never waits for them)."""

    async def active_tables(self) -> list[str]:
        """The ids of the tables with a game being played, in order (read aside too)."""

    async def games(self, table_id: str) -> list[GameRow]:
        """Every game of a table, in order."""

    async def game(self, table_id: str, game_number: int) -> GameRow | None:
        """One game of a table (None: no such game)."""

    async def moves(self, table_id: str, game_number: int) -> list[MoveRow]:
        """The moves of a game, in order."""

    async def load_review(
        self, table_id: str, game_number: int, seat: int, worlds: int
    ) -> str | None:
        """A stored review's JSON, or None."""
