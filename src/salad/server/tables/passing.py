"""Passing at once, as at a real table: in a hand's pass phase every seat chooses its cards when
it likes (a bot at once), and no seat sees another's choice; the cards go round once all have
chosen.

The engine takes the passes one seat after the other (its ``to_move``), and its log, stored
move by move, stays the one truth of a game (records, replays, a reload). So a seat's choice
made before its turn in that order is held here, in memory, and played as that seat's moves the
moment its turn comes (:meth:`~salad.server.tables.turns.Turns.schedule`). A seat's view
stays the engine's; beside it, its ``state`` says what it may choose now and has chosen (held
or played), and who is still choosing (``passing``, :func:`~.wire.passing_json`). A choice
held here and not yet played is lost if the server stops: that seat chooses again (a bot at
once).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from salad.cards import CardMask, cards_of
from salad.engine import Game
from salad.moves import Move
from salad.view import Phase, View


@dataclass
class Choices:
    """The choices of one hand's pass phase not played yet, by seat."""

    key: tuple[int, int]
    """(game number, hand index) of the pass phase they are for."""
    held: dict[int, list[Move]] = field(default_factory=dict)
    """Each seat's cards chosen before its turn, in the order chosen."""
    thinking: set[int] = field(default_factory=set)
    """The bot seats whose choice is being thought out."""
    exchange_at: float | None = None
    """When the last card held is played (the loop's clock), once every seat has chosen."""

    def mask(self, seat: int) -> CardMask:
        """The cards ``seat`` has chosen and are held here."""
        out = 0
        for move in self.held.get(seat, ()):
            out |= 1 << move
        return out

    def needed(self, game: Game, seat: int) -> int:
        """How many more cards ``seat`` has to choose (0: it has chosen)."""
        done = game.passed[seat].bit_count() + len(self.held.get(seat, ()))
        return max(0, game.ruleset.passing - done)

    def free(self, game: Game, seat: int) -> CardMask:
        """The cards ``seat`` may still choose (none once it has chosen them all)."""
        if not self.needed(game, seat):
            return 0
        return game.hands[seat] & ~game.passed[seat] & ~self.mask(seat)

    def complete(self, game: Game, seat: int) -> bool:
        """Whether every seat has chosen, and only ``seat``'s cards are still held."""
        if any(self.needed(game, s) for s in range(game.players)):
            return False
        return not any(held for s, held in self.held.items() if s != seat)

    def choosing(self, game: Game) -> list[int]:
        """The seats with cards to choose, in passing order from the engine's seat to move."""
        n = game.players
        order = [(game.to_move + i) % n for i in range(n)]
        return [seat for seat in order if self.needed(game, seat)]

    def shown(self, game: Game, seat: int) -> tuple[CardMask, CardMask]:
        """What ``seat`` may choose now, and what it has chosen (held here or played)."""
        return self.free(game, seat), game.passed[seat] | self.mask(seat)


def choices_of(game: Game | None, number: int, choices: Choices | None) -> Choices | None:
    """``choices`` if they are for this pass phase of ``game`` (game ``number``), new ones if
    the game is in another pass phase, None out of one."""
    if game is None or game.phase != Phase.PASS or not game.ruleset.passing:
        return None
    key = (number, game.hand_index)
    return choices if choices is not None and choices.key == key else Choices(key)


def choice_view(view: View, chosen: CardMask) -> View:
    """``view`` as if its seat's turn had come in the pass phase, the cards ``chosen`` set
    aside: what a bot's choice (or a hint) is thought out from before the engine asks."""
    free = view.hand & ~chosen
    return replace(view, to_move=view.seat, legal_moves=tuple(cards_of(free)), passed=chosen)
