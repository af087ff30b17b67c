"""The clairvoyant reference bot: ``oracle`` searches the true deal, every hand in sight.

It measures how much of the gap to perfect information a bot that sees only its view leaves
(the lab's benchmarks: basic → expert → oracle). A bot gets only its seat's view, which never
holds another seat's hand, so the oracle is handed the game itself by the lab's game runner
(:func:`salad.lab.games.play_game` calls :meth:`OracleBot.see_deal` of every bot that declares
``needs_deal``); nothing else does, and without it the oracle refuses to move. It is
``reference_only`` in the catalog (:data:`salad.bots.catalog.REFERENCE_ONLY`): the server and
the terminal app refuse it at any table with a human and never offer it.

Its search is the expert's (:mod:`salad.bots.search`) on one world, the true one: every
distinct move is played out by the fast policy, or searched exactly when few tricks are left.
"""

from __future__ import annotations

import random

from salad.bots.policy import HandModel, hand_model
from salad.bots.search import Searcher, distinct_moves
from salad.engine import Game
from salad.errors import SaladError
from salad.moves import Move
from salad.view import Phase, View


class OracleBot:
    name = "oracle"
    needs_deal = True
    """The lab hands it the game (:meth:`see_deal`): it reads the hidden hands."""
    reference_only = True
    """Never at a table with a human, never offered by a front end."""

    def __init__(self, seed: int | None = None, **options: object) -> None:
        self.rng = random.Random(seed)
        self.game: Game | None = None
        # One world (the true one): a clock adds nothing; more exact endgame than the expert.
        self.searcher = Searcher(
            self.rng,
            1.0,
            1,
            endgame_nodes=4000,
            endgame_tricks=3,
            fixed_worlds=True,
            worlds=self._true_world,
        )

    def see_deal(self, game: Game) -> None:
        """The game being played (the lab's runner calls this before the first move)."""
        self.game = game

    def _true_world(self, view: View, m: HandModel, rng: random.Random) -> Game:
        game = self.game
        assert game is not None
        # Mid-pass the choices made so far; after the exchange they are in the hands already.
        passed = game.passed if game.phase is Phase.PASS else None
        return Game.from_view(view, game.hands, passed)

    def choose(self, view: View) -> Move:
        game = self.game
        if game is None:
            raise SaladError(
                "bots: oracle sees every hand, so it plays only in the lab's matches "
                "(which give it the deal), never at a table"
            )
        if game.to_move != view.seat or game.hands[view.seat] != view.hand:
            raise SaladError("bots: oracle was given a view of another game than its deal")
        m = hand_model(view.ruleset, view.players, view.hand_index)
        moves = distinct_moves(view, m)
        if len(moves) == 1:
            return moves[0]
        return self.searcher.choose(view, m, moves)
