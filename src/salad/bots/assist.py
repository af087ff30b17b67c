"""Help for a human playing bots, shared by the terminal app and the web table: a hint (the
expert's move and why, in a few words) and how many moves an undo takes back.

>>> from salad.engine import Game
>>> from salad.formats.rules import load_ruleset
>>> game = Game(load_ruleset("canadian"), 4, seed=1)
>>> first = game.to_move
>>> game.play(game.legal_moves()[0])
>>> takeback_count(game.log, first), takeback_count(game.log, (first + 1) % 4)
(1, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from salad.bots.expert import ExpertBot
from salad.cards import Deck
from salad.events import PassChosen, Play, TrumpChosen, typed
from salad.locale import N_, _, ngettext
from salad.locale.cards import move_label
from salad.moves import Move
from salad.view import Phase, View

__all__ = ["HINT_BOT", "WHY", "Hint", "hint", "hint_for", "hint_reason", "mover", "takeback_count"]

HINT_BOT = "expert"
"""The bot whose move a hint suggests."""


@dataclass(frozen=True)
class Hint:
    """A suggested move for a seat, and why (:data:`WHY`), said by :meth:`reason` in the
    language current where it is shown."""

    move: Move
    why: str
    """One of :data:`WHY`."""
    other: Move = -1
    """The next best move, that ``why`` compares ``move`` with (-1: none)."""
    gain: int = 0
    """The points ``move`` saves (or scores) over ``other``, about."""
    bot: str = HINT_BOT

    def reason(self, deck: Deck) -> str:
        """Why, in a few words in the current language (``deck``: the game's, for the other
        move's label)."""
        if self.why in FIXED:
            return _(FIXED[self.why])
        label = move_label(deck, self.other)
        if self.why == "as-good":
            return _("about as good as {card}").format(card=label)
        if self.why == "scores":
            said = ngettext(
                "scores about {n} point more than {card}",
                "scores about {n} points more than {card}",
                self.gain,
            )
        else:
            said = ngettext(
                "saves about {n} point over {card}", "saves about {n} points over {card}", self.gain
            )
        return said.format(n=self.gain, card=label)


FIXED = {
    "only": N_("it is your only choice"),
    "pass": N_("pass your most dangerous cards"),
    "same": N_("any of your choices does the same"),
}
"""The reasons said without a number or another move."""

WHY = (*FIXED, "as-good", "saves", "scores")
"""Why a hint's move: the only one, a pass (its most dangerous cards), any would do, about as
good as the next best, or what it saves (scores, where the highest total wins) over it."""


def hint(view: View, seed: int, move_time: float | None = None) -> Hint:
    """The expert's move for ``view.seat`` (which is to move) and its reason. Slow (the search
    thinks for ``move_time`` seconds): run it off any UI thread or event loop."""
    bot = ExpertBot(seed, **({} if move_time is None else {"move_time": move_time}))
    bot.searcher.last_estimates = {}
    move = bot.choose(view)
    return hint_for(view, move, bot.searcher.last_estimates)


def hint_for(view: View, move: Move, estimates: Mapping[Move, float]) -> Hint:
    """The hint of ``move`` and why: what the search expects it to save over the next best
    move (``estimates``: each move's average points, lower is better), or the rule it follows
    when there was nothing to search."""
    if len(view.legal_moves) == 1:
        return Hint(move, "only")
    if view.phase == Phase.PASS:
        return Hint(move, "pass")
    others = {m: v for m, v in estimates.items() if m != move}
    if move not in estimates or not others:
        return Hint(move, "same")
    runner_up = min(others, key=lambda m: others[m])
    gain = round(others[runner_up] - estimates[move])
    if gain <= 0:
        return Hint(move, "as-good", runner_up)
    return Hint(move, "scores" if view.ruleset.highest_wins else "saves", runner_up, gain)


def hint_reason(view: View, move: Move, estimates: Mapping[Move, float]) -> str:
    """Why ``move``, in a few words in the current language (:func:`hint_for`).

    >>> from salad.engine import Game
    >>> from salad.formats.rules import load_ruleset
    >>> game = Game(load_ruleset("canadian"), 4, seed=1)
    >>> view = game.view(game.to_move)
    >>> a, b = view.legal_moves[:2]
    >>> hint_reason(view, a, {a: 2.0, b: 10.4}).startswith("saves about 8 points over ")
    True
    """
    return hint_for(view, move, estimates).reason(view.deck)


def mover(entry: tuple[object, ...]) -> int:
    """The seat that made a move entry of a game's log, or -1 when the entry is not a move."""
    event = typed(entry)
    if isinstance(event, Play | PassChosen | TrumpChosen):
        return event.seat
    return -1


def takeback_count(log: Sequence[tuple[object, ...]], seat: int) -> int:
    """How many moves an undo for ``seat`` takes back: its last move and every move after it
    (0 when it has not moved yet)."""
    moves = 0
    for entry in reversed(log):
        who = mover(entry)
        if who < 0:
            continue
        moves += 1
        if who == seat:
            return moves
    return 0
