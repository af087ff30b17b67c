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
from salad.events import PassChosen, Play, TrumpChosen, typed
from salad.moves import Move, move_label
from salad.view import Phase, View

__all__ = ["HINT_BOT", "Hint", "hint", "hint_reason", "mover", "takeback_count"]

HINT_BOT = "expert"
"""The bot whose move a hint suggests."""


@dataclass(frozen=True)
class Hint:
    """A suggested move for a seat, and why in a few words."""

    move: Move
    reason: str
    bot: str = HINT_BOT


def hint(view: View, seed: int, move_time: float | None = None) -> Hint:
    """The expert's move for ``view.seat`` (which is to move) and its reason. Slow (the search
    thinks for ``move_time`` seconds): run it off any UI thread or event loop."""
    bot = ExpertBot(seed, **({} if move_time is None else {"move_time": move_time}))
    bot.searcher.last_estimates = {}
    move = bot.choose(view)
    return Hint(move, hint_reason(view, move, bot.searcher.last_estimates))


def hint_reason(view: View, move: Move, estimates: Mapping[Move, float]) -> str:
    """Why ``move``, in a few words: what the search expects it to save over the next best
    move (``estimates``: each move's average points, lower is better), or the rule it
    follows when there was nothing to search.

    >>> from salad.engine import Game
    >>> from salad.formats.rules import load_ruleset
    >>> game = Game(load_ruleset("canadian"), 4, seed=1)
    >>> view = game.view(game.to_move)
    >>> a, b = view.legal_moves[:2]
    >>> hint_reason(view, a, {a: 2.0, b: 10.4}).startswith("saves about 8 points over ")
    True
    """
    deck = view.deck
    if len(view.legal_moves) == 1:
        return "it is your only choice"
    if view.phase == Phase.PASS:
        return "pass your most dangerous cards"
    others = {m: v for m, v in estimates.items() if m != move}
    if move not in estimates or not others:
        return "any of your choices does the same"
    runner_up = min(others, key=lambda m: others[m])
    gain = round(others[runner_up] - estimates[move])
    label = move_label(deck, runner_up)
    if gain <= 0:
        return f"about as good as {label}"
    points = f"{gain} point{'s' if gain != 1 else ''}"
    if view.ruleset.highest_wins:
        return f"scores about {points} more than {label}"
    return f"saves about {points} over {label}"


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
