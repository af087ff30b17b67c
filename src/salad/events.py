"""The engine's event log, as typed records.

The engine keeps its log as plain tuples (cheap on the hot path); :func:`typed` turns one entry
into one of these named tuples for everyone else: records, replays, persistence and undo all read
the same log.
"""

from __future__ import annotations

from typing import NamedTuple

from salad.cards import Card, CardMask
from salad.moves import Move

# Tags of the raw log entries.
DRAW, DEAL, TRUMP, PASS, EXCHANGE, PLAY, TRICK, TOKEN, SCORE, END = range(10)


class Draw(NamedTuple):
    """The first-dealer draw: each round of draws as (seat, card) pairs; ties draw again."""

    rounds: tuple[tuple[tuple[int, Card], ...], ...]
    dealer: int


class Deal(NamedTuple):
    hand: int
    dealer: int
    hands: tuple[CardMask, ...]


class TrumpChosen(NamedTuple):
    hand: int
    seat: int
    """-1 where the ruleset fixes the trump."""
    suit: int
    """-1 for no trump."""


class PassChosen(NamedTuple):
    seat: int
    card: Card


class PassesExchanged(NamedTuple):
    hand: int
    passed: tuple[CardMask, ...]
    """What each seat gave away."""


class Play(NamedTuple):
    seat: int
    move: Move


class TrickWon(NamedTuple):
    hand: int
    trick: int
    winner: int


class TokenTaken(NamedTuple):
    seat: int


class HandScored(NamedTuple):
    hand: int
    points: tuple[int, ...]
    moon: int
    """The seat that shot the moon, or -1."""


class GameOver(NamedTuple):
    totals: tuple[int, ...]


Event = (
    Draw
    | Deal
    | TrumpChosen
    | PassChosen
    | PassesExchanged
    | Play
    | TrickWon
    | TokenTaken
    | HandScored
    | GameOver
)

_TYPES: tuple[type, ...] = (
    Draw,
    Deal,
    TrumpChosen,
    PassChosen,
    PassesExchanged,
    Play,
    TrickWon,
    TokenTaken,
    HandScored,
    GameOver,
)


def typed(entry: tuple[int, ...] | tuple[object, ...]) -> Event:
    """One raw log entry as its named tuple."""
    tag = entry[0]
    assert isinstance(tag, int)
    event: Event = _TYPES[tag](*entry[1:])
    return event
