"""A match's line-up: one bot per seat, rotated one seat per game of a deal."""

from __future__ import annotations

from collections.abc import Sequence

from salad.bots import bot_factory
from salad.errors import SaladError
from salad.lab.games import bot_key


def parse_lineup(bots: str | Sequence[str], players: int) -> tuple[str, ...]:
    """``"expert,basic,basic,basic"`` → the checked line-up, one known bot name per seat."""
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    names = [bot_key(n) for n in names if n.strip()]
    if len(names) != players:
        example = ",".join(["expert"] + ["basic"] * (players - 1))
        if not names:
            raise SaladError(f"bots: name one bot per seat, e.g. --bots {example}")
        raise SaladError(
            f"bots: {len(names)} bots named for {players} players (a match needs one per seat)"
        )
    for name in dict.fromkeys(names):
        bot_factory(name)  # unknown or unavailable → SaladError
    return tuple(names)


def seat_names(lineup: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The bot in each seat: the ``i``-th of the line-up sits in seat ``(i + rotation) % n``."""
    n = len(lineup)
    return tuple(lineup[(s - rotation) % n] for s in range(n))
