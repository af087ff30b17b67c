"""A table's pace, the host's choice: how long its bots take a card, and how long a finished
trick stays on the table before the next card (the pages hold it as long, and a bot leading
the next trick waits for it). Stored with the table; ``normal`` is the pace every table had."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Pace(StrEnum):
    """A table's pace (the value is what the database stores and the lobby sends)."""

    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"


@dataclass(frozen=True)
class Timing:
    bot: float
    """Seconds a bot takes a card at most (its thinking included)."""
    trick: float
    """Seconds a finished trick stays on the table."""


TIMINGS = {
    Pace.SLOW: Timing(bot=1.2, trick=2.5),
    Pace.NORMAL: Timing(bot=0.6, trick=1.4),
    Pace.FAST: Timing(bot=0.15, trick=0.5),
}


def check_pace(value: str | None) -> Pace:
    """The pace a request named (``normal`` when None): one of the names its model takes
    (:data:`~salad.server.incoming.PaceName`), which refuses any other with a 400."""
    return Pace.NORMAL if value is None else Pace(value)
