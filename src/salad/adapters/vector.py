"""A vector environment over the batched engine: N games of one ruleset as one Gymnasium
:class:`~gymnasium.vector.VectorEnv`, one policy acting for the seat to move in every game.

Why Gymnasium's vector API and not PettingZoo's parallel API: a parallel environment is one
game whose agents all act at every step, and salad is a turn-taking game, one seat at a time;
a batch is N games in lockstep, which is exactly what a vector environment is (N
sub-environments stepped together, batched arrays in and out). In every game of a batch the
same position in the trick is to move but not the same seat (leaders differ), so each
sub-environment is seen from its seat to move: the observation is that seat's view, the
action is that seat's move, and ``infos["seat"]`` says which seat it is (a shared policy,
self-play). Everything stays an (N, ...) array: no per-agent dictionaries, no N Python objects.

* ``observations``: (N, ``layout.size``) ``float32``, the encoding of
  :mod:`salad.adapters.features` (docs/envs.md, "Observation") of the seat to move's view,
  computed from the batch's arrays at once (:meth:`SaladVectorEnv.observe`); it equals
  ``features.encode(game.view(seat), layout)`` of the reference engine bit for bit
  (tests/test_vector_env.py plays both side by side).
* Actions: ``MultiDiscrete`` of ``2 * deck size + suits`` per game, the engine's move numbers,
  the same action space as the PettingZoo environment (a policy trained here plays there).
  ``infos["action_mask"]`` (N, actions) ``bool`` marks the legal ones; an illegal action
  raises :class:`~salad.errors.SaladError` naming the first game that has one.
* Rewards (PettingZoo AEC's convention, per seat): a seat's reward is the change of its score
  (minus its points, plus under a ruleset where the highest total wins, divided by
  ``reward_scale``: the layout's ``hand_scale`` by default) since it last acted.
  ``rewards[i]`` is that of the seat whose observation is returned (``infos["seat"][i]``): the
  reward of that seat's previous move, paid when it is next to act. ``infos["seat_rewards"]``
  (N, players) holds every seat's reward so far since its own last move; at the last step it
  is what each seat still has to collect, so a seat's return over a game is minus its total,
  scaled.
* Episodes: every game of a batch ends at the same step (``terminations`` all True at once;
  nothing truncates). The observation of the last step is the view of the seat that made the
  last move. Autoreset as ``metadata["autoreset_mode"]`` says (Gymnasium's modes, next step by
  default): the whole batch starts anew.
* ``reset(seed=s)`` makes the run reproducible: it seeds :attr:`np_random`, from which every
  batch (this one and the following autoresets) draws its seed.

Refused: a list of seeds (one generator deals the whole batch), ``options`` on reset (partial
resets: the batch plays together), a ruleset the batch engine does not cover (none today).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

# Gymnasium is in the optional `envs` extra: this module is imported only on demand.
try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - the envs extra is not installed
    raise ImportError(
        f"salad.adapters.vector needs Gymnasium: pip install 'canadian-salad[envs]' ({exc})"
    ) from exc

from salad.adapters.batch import BatchGames
from salad.adapters.features import PHASES, ObservationLayout, env_ruleset, observation_layout
from salad.cards import cards_of
from salad.errors import SaladError
from salad.ruleset import Kind, Ruleset
from salad.view import Phase

__all__ = ["SaladVectorEnv"]

Floats = NDArray[np.float32]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]


class SaladVectorEnv(VectorEnv[Floats, Ints, NDArray[Any]]):
    """``num_envs`` games of salad as one Gymnasium vector environment (see the module).

    ``rules``: a preset name, a rules file or a :class:`~salad.ruleset.Ruleset`;
    ``settings``: house rules on top; ``players``: the seat count (the ruleset's default when
    omitted); ``autoreset_mode``: Gymnasium's :class:`~gymnasium.vector.AutoresetMode` (or its
    value); ``reward_scale``: points per unit of reward (the layout's ``hand_scale`` when
    omitted).

    >>> import numpy as np
    >>> envs = SaladVectorEnv(3, rules="canadian", players=4)
    >>> obs, infos = envs.reset(seed=1)
    >>> obs.shape, obs.dtype, infos["action_mask"].shape, infos["seat"].shape
    ((3, 886), dtype('float32'), (3, 108), (3,))
    >>> rng = np.random.default_rng(2)
    >>> returns = np.zeros((3, 4))
    >>> done = False
    >>> while not done:
    ...     legal = infos["action_mask"]
    ...     actions = (rng.random(legal.shape) * legal).argmax(axis=1)  # a random legal move
    ...     obs, rewards, terminated, truncated, infos = envs.step(actions)
    ...     done = bool(terminated.all())
    ...     if not done:
    ...         returns[np.arange(3), infos["seat"]] += rewards
    >>> returns += infos["seat_rewards"]  # what every seat still had to collect
    >>> bool(np.allclose(returns, -envs.games.points() / envs.reward_scale))
    True
    >>> _, rewards, terminated, _, infos = envs.step(actions)  # next-step autoreset
    >>> rewards.tolist(), terminated.tolist(), envs.games.trick_no
    ([0.0, 0.0, 0.0], [False, False, False], 0)
    """

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int,
        rules: str | Ruleset = "canadian",
        players: int | None = None,
        settings: Mapping[str, Any] | None = None,
        *,
        autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
        reward_scale: float | None = None,
    ) -> None:
        rs, n = env_ruleset(rules, players, settings)
        if num_envs < 1:
            raise SaladError(f"SaladVectorEnv: num_envs must be at least 1, not {num_envs}")
        self.ruleset = rs
        self.players = n
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.deck = rs.deck_for(n)
        self.layout: ObservationLayout = observation_layout(rs, n)
        self.reward_scale = float(reward_scale or self.layout.hand_scale)
        self.sign = 1 if rs.highest_wins else -1
        size = self.deck.size
        self.num_actions = 2 * size + len(self.deck.suits)
        self.single_observation_space = spaces.Box(
            low=-1.0, high=1.0, shape=(self.layout.size,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(self.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._encoder = _Encoder(rs, n, self.layout)
        self.games = BatchGames(rs, n, num_envs, seed=0)  # replaced by reset()
        self._started = False
        self._ended = False
        self._played: Bools = np.zeros((num_envs, n, size), dtype=bool)
        self._taken: Bools = np.zeros((num_envs, n, size), dtype=bool)
        self._at_move: Ints = np.zeros((num_envs, n), dtype=np.int64)
        self._seat: Ints = np.zeros(num_envs, dtype=np.int64)
        self._last_leader: Ints = np.zeros(num_envs, dtype=np.int64)

    # -- the episode -------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Floats, dict[str, Any]]:
        """A new batch of games (all of them: a batch starts and ends together)."""
        if seed is not None and not isinstance(seed, int | np.integer):
            raise SaladError("reset: one int seed for the whole batch (its games share a deal)")
        if options:
            raise SaladError(f"reset: no options are supported ({sorted(options)})")
        super().reset(seed=None if seed is None else int(seed))
        self._new_batch()
        return self.observe(self._seat), self._infos()

    def _new_batch(self) -> None:
        seed = int(self.np_random.integers(2**63))
        self.games = BatchGames(self.ruleset, self.players, self.num_envs, seed=seed)
        self._played.fill(False)
        self._taken.fill(False)
        self._at_move.fill(0)
        self._seat = self.games.to_move.copy()
        self._started = True
        self._ended = False

    def step(
        self, actions: Any
    ) -> tuple[Floats, NDArray[np.float64], Bools, Bools, dict[str, Any]]:
        """One move in every game: ``actions[i]`` for the seat to move in game ``i``."""
        if not self._started:
            raise SaladError("step: call reset() first")
        n = self.num_envs
        no = np.zeros(n, dtype=bool)
        if self._ended:
            if self.autoreset_mode is AutoresetMode.DISABLED:
                raise SaladError("step: the games are over (autoreset is disabled: reset())")
            self._new_batch()  # next-step autoreset: the actions are ignored
            return self.observe(self._seat), np.zeros(n), no, no.copy(), self._infos()
        games = self.games
        moves = np.asarray(actions)
        if moves.shape != (n,) or moves.dtype.kind not in "iu":
            raise SaladError(f"step: {moves.shape} {moves.dtype} actions, not ({n},) integers")
        moves = moves.astype(np.int64, copy=False)
        ar = np.arange(n)
        mover = games.to_move.copy()
        score = self._score()
        self._at_move[ar, mover] = score[ar, mover]
        playing = games.phase is Phase.PLAY
        trick = games.trick.copy() if playing and games.position == self.players - 1 else None
        leader = games.leader.copy()
        hand = games.hand_index
        games.step(moves)
        if playing:
            size = self.deck.size
            self._played[ar, mover, moves % size] = True
            if trick is not None:
                trick[:, -1] = moves
                if games.hand_index == hand or games.is_over():
                    self._taken[ar[:, None], games.leader[:, None], trick % size] = True
        if games.hand_index != hand and not games.is_over():  # a new hand is dealt
            self._played.fill(False)
            self._taken.fill(False)
        over = games.is_over()
        if over:  # the reference keeps the last trick's leader: the game ends before a lead
            self._last_leader = leader
        self._seat = mover if over else games.to_move.copy()
        pending = self._score() - self._at_move
        infos = self._infos(pending)
        rewards = pending[ar, self._seat] / self.reward_scale
        obs = self.observe(self._seat)
        done = np.full(n, over)
        self._ended = over
        if over and self.autoreset_mode is AutoresetMode.SAME_STEP:
            final_obs = np.empty(n, dtype=object)
            final_obs[:] = list(obs)
            self._new_batch()
            obs = self.observe(self._seat)
            final_info = infos
            infos = self._infos()
            infos.update(final_obs=final_obs, final_info=final_info)
            infos.update(_final_obs=np.ones(n, dtype=bool), _final_info=np.ones(n, dtype=bool))
        return obs, rewards, done, no, infos

    def _score(self) -> Ints:
        """(N, P): each seat's score so far, in signed points (its totals and this hand's)."""
        games = self.games
        points = games.points()
        if not games.is_over():
            points += games.running_points()
        out: Ints = self.sign * points
        return out

    def _infos(self, pending: Ints | None = None) -> dict[str, Any]:
        n = self.num_envs
        if pending is None:
            pending = np.zeros((n, self.players), dtype=np.int64)
        mask = np.zeros((n, self.num_actions), dtype=bool)
        if not self.games.is_over():
            legal = self.games.legal_mask()
            mask[:, : legal.shape[1]] = legal
        everyone = np.ones(n, dtype=bool)  # Gymnasium's "_key": the games that have "key"
        return {
            "action_mask": mask,
            "_action_mask": everyone,
            "seat": self._seat.copy(),
            "_seat": everyone.copy(),
            "seat_rewards": pending / self.reward_scale,
            "_seat_rewards": everyone.copy(),
        }

    # -- observations ------------------------------------------------------------------------
    def observe(self, seats: Any) -> Floats:
        """(N, ``layout.size``): the observation of seat ``seats[i]`` in each game ``i`` (an
        int for the same seat everywhere), as :func:`salad.adapters.features.encode` gives it
        for that seat's :class:`~salad.view.View`."""
        me = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.num_envs,))
        if ((me < 0) | (me >= self.players)).any():
            raise SaladError(f"observe: a seat is not one of {self.players}")
        games = self.games
        leader = self._last_leader if games.is_over() else games.leader
        return self._encoder.encode(games, me, leader, self._played, self._taken)


