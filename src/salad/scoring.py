"""Scoring a hand from what each seat took: one pure function for the engine and the sheet.

The engine feeds it the cards its players won; the score sheet feeds it what a real table says
each player took. Both get the same points, the ruleset's moon included.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from salad.cards import CardMask
from salad.ruleset import CompiledHand, CompiledRules, Kind, Moon


class HandScore(NamedTuple):
    points: tuple[int, ...]
    moon: int
    """The seat that shot the moon, or -1."""


def card_counts(hand: CompiledHand, taken: Sequence[CardMask]) -> list[tuple[int, ...]]:
    """Per penalty of ``hand``, how many of its cards each seat took (``()`` for penalties that
    count no cards): what :func:`score_hand` wants, from the engine's taken-card masks."""
    return [
        tuple((t & p.mask).bit_count() for t in taken) if p.kind == Kind.CARDS else ()
        for p in hand.penalties
    ]


def penalty_points(
    hand: CompiledHand,
    players: int,
    tricks_won: Sequence[int],
    counts: Sequence[Sequence[int]],
    last: int,
    token: int,
) -> list[int]:
    """Each seat's penalty points for what it took, before any moon.

    ``counts[i][s]``: cards matching ``hand.penalties[i]`` taken by seat ``s`` (only read for
    card penalties); ``last``: the winner of the last trick (-1 while unplayed); ``token``: the
    token's holder (-1 for nobody).
    """
    points = [0] * players
    for p, count in zip(hand.penalties, counts, strict=True):
        if p.kind == Kind.TRICK:
            for s, won in enumerate(tricks_won):
                points[s] += won * p.points
        elif p.kind == Kind.CARDS:
            for s, k in enumerate(count):
                points[s] += k * p.points
        elif p.kind == Kind.LAST_TRICK:
            if last >= 0:
                points[last] += p.points
        elif token >= 0:
            points[token] += p.points
    return points


def moon_shooter(
    hand: CompiledHand,
    tricks: int,
    tricks_won: Sequence[int],
    counts: Sequence[Sequence[int]],
    last: int,
    token: int,
) -> int:
    """The seat that took every counting penalty of the hand (when the hand allows a moon)."""
    if not hand.moon:
        return -1
    for s in range(len(tricks_won)):
        counted = False
        for p, count in zip(hand.penalties, counts, strict=True):
            if p.kind == Kind.TRICK:
                ok, counted = tricks_won[s] == tricks, True
            elif p.kind == Kind.CARDS:
                ok = count[s] == p.mask.bit_count()
                counted = counted or bool(p.mask)
            elif p.kind == Kind.LAST_TRICK:
                ok, counted = last == s, True
            else:
                ok = token in (s, -1)
            if not ok:
                break
        else:
            if counted:
                return s
    return -1


def score_hand(
    rules: CompiledRules,
    hand: CompiledHand,
    tricks_won: Sequence[int],
    counts: Sequence[Sequence[int]],
    last: int,
    token: int,
) -> HandScore:
    """A finished hand's points, the ruleset's moon applied (see :func:`penalty_points`)."""
    n = rules.players
    points = penalty_points(hand, n, tricks_won, counts, last, token)
    moon = moon_shooter(hand, rules.tricks, tricks_won, counts, last, token)
    if moon >= 0:
        if rules.ruleset.moon == Moon.OLD:
            points = [rules.ruleset.moon_points] * n
            points[moon] = 0
        else:
            points[moon] = -points[moon]
    return HandScore(tuple(points), moon)


def standings(totals: Sequence[int], highest_wins: bool = False) -> list[int]:
    """The place of each seat, 1 for the best; equal totals share the place."""
    sign = -1 if highest_wins else 1
    return [1 + sum(sign * o < sign * t for o in totals) for t in totals]
