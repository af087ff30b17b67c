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
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

try:
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - the envs extra is not installed
    raise ImportError(
        f"salad.adapters.pettingzoo needs PettingZoo: pip install 'salad[envs]' ({exc})"
    ) from exc

from salad.cards import NO_SUIT, CardMask
from salad.engine import Game
from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.ruleset import Kind, Moon, Ruleset
from salad.settings import apply_settings
from salad.view import Phase, View

__all__ = ["ObservationLayout", "env", "observation_layout", "raw_env"]

PHASES = ("deal", "trump", "pass", "play", "over")


@dataclass(frozen=True)
class ObservationLayout:
    """Where each part of the observation vector lies (see docs/envs.md).

    ``segments`` are ``(name, length)`` in order; ``slices[name]`` is the part's slice.
    Seat-indexed parts are relative to the observing seat: row ``r`` is seat
    ``(seat + r) % players``, so row 0 is the observer itself.
    """

    cards: int
    players: int
    suits: int
    hands: int
    segments: tuple[tuple[str, int], ...]
    hand_scale: float
    """Points that divide per-hand values (running penalties, card points)."""
    game_scale: float
    """Points that divide the totals."""

    @property
    def size(self) -> int:
        return sum(length for _, length in self.segments)

    @property
    def slices(self) -> dict[str, slice]:
        out = {}
        start = 0
        for name, length in self.segments:
            out[name] = slice(start, start + length)
            start += length
        return out

    def part(self, observation: NDArray[Any], name: str) -> NDArray[Any]:
        """One part of an observation, shaped ``(players, cards)`` for the per-seat card
        planes and ``(length,)`` otherwise."""
        piece = observation[self.slices[name]]
        if name in ("played", "trick", "taken"):
            return piece.reshape(self.players, self.cards)
        return piece


def observation_layout(rs: Ruleset, players: int) -> ObservationLayout:
    """The observation layout for a ruleset and player count.

    >>> from salad import load_ruleset
    >>> layout = observation_layout(load_ruleset("canadian"), 4)
    >>> layout.segments[:3]
    (('hand', 52), ('played', 208), ('trick', 208))
    >>> layout.size
    886
    """
    compiled = rs.compiled(players)
    deck = compiled.deck
    s, n, k, h = deck.size, players, len(deck.suits), len(compiled.hands)
    segments = (
        ("hand", s),
        ("played", n * s),
        ("trick", n * s),
        ("taken", n * s),
        ("passed", s),
        ("received", s),
        ("card_points", s),
        ("led_suit", k + 1),
        ("trump", k + 1),
        ("phase", len(PHASES)),
        ("round", h),
        ("leader", n),
        ("dealer", n),
        ("to_move", n),
        ("token", n + 1),
        ("hand_sizes", n),
        ("tricks_won", n),
        ("running", n),
        ("totals", n),
    )
    bounds = []
    for hand in compiled.hands:
        bound = 0
        for p in hand.penalties:
            count = {
                Kind.TRICK: deck.cards_each,
                Kind.CARDS: p.mask.bit_count(),
            }.get(p.kind, 1)
            bound += abs(p.points) * count
        if rs.moon == Moon.OLD and hand.moon:
            bound = max(bound, abs(rs.moon_points))
        bounds.append(max(bound, 1))
    return ObservationLayout(s, n, k, h, segments, float(max(bounds)), float(sum(bounds)))


def _bits(mask: CardMask, size: int) -> NDArray[np.float32]:
    raw = np.frombuffer(mask.to_bytes((size + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:size].astype(np.float32)


def encode(view: View, layout: ObservationLayout) -> NDArray[np.float32]:
    """The observation vector of ``view`` (its seat's information only)."""
    out = np.zeros(layout.size, dtype=np.float32)
    at = layout.slices
    n, size = layout.players, layout.cards
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % n

    out[at["hand"]] = _bits(view.hand, size)
    played = out[at["played"]].reshape(n, size)
    taken = out[at["taken"]].reshape(n, size)
    for t in view.tricks:
        for i, m in enumerate(t.moves):
            played[rel(t.leader + i), m % size] = 1
            taken[rel(t.winner), m % size] = 1
    trick = out[at["trick"]].reshape(n, size)
    for i, m in enumerate(view.trick):
        trick[rel(view.leader + i), m % size] = 1
        played[rel(view.leader + i), m % size] = 1
    out[at["passed"]] = _bits(view.passed, size)
    out[at["received"]] = _bits(view.received, size)
    card_points = out[at["card_points"]]
    if view.phase != Phase.OVER:
        hand = view.ruleset.compiled(n).hands[view.hand_index]
        for p in hand.penalties:
            if p.kind == Kind.CARDS:
                card_points += _bits(p.mask, size) * (p.points / layout.hand_scale)
    k = layout.suits
    out[at["led_suit"].start + (view.led_suit if view.led_suit != NO_SUIT else k)] = 1
    out[at["trump"].start + (view.trump if view.trump != NO_SUIT else k)] = 1
    out[at["phase"].start + int(view.phase)] = 1
    if view.phase != Phase.OVER:
        out[at["round"].start + view.hand_index] = 1
    out[at["leader"].start + rel(view.leader)] = 1
    out[at["dealer"].start + rel(view.dealer)] = 1
    if view.to_move >= 0:
        out[at["to_move"].start + rel(view.to_move)] = 1
    out[at["token"].start + (rel(view.token) if view.token >= 0 else n)] = 1
    each = view.deck.cards_each
    for seat in range(n):
        r = rel(seat)
        out[at["hand_sizes"].start + r] = view.hand_sizes[seat] / each
        out[at["tricks_won"].start + r] = view.tricks_won[seat] / each
        out[at["running"].start + r] = view.running[seat] / layout.hand_scale
        out[at["totals"].start + r] = view.totals[seat] / layout.game_scale
    np.clip(out, -1.0, 1.0, out=out)
    return out


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
        if isinstance(rules, Ruleset):
            rs = apply_settings(rules, settings) if settings else rules
        else:
            rs = load_ruleset(rules, settings)
        n = rs.default_players if players is None else players
        rs.check_players(n)
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
            legal = " ".join(game.format_move(m) for m in game.legal_moves())
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
            from gymnasium import logger

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
                f"{self.possible_agents[game.trick_seat(i)]} {game.format_move(m, True)}"
                for i, m in enumerate(game.trick)
            )
            lines.append(f"  trick: {shown}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
