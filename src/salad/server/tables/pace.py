"""A table's pace, the host's choice: how long its bots take a card, and how long a finished
trick stays on the table before the next card (the pages hold it as long, and a bot leading
the next trick waits for it). Stored with the table; ``normal`` is the pace every table had."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from salad.server.errors import ActionError


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
    """The pace a client named (``normal`` when None); ActionError if there is none such."""
    if value is None:
        return Pace.NORMAL
    try:
        return Pace(value.strip().lower())
    except ValueError:
        known = ", ".join(p.value for p in Pace)
        raise ActionError(f"pace: unknown pace {value!r} (known: {known})") from None
