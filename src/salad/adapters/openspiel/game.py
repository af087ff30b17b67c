"""Canadian Salad (any ruleset) as an OpenSpiel Python game, registered as ``python_salad``.

Importing this module registers the game, so OpenSpiel's own tools can load it by name:

>>> import pyspiel
>>> import salad.adapters.openspiel.game
>>> game = pyspiel.load_game("python_salad", {"rules": "canadian", "players": 4, "hands": 1})
>>> game.num_players(), game.num_distinct_actions()
(4, 108)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True

Parameters (all optional):

``rules``
    A preset name (``canadian``, ``fruit-salad``, ``extended``, ``skip-the-salad``) or a TOML
    rules file path.
``players``
    Seats at the table; 0 (the default) takes the ruleset's default.
``settings``
    Extra settings as a JSON object (:func:`salad.formats.rules.load_ruleset`). OpenSpiel's game
    strings split on commas, so a JSON value with commas only loads through a parameter dict.
``toppings``
    Skip the Salad toppings separated by ``+`` (or ``all``), added to the settings.
``first_hand``
    The 0-based hand the game starts at, with every total at 0 (default 0).
``hands``
    How many hands are played from there; 0 (the default) plays through the last hand.
``first_dealer``
    The first dealer's seat; -1 (the default) makes it a chance node, uniform over the seats
    (the rules' draw for the highest card is symmetric).
``normalize``
    Divide returns by the points the played hands hand out in all (default true).

Chance nodes deal the cards one at a time, clockwise from the dealer's left (as the rules deal
them); a chance outcome is the index of the card dealt (and, for the first-dealer chance node,
the seat). Player actions are :mod:`salad.engine` moves: a card index plays or passes that card,
``card + deck.size`` plays a Wild declared high and ``2 * deck.size + suit`` picks a trump, so
``num_distinct_actions = 2 * deck.size + len(deck.suits)``.

**Returns** (reward model: terminal) are ``-points / scale`` for each seat, where ``points`` is
what the seat scored over the played hands and ``scale`` the points those hands hand out in all
when no moon is shot (1120 for a whole 4-player Canadian Salad): lower totals win, so higher
returns are better. Under ``ruleset.highest_wins`` (Cornucopia) the sign flips to
``+points / scale``. With ``normalize=false`` the returns are the raw points, with the same sign.
They are 0 until the game is over. The utility is declared general-sum (moons break the
constant sum).

The **information state string** of a seat holds its own cards, the passes it made and
received, the trump and who picked it, every card played and by whom (tricks in order), the
points of every finished hand and the totals; never another seat's hand. The **observation
tensor** is the adapters' one encoding of a seat's view, as the PettingZoo environment's
observation (docs/envs.md, "Observation"; :class:`.observer.SaladObserver`).

The package's modules: :mod:`~salad.adapters.openspiel.config` (what a game's states share),
:mod:`~salad.adapters.openspiel.core` (a state's data and moves),
:mod:`~salad.adapters.openspiel.text` (its strings), :mod:`~salad.adapters.openspiel.observer`
and this one (the game, its states, the registration).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

# OpenSpiel is optional (a dev extra): this package is imported only when asked for (the
# ``openspiel-ismcts`` bot loads through its entry point), never by salad's other floors.
import pyspiel

from salad.adapters.openspiel.config import (
    DEFAULTS,
    GameConfig,
    card_labels,
    nums,
    point_range,
    trump_line,
)
from salad.adapters.openspiel.core import StateCore
from salad.adapters.openspiel.observer import SaladObserver
from salad.adapters.openspiel.text import state_text
from salad.cards import CardMask
from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.ruleset import Ruleset
from salad.sampler import shown_voids
from salad.view import Phase, View

__all__ = [
    "GAME_NAME",
    "SaladGame",
    "SaladObserver",
    "SaladState",
    "load_salad_game",
]

GAME_NAME = "python_salad"

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Canadian Salad (salad)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(DEFAULTS),
)


class SaladGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game; ``ruleset`` (Python callers only) overrides ``rules``/``settings``."""

    def __init__(
        self, params: Mapping[str, Any] | None = None, ruleset: Ruleset | None = None
    ) -> None:
        p = dict(DEFAULTS)
        p.update(params or {})
        if ruleset is None:
            settings: dict[str, Any] = json.loads(str(p["settings"]) or "{}")
            if not isinstance(settings, dict):
                raise ValueError("python_salad: settings must be a JSON object")
            toppings = [t for t in str(p["toppings"]).replace(",", "+").split("+") if t.strip()]
            if toppings:
                settings["toppings"] = list(settings.get("toppings", [])) + toppings
            ruleset = load_ruleset(str(p["rules"]), settings or None)
        else:
            p["rules"] = ruleset.preset
            p["settings"] = ruleset.settings_json
            p["toppings"] = ""
        n = int(p["players"]) or ruleset.default_players
        p["players"] = n
        rules = ruleset.compiled(n)
        deck = rules.deck
        total_hands = len(rules.hands)
        first = int(p["first_hand"])
        if not 0 <= first < total_hands:
            raise ValueError(f"python_salad: first_hand {first} (the game has {total_hands})")
        count = int(p["hands"]) or total_hands - first
        end = min(total_hands, first + count)
        dealer = int(p["first_dealer"])
        if not -1 <= dealer < n:
            raise ValueError(f"python_salad: first_dealer {dealer} at a {n}-seat table")
        lo, hi, fixed = point_range(rules, first, end)
        normalize = bool(p["normalize"])
        scale = float(max(1, abs(fixed))) if normalize else 1.0
        sign = 1 if ruleset.highest_wins else -1
        min_u, max_u = sorted((sign * lo / scale, sign * hi / scale))
        if max_u <= min_u:
            max_u = min_u + 1.0
        self.config = GameConfig(
            ruleset=ruleset,
            rules=rules,
            players=n,
            first_hand=first,
            end_hand=end,
            first_dealer=dealer,
            scale=scale,
            sign=sign,
            labels=card_labels(deck.codes),
        )
        cards = deck.in_play.bit_count()
        decisions = 0
        for index in range(first, end):
            decisions += cards + n * ruleset.passing
            if ruleset.trump_chooser and index > 0:
                decisions += 1
        self._chance_nodes = (end - first) * cards + (1 if dealer < 0 else 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=2 * deck.size + len(deck.suits),
            max_chance_outcomes=max(deck.size, n),
            num_players=n,
            min_utility=min_u,
            max_utility=max_u,
            utility_sum=None,
            max_game_length=decisions,
        )
        super().__init__(_GAME_TYPE, info, p)
        self._prototype: StateCore | None = None

    def new_initial_state(self) -> SaladState:
        """The state before the first deal (a chance node)."""
        if self._prototype is None:
            self._prototype = StateCore.initial(self.config)
        return SaladState(self, self._prototype.copy())

    def max_chance_nodes_in_history(self) -> int:
        return self._chance_nodes

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SaladObserver:
        if params:
            raise ValueError(f"python_salad: observation parameters not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return SaladObserver(self.config, iig_obs_type)

    def state_from_view(
        self, view: View, hands: Sequence[CardMask], rng: random.Random
    ) -> SaladState:
        """A state in the position ``view`` sees, ``hands`` filling in the hidden cards.

        The game must start at the view's hand (``first_hand``); its totals count from the
        view's totals, so returns measure the points scored from here on. Passes the view's
        seat cannot see are made up consistently (``rng``).
        """
        cfg = self.config
        if view.players != cfg.players or view.hand_index != cfg.first_hand:
            raise ValueError("state_from_view: the game does not start at this view's hand")
        if view.phase in (Phase.DEAL, Phase.OVER):
            raise ValueError(f"state_from_view: nothing to search in the {view.phase.name} phase")
        game = Game.from_view(view, hands)
        core = StateCore(cfg, game, base=tuple(view.totals))
        size = cfg.size
        moves = [(t.leader, t.moves) for t in view.tricks] + [(view.leader, view.trick)]
        for leader, trick in moves:
            for i, m in enumerate(trick):
                seat = (leader + i) % cfg.players
                core.plays.append((seat, m))
                core.played[seat] |= 1 << (m % size)
        core.winners = [t.winner for t in view.tricks]
        core.voids = shown_voids(view)
        core.trump_line = trump_line(cfg, game, -1)
        core.past = [
            (f"from hand {view.hand_index + 1}, earlier points {nums(view.totals)}",) * cfg.players
        ]
        core.fill_passes(view.seat, rng)
        return SaladState(self, core)


class SaladState(pyspiel.State):  # type: ignore[misc]
    """One position of a :class:`SaladGame`; the salad :class:`~salad.engine.Game` inside is
    ``state.salad`` (read it, do not move it)."""

    def __init__(self, game: SaladGame, core: StateCore | None = None) -> None:
        super().__init__(game)
        self._core = core if core is not None else StateCore.initial(game.config)

    @property
    def salad(self) -> Game | None:
        return self._core.game

    @property
    def core(self) -> StateCore:
        """This state's data (for fast rollouts: ``core.copy()`` and play on that)."""
        return self._core

    def current_player(self) -> int:
        return self._core.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        game = self._core.game
        if game is None or player != game.to_move:
            return []
        return game.legal_moves()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        cfg = self._core.cfg
        if player == pyspiel.PlayerId.CHANCE:
            if self._core.game is None:
                return f"dealer:{action}"
            return f"deal:{cfg.labels[action]}"
        return cfg.move_text(int(action))

    def is_terminal(self) -> bool:
        return self._core.is_terminal()

    def returns(self) -> list[float]:
        return self._core.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SaladState:
        """A copy with the cards ``player_id`` cannot see dealt again (voids, passes and hand
        sizes respected, via :func:`salad.sampler.sample_hands`).

        Only this state's own fields are resampled: ``history()`` keeps the original chance
        outcomes, and earlier hands' passes between other seats stay as they were.
        """
        seed = int(float(probability_sampler()) * 2**53)
        return self.resampled(player_id, random.Random(seed))

    def resampled(self, player: int, rng: random.Random) -> SaladState:
        """:meth:`resample_from_infostate` with a Python random generator."""
        new: SaladState = self.clone()
        new._core.resample(player, rng)
        return new

    def view(self, player: int) -> View:
        """The salad :class:`~salad.view.View` of ``player`` (for salad's own bots)."""
        return self._core.view(player)

    def __str__(self) -> str:
        return state_text(self._core)


def load_salad_game(
    rules: str | Ruleset = "canadian", players: int = 0, **params: Any
) -> SaladGame:
    """A :class:`SaladGame` straight from Python (a :class:`Ruleset` object works too)."""
    if isinstance(rules, Ruleset):
        return SaladGame({"players": players, **params}, ruleset=rules)
    return SaladGame({"rules": rules, "players": players, **params})


def _register() -> None:
    if all(t.short_name != GAME_NAME for t in pyspiel.registered_games()):
        pyspiel.register_game(_GAME_TYPE, SaladGame)


_register()
