"""The AEC environment: one game of any ruleset, one agent per seat (see docs/envs.md).

>>> from salad.adapters.pettingzoo import env
>>> e = env(rules="canadian", players=4)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape == e.observation_space(e.agent_selection)["observation"].shape
True
>>> e.step(int(obs["action_mask"].argmax()))  # the first legal move
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

# PettingZoo and Gymnasium are the optional `envs` extra: this module is imported only on demand.
try:
    from gymnasium import logger, spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - the envs extra is not installed
    raise ImportError(
        f"salad.adapters.pettingzoo needs PettingZoo: pip install 'canadian-salad[envs]' ({exc})"
    ) from exc

from salad.adapters.features import ObservationLayout, encode, env_ruleset, observation_layout
from salad.cards import NO_SUIT
from salad.engine import Game
from salad.errors import SaladError
from salad.moves import format_move, format_moves
from salad.ruleset import Ruleset
from salad.view import View

__all__ = [
    "ObservationLayout",  # the encoding is salad.adapters.features's, shared with OpenSpiel
    "encode",
    "env",
    "observation_layout",
    "raw_env",
]


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's usual wrappers (as its classic games have them).

    Keywords are those of :class:`raw_env`, and ``illegal_reward``: when given, an illegal
    action ends the game with that reward for its agent (``TerminateIllegalWrapper``);
    otherwise an illegal action raises an error.
    """
    illegal_reward = kwargs.pop("illegal_reward", None)
    wrapped: Any = raw_env(**kwargs)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # type: ignore[misc, unused-ignore]  # noqa: N801 (PettingZoo's name)
    """A whole game of salad as a PettingZoo AEC environment.

    ``rules``: a preset name, a rules file or a :class:`~salad.ruleset.Ruleset`; ``settings``:
    house rules on top (e.g. ``{"toppings": "all"}``); ``players``: the seat count (the
    ruleset's default when omitted); ``render_mode``: ``"ansi"`` (``render()`` returns the
    table as text) or ``"human"`` (prints it).
    """

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "salad_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        rules: str | Ruleset = "canadian",
        players: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        EzPickle.__init__(self, render_mode, rules, players, settings)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SaladError(f"render_mode: {render_mode!r} is not one of ansi, human")
        self.render_mode = render_mode
        rs, n = env_ruleset(rules, players, settings)
        self.ruleset = rs
        self.players = n
        self.deck = rs.deck_for(n)
        self.layout = observation_layout(rs, n)
        self.sign = 1.0 if rs.highest_wins else -1.0
        size = self.deck.size
        self.num_actions = 2 * size + len(self.deck.suits)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=-1.0, high=1.0, shape=(self.layout.size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(self.num_actions,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self._seeds = random.Random()
        self.game: Game | None = None
        self._views: dict[int, View] = {}

    # -- spaces --------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes its deals and first dealer (and those of the games the
        following unseeded resets start)."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.game = Game(self.ruleset, self.players, seed=self._seeds.getrandbits(63))
        self._views = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def _view(self, seat: int) -> View:
        view = self._views.get(seat)
        if view is None:
            assert self.game is not None
            view = self._views[seat] = self.game.view(seat)
        return view

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        seat = self.possible_agents.index(agent)
        view = self._view(seat)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        for m in view.legal_moves:
            mask[m] = 1
        return {"observation": encode(view, self.layout), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        move = int(action)
        seat = self.possible_agents.index(agent)
        if seat != game.to_move or move not in game.legal_moves():
            legal = format_moves(self.deck, game.legal_moves())
            raise SaladError(
                f"step: action {move} is not legal for {agent} now (legal: {legal}); "
                "use the action_mask"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        hands_done = len(game.hand_points)
        game.play(move)
        self._views = {}
        if len(game.hand_points) != hands_done:
            points = game.hand_points[-1]
            for i, a in enumerate(self.agents):
                self.rewards[a] = self.sign * points[i]
        if game.is_over():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- showing it ----------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            logger.warn("render() called without a render_mode (use 'ansi' or 'human')")
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        game = self.game
        if game is None:
            return "(no game: call reset())"
        deck = self.deck
        rs = self.ruleset
        lines = []
        hands = len(game.rules.hands)
        if game.is_over():
            lines.append(f"{rs.title}: game over after {hands} hands")
        else:
            lines.append(
                f"{rs.title}: hand {game.hand_index + 1}/{hands} {game.round_name}, "
                f"{game.phase.name.lower()}"
                + (f", trump {deck.suits[game.trump].name}" if game.trump != NO_SUIT else "")
            )
        running = game.running_points() if not game.is_over() else [0] * self.players
        for s, agent in enumerate(self.possible_agents):
            marks = ("*" if s == game.to_move else " ") + ("D" if s == game.dealer else " ")
            cards = deck.format_mask(game.hands[s], symbols=True) or "-"
            lines.append(
                f"{marks} {agent:<9} total {game.totals[s]:>4}  hand {running[s]:>3}  "
                f"tricks {game.tricks_won[s]:>2}  {cards}"
            )
        if game.trick:
            shown = ", ".join(
                f"{self.possible_agents[game.trick_seat(i)]} {format_move(deck, m, symbols=True)}"
                for i, m in enumerate(game.trick)
            )
            lines.append(f"  trick: {shown}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
