"""``openspiel-ismcts``: OpenSpiel's own IS-MCTS bot, playing our games through the adapter.

An outside opponent: given a seat's :class:`~salad.view.View`, the bot builds a
:mod:`salad.adapters.openspiel.game` state for the current hand (the hidden hands guessed by
:func:`salad.sampler.sample_hands`; IS-MCTS deals them again for every simulation, respecting
voids and passes) and runs :class:`open_spiel.python.algorithms.ismcts.ISMCTSBot` with random
rollouts (:class:`~open_spiel.python.algorithms.mcts.RandomRolloutEvaluator`). The search ends
with the hand: the return it maximises is minus the hand's points over what the hand hands out
(plus, under Cornucopia).

>>> from salad import Game, load_ruleset
>>> from salad.bots import make_bot
>>> bot = make_bot("openspiel-ismcts", seed=3, simulations=20)
>>> game = Game(load_ruleset(), 4, seed=1)
>>> bot.choose(game.view(game.to_move)) in game.legal_moves()
True

Options: ``simulations`` (per move; default 200 when no ``move_time`` is given), ``move_time``
(seconds per move; with both, whichever runs out first), ``uct_c`` (exploration, default 2.0),
``rollouts`` (random rollouts per evaluation, default 1), ``world_samples`` (-1: a new deal for
every simulation), ``rollout`` (``openspiel``: OpenSpiel's ``RandomRolloutEvaluator``, the
default; ``engine``: the same uniformly random rollouts played on the salad engine directly,
several times faster). Seeded and run by simulation count, the bot is deterministic.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

# OpenSpiel is optional: this module loads only through the ``salad.bots`` entry point, when the
# ``openspiel-ismcts`` bot is asked for (a missing OpenSpiel is then named in one line).
from open_spiel.python.algorithms import ismcts, mcts

from salad.adapters.openspiel.game import SaladGame, SaladState
from salad.errors import SaladError
from salad.moves import Move
from salad.ruleset import Ruleset
from salad.sampler import sample_hands
from salad.view import Phase, View

DEFAULT_SIMULATIONS = 200


class _Search(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a clock: stops at ``max_simulations`` or the deadline."""

    def __init__(self, *args: Any, deadline: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadline = deadline
        """A ``time.perf_counter()`` reading to stop at, or None."""
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        deadline = self.deadline
        if deadline is None:
            self.simulations = self._max_simulations
            return super().run_search(state)
        # As ISMCTSBot.run_search, with the time limit (and at least two simulations, so the
        # root has a visited child).
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        clock = time.perf_counter
        done = 0
        while done < self._max_simulations and (done < 2 or clock() < deadline):
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations = done
        return self.get_final_policy(state, self._root_node)


class _EngineRollouts(mcts.Evaluator):  # type: ignore[misc]
    """Random rollouts like :class:`~open_spiel.python.algorithms.mcts.RandomRolloutEvaluator`,
    played on the salad engine directly (no OpenSpiel round trips): several times faster."""

    def __init__(self, n_rollouts: int, rng: random.Random) -> None:
        self.n_rollouts = n_rollouts
        self.rng = rng

    def evaluate(self, state: SaladState) -> Any:
        rng = self.rng
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            core = state.core.copy()
            while not core.is_terminal():
                game = core.game
                if game is None or game.phase is Phase.DEAL:
                    actions = [a for a, _ in core.chance_outcomes()]
                    core.apply(rng.choice(actions))
                else:
                    game.play(rng.choice(game.legal_moves()))
            total += core.returns()
        return total / self.n_rollouts

    def prior(self, state: SaladState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielISMCTSBot:
    """IS-MCTS from OpenSpiel on the ``python_salad`` adapter (see the module docstring)."""

    name = "openspiel-ismcts"

    def __init__(
        self,
        seed: int | None = None,
        move_time: float | None = None,
        simulations: int | None = None,
        uct_c: float = 2.0,
        rollouts: int = 1,
        world_samples: int = ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
        rollout: str = "openspiel",
        **options: object,
    ) -> None:
        if move_time is not None and not move_time > 0:
            raise SaladError(f"openspiel-ismcts: move_time must be positive, not {move_time}")
        if simulations is not None and simulations < 2:
            raise SaladError(f"openspiel-ismcts: simulations must be 2 or more, not {simulations}")
        if simulations is None and move_time is None:
            simulations = DEFAULT_SIMULATIONS
        if rollout not in ("openspiel", "engine"):
            raise SaladError(
                f"openspiel-ismcts: rollout must be openspiel or engine, not {rollout!r}"
            )
        self.rollout = rollout
        self.move_time = move_time
        self.simulations = simulations
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self.world_samples = int(world_samples)
        self.rng = random.Random(seed)
        self.last_simulations = 0
        """Simulations run for the last move searched."""
        self._games: dict[tuple[Ruleset, int, int], SaladGame] = {}

    def _game_for(self, view: View) -> SaladGame:
        key = (view.ruleset, view.players, view.hand_index)
        game = self._games.get(key)
        if game is None:
            if len(self._games) > 32:
                self._games.clear()
            game = SaladGame(
                {
                    "players": view.players,
                    "first_hand": view.hand_index,
                    "hands": 1,
                    "first_dealer": view.dealer,
                },
                ruleset=view.ruleset,
            )
            self._games[key] = game
        return game

    def root_state(self, view: View) -> SaladState:
        """The adapter state the search starts from (hidden hands sampled)."""
        rng = self.rng
        hands = sample_hands(view, rng)
        return self._game_for(view).state_from_view(view, hands, rng)

    def choose(self, view: View) -> Move:
        start = time.perf_counter()
        legal = view.legal_moves
        if view.seat != view.to_move or not legal:
            raise SaladError(f"openspiel-ismcts: seat {view.seat} is not to move")
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        game = self._game_for(view)
        rng = self.rng
        state = self.root_state(view)
        evaluator: mcts.Evaluator
        if self.rollout == "engine":
            evaluator = _EngineRollouts(self.rollouts, random.Random(rng.getrandbits(64)))
        else:
            evaluator = mcts.RandomRolloutEvaluator(
                n_rollouts=self.rollouts,
                random_state=np.random.RandomState(rng.getrandbits(32)),
            )
        search = _Search(
            game,
            evaluator,
            self.uct_c,
            self.simulations if self.simulations is not None else 2**62,
            max_world_samples=self.world_samples,
            random_state=np.random.RandomState(rng.getrandbits(32)),
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            deadline=None if self.move_time is None else start + self.move_time,
        )
        search.set_resampler(lambda s, player: s.resampled(player, rng))
        action = int(search.step(state))
        self.last_simulations = search.simulations
        if action not in legal:
            raise SaladError(f"openspiel-ismcts: the search chose {action}, not a legal move")
        return action