class _Encoder:
    """The encoding of :mod:`salad.adapters.features`, for a whole batch at once."""

    def __init__(self, rs: Ruleset, players: int, layout: ObservationLayout) -> None:
        compiled = rs.compiled(players)
        deck = compiled.deck
        self.layout = layout
        self.players = players
        self.size = deck.size
        self.suits = len(deck.suits)
        self.each = deck.cards_each
        self.passing = bool(rs.passing)
        self.offset = rs.pass_offset or players // 2
        self.at = {name: (s.start, s.stop) for name, s in layout.slices.items()}
        # features.encode adds each card penalty's float32 bits times its scaled points, in
        # order: the same float32 sums, once per hand.
        table = np.zeros((len(compiled.hands), self.size), dtype=np.float32)
        for i, hand in enumerate(compiled.hands):
            for p in hand.penalties:
                if p.kind == Kind.CARDS:
                    bits = np.zeros(self.size, dtype=np.float32)
                    bits[cards_of(p.mask)] = 1
                    table[i] += bits * (p.points / layout.hand_scale)
        self.card_points = np.clip(table, -1.0, 1.0)  # encode clips the whole vector
        assert len(PHASES) == len(Phase)

    def encode(
        self, games: BatchGames, me: Ints, leader: Ints, played: Bools, taken: Bools
    ) -> Floats:
        """The observations of seat ``me[i]`` in each game ``i`` (``leader``: each trick's
        leader, ``played`` and ``taken``: (N, P, deck size) each seat's cards this hand)."""
        n, p, s = games.n, self.players, self.size
        at = self.at
        out = np.zeros((n, self.layout.size), dtype=np.float32)
        ar = np.arange(n)
        col = ar[:, None]
        rel_seats = (me[:, None] + np.arange(p)) % p  # row r: seat me + r
        phase = games.phase
        over = phase is Phase.OVER

        def rel(seat: Ints) -> Ints:
            out_: Ints = (seat - me) % p
            return out_

        def one_hot(name: str, index: Ints) -> None:
            out[ar, at[name][0] + index] = 1.0

        def per_seat(name: str, values: NDArray[Any], scale: float, clip: bool = False) -> None:
            scaled = values[col, rel_seats] / scale
            if clip:  # the other parts are within [-1, 1] already
                np.clip(scaled, -1.0, 1.0, out=scaled)
            out[:, at[name][0] : at[name][1]] = scaled

        def plane(name: str, cards: Bools) -> None:
            out[:, at[name][0] : at[name][1]] = cards.reshape(n, -1)

        hands = games.hands
        plane("hand", games.unpack(hands[ar, me]))
        plane("played", played[col, rel_seats])
        plane("taken", taken[col, rel_seats])
        trick_at = at["trick"][0]
        for i in range(games.position if phase is Phase.PLAY else 0):
            row = rel(leader + i)
            out[ar, trick_at + row * s + games.trick[:, i] % s] = 1.0
        plane("passed", games.unpack(games.passed[ar, me]))
        if self.passing and phase in (Phase.PLAY, Phase.OVER):  # the passes are exchanged
            plane("received", games.unpack(games.passed[ar, (me - self.offset) % p]))
        if not over:
            out[:, at["card_points"][0] : at["card_points"][1]] = self.card_points[games.hand_index]
        k = self.suits
        one_hot("led_suit", np.where(games.led >= 0, games.led, k))
        one_hot("trump", np.where(games.trump >= 0, games.trump, k))
        out[:, at["phase"][0] + int(phase)] = 1.0
        if not over:
            out[:, at["round"][0] + games.hand_index] = 1.0
        one_hot("leader", rel(leader))
        one_hot("dealer", rel(games.dealer))
        if not over:
            one_hot("to_move", rel(games.to_move))
        one_hot("token", np.where(games.token >= 0, rel(games.token), p))
        sizes = np.bitwise_count(hands).sum(axis=2, dtype=np.int64)
        per_seat("hand_sizes", sizes, self.each)
        per_seat("tricks_won", games.tricks_won, self.each)
        per_seat("running", games.running_points(), self.layout.hand_scale, clip=True)
        per_seat("totals", games.totals, self.layout.game_scale, clip=True)
        return out
