"""Scoring a hand from what each seat took: one pure function for the engine and the sheet.

The engine feeds it the cards its players won; the score sheet feeds it what a real table says
each player took. Both get the same points, the ruleset's moon included. Front ends that show
where a hand's points came from read :func:`hand_breakdowns` (penalty by penalty, and the moon).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from salad.cards import CardMask
from salad.events import DEAL, Deal, HandScored, Play, TokenTaken, TrickWon, typed
from salad.moves import card_of
from salad.ruleset import CompiledHand, CompiledPenalty, CompiledRules, Kind, Moon

_TRICK, _CARDS, _LAST_TRICK = Kind.TRICK, Kind.CARDS, Kind.LAST_TRICK
# Module constants: reading an enum member off its class costs far more than a global (3.11).

MOON = "moon"
"""The key of the moon's share in :meth:`HandBreakdown.seat` (no penalty id is this)."""


class HandScore(NamedTuple):
    points: tuple[int, ...]
    moon: int
    """The seat that shot the moon, or -1."""


def card_counts(hand: CompiledHand, taken: Sequence[CardMask]) -> list[tuple[int, ...]]:
    """Per penalty of ``hand``, how many of its cards each seat took (``()`` for penalties that
    count no cards): what :func:`score_hand` wants, from the engine's taken-card masks."""
    out: list[tuple[int, ...]] = []
    for p in hand.penalties:
        if p.kind == _CARDS:
            m = p.mask
            out.append(tuple([(t & m).bit_count() for t in taken]))
        else:
            out.append(())
    return out


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
        _add_penalty(points, p, tricks_won, count, last, token)
    return points


def _add_penalty(
    points: list[int],
    p: CompiledPenalty,
    tricks_won: Sequence[int],
    count: Sequence[int],
    last: int,
    token: int,
) -> None:
    """Add what penalty ``p`` charges each seat to ``points`` (see :func:`penalty_points`)."""
    kind = p.kind
    if kind == _TRICK:
        for s, won in enumerate(tricks_won):
            points[s] += won * p.points
    elif kind == _CARDS:
        for s, k in enumerate(count):
            points[s] += k * p.points
    elif kind == _LAST_TRICK:
        if last >= 0:
            points[last] += p.points
    elif token >= 0:
        points[token] += p.points


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
            kind = p.kind
            if kind == _TRICK:
                ok, counted = tricks_won[s] == tricks, True
            elif kind == _CARDS:
                ok = count[s] == p.mask.bit_count()
                counted = counted or bool(p.mask)
            elif kind == _LAST_TRICK:
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
    return HandScore(tuple(_with_moon(rules, points, moon)), moon)


def _with_moon(rules: CompiledRules, points: Sequence[int], moon: int) -> list[int]:
    """The points of a hand once the moon shot by seat ``moon`` (-1: none) is applied."""
    out = list(points)
    if moon >= 0:
        if rules.ruleset.moon == Moon.OLD:
            out = [rules.ruleset.moon_points] * len(points)
            out[moon] = 0
        else:
            out[moon] = -out[moon]
    return out


class HandBreakdown(NamedTuple):
    """Where a finished hand's points came from: each penalty's points per seat, then what the
    moon changed. For every seat, its penalties plus its moon share are its points."""

    hand: int
    penalties: tuple[str, ...]
    """The ids of the hand's penalties, in the ruleset's order."""
    by_penalty: tuple[tuple[int, ...], ...]
    """``by_penalty[i][s]``: the points of ``penalties[i]`` taken by seat ``s``."""
    moon: int
    """The seat that shot the moon, or -1."""
    moon_points: tuple[int, ...]
    """What the moon added to each seat (negative for a Blue Cheese Moon); zeros without one."""
    points: tuple[int, ...]
    """The hand's points per seat, as scored."""

    def seat(self, seat: int) -> dict[str, int]:
        """One seat's points by penalty id, and its moon share under :data:`MOON`."""
        out = {pid: row[seat] for pid, row in zip(self.penalties, self.by_penalty, strict=True)}
        out[MOON] = self.moon_points[seat]
        return out

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready form: ``{"hand", "moon", "points", "seats": [{penalty id: points,
        "moon": points}]}``."""
        return {
            "hand": self.hand,
            "moon": self.moon,
            "points": list(self.points),
            "seats": [self.seat(s) for s in range(len(self.points))],
        }


def breakdown_hand(
    rules: CompiledRules,
    hand: CompiledHand,
    tricks_won: Sequence[int],
    counts: Sequence[Sequence[int]],
    last: int,
    token: int,
) -> HandBreakdown:
    """:func:`score_hand`, penalty by penalty (same arguments)."""
    n = rules.players
    rows = []
    for p, count in zip(hand.penalties, counts, strict=True):
        row = [0] * n
        _add_penalty(row, p, tricks_won, count, last, token)
        rows.append(tuple(row))
    plain = [sum(row[s] for row in rows) for s in range(n)]
    moon = moon_shooter(hand, rules.tricks, tricks_won, counts, last, token)
    points = _with_moon(rules, plain, moon)
    return HandBreakdown(
        hand.index,
        tuple(p.penalty.id for p in hand.penalties),
        tuple(rows),
        moon,
        tuple(a - b for a, b in zip(points, plain, strict=True)),
        tuple(points),
    )


def hand_breakdowns(rules: CompiledRules, log: Sequence[tuple[object, ...]]) -> list[HandBreakdown]:
    """Every finished hand of a game's event log (``Game.log``), penalty by penalty."""
    deck = rules.deck
    n = rules.players
    out: list[HandBreakdown] = []
    taken = [0] * n
    won = [0] * n
    trick = 0
    last = token = -1
    for entry in log:
        event = typed(entry)
        if isinstance(event, Deal):
            taken, won, trick, last, token = [0] * n, [0] * n, 0, -1, -1
        elif isinstance(event, Play):
            trick |= 1 << card_of(deck, event.move)
        elif isinstance(event, TrickWon):
            taken[event.winner] |= trick
            won[event.winner] += 1
            trick, last = 0, event.winner
        elif isinstance(event, TokenTaken):
            token = event.seat
        elif isinstance(event, HandScored):
            hand = rules.hands[event.hand]
            counts = card_counts(hand, taken)
            out.append(breakdown_hand(rules, hand, won, counts, last, token))
    return out


def hand_breakdown(
    rules: CompiledRules, log: Sequence[tuple[object, ...]], index: int
) -> HandBreakdown:
    """:func:`hand_breakdowns` of one finished hand, reading only that hand's events (the
    server shows each hand's as it ends); IndexError if hand ``index`` is not finished."""
    start = next((i for i, e in enumerate(log) if e[0] == DEAL and e[1] == index), None)
    if start is None:
        raise IndexError(f"hand {index} was not dealt")
    end = next((i for i in range(start + 1, len(log)) if log[i][0] == DEAL), len(log))
    return hand_breakdowns(rules, log[start:end])[0]


def standings(totals: Sequence[int], highest_wins: bool = False) -> list[int]:
    """The place of each seat, 1 for the best; equal totals share the place."""
    sign = -1 if highest_wins else 1
    return [1 + sum(sign * o < sign * t for o in totals) for t in totals]
