"""What every state of one ``python_salad`` game shares: the ruleset, the hands played, the scale
of the returns, and how cards and moves are written in its strings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from salad.cards import NO_SUIT, CardMask, cards_of
from salad.engine import Game
from salad.moves import HIGH, Move, card_of, format_move, is_declared_high, is_trump_choice
from salad.ruleset import CompiledRules, Kind, Moon, Ruleset
from salad.view import Phase

DEFAULTS: dict[str, Any] = {
    "rules": "canadian",
    "players": 0,
    "settings": "{}",
    "toppings": "",
    "first_hand": 0,
    "hands": 0,
    "first_dealer": -1,
    "normalize": True,
}


@dataclass(frozen=True)
class GameConfig:
    """What every state of one game shares (never copied)."""

    ruleset: Ruleset
    rules: CompiledRules
    players: int
    first_hand: int
    end_hand: int
    """One past the last hand played."""
    first_dealer: int
    scale: float
    sign: int
    labels: tuple[str, ...]
    """Per card: its code, with ``#k`` added where the deck holds identical copies."""

    @property
    def size(self) -> int:
        return self.rules.deck.size

    def move_text(self, move: Move) -> str:
        """A move in salad's notation (:func:`salad.moves.format_move`), with the card's label
        (``QS#2``) so that identical copies stay apart."""
        deck = self.rules.deck
        if is_trump_choice(deck, move):
            return format_move(deck, move)
        label = self.labels[card_of(deck, move)]
        return label + HIGH if is_declared_high(deck, move) else label

    def cards_text(self, mask: CardMask) -> str:
        labels = self.labels
        return " ".join(labels[c] for c in cards_of(mask)) or "-"


def card_labels(codes: Sequence[str]) -> tuple[str, ...]:
    counts: dict[str, int] = {}
    for code in codes:
        counts[code] = counts.get(code, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for code in codes:
        if counts[code] > 1:
            seen[code] = seen.get(code, 0) + 1
            out.append(f"{code}#{seen[code]}")
        else:
            out.append(code)
    return tuple(out)


def point_range(rules: CompiledRules, first: int, end: int) -> tuple[int, int, int]:
    """(lowest, highest) total one seat can score over hands ``first..end-1``, and what those
    hands hand out in all when no moon is shot."""
    rs = rules.ruleset
    tricks = rules.deck.cards_each
    lo_sum = hi_sum = fixed = 0
    for hand in rules.hands[first:end]:
        lo = hi = 0
        for p in hand.penalties:
            if p.kind == Kind.TRICK:
                amount = tricks * p.points
            elif p.kind == Kind.CARDS:
                amount = p.mask.bit_count() * p.points
            elif p.kind == Kind.LAST_TRICK or p.mask:
                amount = p.points
            else:
                amount = 0
            lo, hi = lo + min(0, amount), hi + max(0, amount)
        if hand.moon and rs.moon == Moon.OLD:
            lo, hi = min(lo, 0, rs.moon_points), max(hi, rs.moon_points)
        elif hand.moon and rs.moon == Moon.NEGATIVE:
            lo, hi = min(lo, -hi), max(hi, -lo)
        lo_sum += lo
        hi_sum += hi
        fixed += hand.fixed_total
    return lo_sum, hi_sum, fixed


def nums(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def trump_line(cfg: GameConfig, game: Game, chooser: int) -> str:
    if game.phase is Phase.TRUMP:
        return f"trump to pick by {game.to_move}"
    if game.trump == NO_SUIT:
        return "no trump"
    letter = cfg.rules.deck.suits[game.trump].letter
    return f"trump {letter}" + (f" picked by {chooser}" if chooser >= 0 else "")
