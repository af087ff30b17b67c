"""The searching bots: ``expert`` and ``advanced`` (the same search on a smaller budget).

Card play is chosen by PIMC (:mod:`salad.bots.search`): hidden hands are sampled consistently
with the view, every distinct legal move is tried in each sampled world and the hand is played
out by the fast policy (or searched exactly near its end), and the move with the best average
own points wins. A trump choice is searched the same way (each world is played out from the
choice, passes included); a pass is searched like a play, card by card, in worlds where the
seats that chose before this one passed as the fast policy would.

Options (all bots accept them): ``move_time`` (seconds per move, the anytime budget);
``worlds`` (alias ``iterations``), a fixed number of sampled worlds per move that replaces the
clock, so that a seed gives the same moves on any machine; ``inference`` (default true): search
worlds drawn in proportion to how likely the other seats' plays so far are in them
(:mod:`salad.bots.inference`; ``weigh``: weigh the worlds instead; ``false``: take the sampled
worlds as they come).
"""

from __future__ import annotations

import random

from salad.bots.inference import inference_mode, search_inputs
from salad.bots.policy import hand_model
from salad.bots.search import Searcher, distinct_moves
from salad.errors import SaladError
from salad.moves import Move
from salad.view import View


class ExpertBot:
    name = "expert"
    default_move_time = 0.7
    default_max_worlds = 1000

    def __init__(self, seed: int | None = None, **options: object) -> None:
        self.rng = random.Random(seed)
        worlds = options.get("worlds", options.get("iterations"))
        move_time = options.get("move_time")
        if worlds is not None and not isinstance(worlds, int | float):
            raise SaladError(f"bots: {self.name}: worlds must be a number, not {worlds!r}")
        if move_time is not None and not isinstance(move_time, int | float):
            raise SaladError(f"bots: {self.name}: move_time must be seconds, not {move_time!r}")
        # A world count alone is a fixed budget (the same moves on any machine); with a
        # move_time as well, whichever runs out first ends the search.
        fixed = worlds is not None and move_time is None
        budget = self.default_move_time if move_time is None else float(move_time)
        max_worlds = self.default_max_worlds if worlds is None else max(1, int(worlds))
        worlds_of, weigh = search_inputs(inference_mode(self.name, options.get("inference")))
        self.searcher = Searcher(
            self.rng, budget, max_worlds, fixed_worlds=fixed, worlds=worlds_of, inference=weigh
        )

    def choose(self, view: View) -> Move:
        m = hand_model(view.ruleset, view.players, view.hand_index)
        moves = distinct_moves(view, m)
        if len(moves) == 1:
            return moves[0]
        return self.searcher.choose(view, m, moves)


class AdvancedBot(ExpertBot):
    name = "advanced"
    default_move_time = 0.25
    default_max_worlds = 200
