"""What a store holds and hands back: the rows of a table, its seats, games and moves, and the
refusals every store raises alike."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "KEPT",
    "DuplicateMove",
    "GameRow",
    "MoveRow",
    "SeatRow",
    "StaleCopy",
    "StoreTimeout",
    "TableRow",
    "hash_token",
]


KEPT = ("talk", "pressed")
"""What a table keeps besides its games (:meth:`~.base.TableStore.keep`): its talk
(:mod:`salad.server.tables.talk`) and who has pressed Next hand
(:mod:`salad.server.tables.hand_end`), each a JSON value."""


class StaleCopy(Exception):
    """A change from a copy of a table that another server has loaded since: not stored."""


class DuplicateMove(StaleCopy):
    """A move whose number is stored already (another copy of the table stored it): not
    stored. The SQL store says so with the database's own IntegrityError."""


class StoreTimeout(Exception):
    """A batch the database did not answer in time (``STORE_TIMEOUT``): refused, though it may
    have been stored after all (a move: the next move at its table finds out, see
    TableManager)."""


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
    players: list[dict[str, Any]]
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
