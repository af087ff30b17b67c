"""What one seat may know: a :class:`View` never holds another seat's hidden cards."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from salad.cards import NO_SUIT, CardMask, Deck
from salad.moves import Move, format_move
from salad.ruleset import Ruleset

SPECTATOR = -1
"""The seat number of a view that sees no hand."""


class Phase(IntEnum):
    DEAL = 0
    """Waiting for the cards of the next hand (a chance node)."""
    TRUMP = 1
    """A seat picks the trump suit."""
    PASS = 2
    """Seats choose the cards they pass, one card per move."""
    PLAY = 3
    OVER = 4


@dataclass(frozen=True)
class CompletedTrick:
    leader: int
    moves: tuple[Move, ...]
    """In play order from the leader."""
    winner: int


@dataclass(frozen=True)
class View:
    """A seat's information state (``seat == SPECTATOR`` for a watcher: no hand at all)."""

    seat: int
    players: int
    ruleset: Ruleset
    deck: Deck
    phase: Phase
    hand_index: int
    round_name: str
    dealer: int
    to_move: int
    hand: CardMask
    """This seat's own cards (0 for a spectator)."""
    legal_moves: tuple[Move, ...]
    """This seat's legal moves now (empty when it is not its turn)."""
    leader: int
    trick: tuple[Move, ...]
    """The current trick, in play order from ``leader``."""
    led_suit: int
    trump: int
    tricks: tuple[CompletedTrick, ...]
    """The tricks finished in this hand, oldest first."""
    hand_sizes: tuple[int, ...]
    tricks_won: tuple[int, ...]
    running: tuple[int, ...]
    """Penalties each seat has taken so far this hand."""
    token: int
    """The seat holding the token, or -1."""
    hand_points: tuple[tuple[int, ...], ...]
    """Points of every finished hand."""
    totals: tuple[int, ...]
    passed: CardMask
    """Cards this seat chose to pass this hand."""
    received: CardMask
    """Cards this seat was passed this hand (known once the passes are exchanged)."""

    @property
    def played(self) -> CardMask:
        """Every card played this hand, the current trick included."""
        mask = 0
        size = self.deck.size
        for t in self.tricks:
            for m in t.moves:
                mask |= 1 << (m % size)
        for m in self.trick:
            mask |= 1 << (m % size)
        return mask

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with cards as codes (for protocols)."""
        deck = self.deck

        def move(m: Move) -> str:
            return format_move(deck, m)

        def seat_of(leader: int, i: int) -> int:
            return (leader + i) % self.players

        return {
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase.name.lower(),
            "hand": self.hand_index + 1,
            "round": self.round_name,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "cards": deck.format_mask(self.hand).split(),
            "legal": [move(m) for m in self.legal_moves],
            "leader": self.leader,
            "trick": [[seat_of(self.leader, i), move(m)] for i, m in enumerate(self.trick)],
            "led_suit": deck.suits[self.led_suit].letter if self.led_suit != NO_SUIT else None,
            "trump": deck.suits[self.trump].letter if self.trump != NO_SUIT else None,
            "tricks": [
                {
                    "leader": t.leader,
                    "cards": [move(m) for m in t.moves],
                    "winner": t.winner,
                }
                for t in self.tricks
            ],
            "hand_sizes": list(self.hand_sizes),
            "tricks_won": list(self.tricks_won),
            "running": list(self.running),
            "token": self.token,
            "hand_points": [list(p) for p in self.hand_points],
            "totals": list(self.totals),
            "passed": deck.format_mask(self.passed).split(),
            "received": deck.format_mask(self.received).split(),
        }
