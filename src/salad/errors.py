"""Every error the package raises on bad input is a ``ValueError`` with a one-line message."""

from __future__ import annotations


class SaladError(ValueError):
    """Base class: bad input of any kind, described in one line."""


class CardParseError(SaladError):
    """Text that is not a card of the deck."""


class RulesError(SaladError):
    """An invalid ruleset, rules file or setting; the message names the key."""


class IllegalMoveError(SaladError):
    """A move that the rules do not allow now.

    The message names seat, move and reason in one line (``seat 0 cannot play AC: seat 0 must
    follow spades``); the parts are attributes too, so no caller parses the text back:
    ``seat``, ``move`` (the move as text), ``reason`` (a code from :data:`REASONS`) and
    ``why`` (the reason in words, ``must follow spades``).
    """

    def __init__(self, seat: int, move: str, reason: str, why: str) -> None:
        self.seat = seat
        self.move = move
        self.reason = reason
        self.why = why
        if move:
            super().__init__(f"seat {seat} cannot play {move}: seat {seat} {why}")
        else:
            super().__init__(f"seat {seat}: {why}")

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[int, str, str, str]]:
        return (IllegalMoveError, (self.seat, self.move, self.reason, self.why))


REASONS = {
    "not-a-move": "the move is not a card or choice of this deck",
    "not-held": "the seat does not hold that card",
    "not-declarable": "only a Wild may be declared high",
    "must-follow": "the seat holds the suit that was led",
    "not-passable": "a pass must be a held card not chosen yet",
    "must-pick-trump": "the seat must pick a trump suit",
    "no-move-now": "the game is in a phase with no move (dealing, or over)",
}
"""Each :attr:`IllegalMoveError.reason` code and what it means."""


class RecordError(SaladError):
    """A game record that cannot be read or does not replay."""
