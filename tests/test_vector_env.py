"""The vector environment (:mod:`salad.adapters.vector`): Gymnasium's vector API, and the same
observations and legal moves as the reference engine, step for step.

The differential test plays K games in the vector environment and K reference
:class:`~salad.engine.Game` objects dealt the same cards (the batch's deals, fed to the
reference at each hand's start, as :func:`salad.adapters.batch.compare_with_engine` does),
makes the same random legal moves in both, and checks at every step that each game's
observation equals ``features.encode(game.view(seat), layout)`` exactly (for the seat to move,
and for every seat at some steps), that the action mask is the reference's legal moves, and at
the end that every seat's rewards add up to minus its total, scaled.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode, VectorEnv  # noqa: E402
from gymnasium.wrappers.vector import RecordEpisodeStatistics  # noqa: E402

from salad import Game, SaladError, load_ruleset  # noqa: E402
from salad.adapters.features import encode  # noqa: E402
from salad.adapters.vector import SaladVectorEnv  # noqa: E402
from salad.view import Phase, View  # noqa: E402

SKIP_ALL: dict[str, Any] = {"toppings": "all"}
DIFFERENTIAL = [
    pytest.param("canadian", {}, 4, id="canadian-4"),
    pytest.param("extended", {}, 6, id="extended-6"),
    pytest.param("skip-the-salad", SKIP_ALL, 4, id="skip-the-salad-all-4"),
    pytest.param("skip-the-salad", {}, 5, id="skip-the-salad-5"),  # passing 2 seats on, not across
]


def random_actions(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly random legal action in every game."""
    out: np.ndarray[Any, Any] = (rng.random(mask.shape) * mask).argmax(axis=1)
    return out


# -- the reference path -----------------------------------------------------------------------
class Reference:
    """K reference games that follow a vector environment's batch: dealt its cards at each
    hand's start, they make the same moves; :meth:`view` builds seat ``s``'s view of game
    ``i``, the slow path the vectorised observations must equal."""

    def __init__(self, envs: SaladVectorEnv) -> None:
        self.envs = envs
        batch = envs.games
        self.games = [
            Game(envs.ruleset, envs.players, first_dealer=int(d), auto_deal=False)
            for d in batch.first_dealer
        ]
        self.deal()

    def deal(self) -> None:
        for i, g in enumerate(self.games):
            if g.phase is Phase.DEAL:
                g.deal(self.envs.games.hand_masks(i))

    def view(self, i: int, seat: int) -> View:
        return self.games[i].view(seat)

    def observation(self, i: int, seat: int) -> np.ndarray[Any, Any]:
        return encode(self.view(i, seat), self.envs.layout)

    def mask(self, i: int) -> np.ndarray[Any, Any]:
        out = np.zeros(self.envs.num_actions, dtype=bool)
        g = self.games[i]
        if not g.is_over():
            out[g.legal_moves()] = True
        return out

    def play(self, actions: np.ndarray[Any, Any]) -> None:
        for g, a in zip(self.games, actions.tolist(), strict=True):
            g.play(a)
        self.deal()


@dataclass
class Run:
    steps: int
    observations: int
    """Observations compared with the reference's (every game's)."""
    seconds: float


def play_side_by_side(
    rules: str, settings: dict[str, Any], players: int, k: int, seed: int, every: int = 7
) -> Run:
    """Play ``k`` games in both; assert they agree at every step (the seat to move's
    observation and the mask at every step, every seat's observation every ``every`` steps)."""
    t0 = time.process_time()
    envs = SaladVectorEnv(k, rules, players, settings)
    obs, infos = envs.reset(seed=seed)
    ref = Reference(envs)
    rng = np.random.default_rng(seed)
    returns = np.zeros((k, players))
    steps = compared = 0
    done = False
    while True:
        seats = infos["seat"]
        for i in range(k):
            seat = int(seats[i])
            g = ref.games[i]
            assert g.to_move == seat or (g.is_over() and seat >= 0), (i, steps)
            want = ref.observation(i, seat)
            if not np.array_equal(obs[i], want):
                bad = [
                    name
                    for name, s in envs.layout.slices.items()
                    if not np.array_equal(obs[i][s], want[s])
                ]
                raise AssertionError(f"step {steps}, game {i}, seat {seat}: parts {bad} differ")
            assert np.array_equal(infos["action_mask"][i], ref.mask(i)), (steps, i)
            compared += 1
        if steps % every == 0 or done:
            everyone = np.stack([envs.observe(s) for s in range(players)], axis=1)
            for i in range(k):
                for s in range(players):
                    assert np.array_equal(everyone[i, s], ref.observation(i, s)), (steps, i, s)
                    compared += 1
        if envs.games.is_over():
            break
        actions = random_actions(infos["action_mask"], rng)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        ref.play(actions)  # after the batch's step: a hand's end deals its next hand
        steps += 1
        assert not truncated.any()
        done = bool(terminated[0])
        assert terminated.all() == done
        if not done:
            returns[np.arange(k), infos["seat"]] += rewards
        else:
            assert all(g.is_over() for g in ref.games)
            returns += infos["seat_rewards"]
    totals = np.array([g.totals for g in ref.games])
    assert np.allclose(returns, envs.sign * totals / envs.reward_scale)
    assert np.array_equal(envs.games.points(), totals)
    return Run(steps, compared, time.process_time() - t0)


@pytest.mark.parametrize(("rules", "settings", "players"), DIFFERENTIAL)
def test_observations_match_the_reference(
    rules: str, settings: dict[str, Any], players: int
) -> None:
    run = play_side_by_side(rules, settings, players, k=3, seed=11)
    assert run.steps > 100 and run.observations > 3 * run.steps


# -- Gymnasium's vector API -------------------------------------------------------------------
@pytest.mark.parametrize(("rules", "settings", "players"), DIFFERENTIAL)
def test_spaces_shapes_and_dtypes(rules: str, settings: dict[str, Any], players: int) -> None:
    n = 5
    envs = SaladVectorEnv(n, rules, players, settings)
    assert isinstance(envs, VectorEnv) and envs.num_envs == n
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    size = envs.layout.size
    assert envs.single_observation_space.shape == (size,)
    assert envs.observation_space.shape == (n, size)
    assert envs.observation_space.dtype == np.float32
    assert envs.action_space.shape == (n,)
    obs, infos = envs.reset(seed=3)
    assert obs.shape == (n, size) and obs.dtype == np.float32
    assert obs in envs.observation_space
    assert infos["action_mask"].shape == (n, envs.num_actions)
    assert infos["action_mask"].dtype == np.bool_ and infos["action_mask"].any(axis=1).all()
    assert infos["seat"].shape == (n,) and infos["_seat"].all()
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = random_actions(infos["action_mask"], rng)
        assert actions in envs.action_space
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert obs.shape == (n, size) and obs.dtype == np.float32 and obs in envs.observation_space
        assert rewards.shape == (n,) and rewards.dtype == np.float64
        assert terminated.shape == truncated.shape == (n,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert infos["seat_rewards"].shape == (n, players)
    envs.close()
    assert envs.closed


def whole_run(envs: SaladVectorEnv, seed: int | None, steps: int) -> list[np.ndarray[Any, Any]]:
    obs, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(5)
    out = [obs]
    for _ in range(steps):
        obs, rewards, _, _, infos = envs.step(random_actions(infos["action_mask"], rng))
        out += [obs, rewards, infos["seat"]]
    return out


def test_seeding_is_reproducible() -> None:
    a = SaladVectorEnv(4, "canadian", 4)
    b = SaladVectorEnv(4, "canadian", 4)
    run_a, run_b = whole_run(a, 7, 40), whole_run(b, 7, 40)
    assert all(np.array_equal(x, y) for x, y in zip(run_a, run_b, strict=True))
    other = whole_run(b, 8, 40)
    assert not np.array_equal(run_a[0], other[0])
    # Later unseeded resets follow the seeded sequence.
    a.reset(seed=9)
    b.reset(seed=9)
    assert np.array_equal(a.reset()[0], b.reset()[0])


def play_to_the_end(envs: SaladVectorEnv, seed: int) -> tuple[Any, ...]:
    obs, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        actions = random_actions(infos["action_mask"], rng)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        if terminated.any():
            return obs, rewards, terminated, truncated, infos, actions


def test_next_step_autoreset() -> None:
    envs = SaladVectorEnv(3, "canadian", 4)
    obs, rewards, terminated, _, infos, actions = play_to_the_end(envs, 4)
    assert terminated.all() and envs.games.is_over()
    assert not infos["action_mask"].any()  # nobody moves in a finished game
    assert (obs[:, envs.layout.slices["phase"]].argmax(axis=1) == Phase.OVER).all()
    first = envs.games
    obs, rewards, terminated, truncated, infos = envs.step(actions)  # ignored: a new batch
    assert envs.games is not first and envs.games.trick_no == 0 and envs.games.hand_index == 0
    assert not terminated.any() and not truncated.any() and not rewards.any()
    assert not infos["seat_rewards"].any() and infos["action_mask"].any(axis=1).all()
    assert np.array_equal(obs, envs.observe(envs.games.to_move))


def test_same_step_autoreset() -> None:
    envs = SaladVectorEnv(2, "canadian", 4, autoreset_mode="SameStep")
    same = SaladVectorEnv(2, "canadian", 4)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, rewards, terminated, _, infos, _ = play_to_the_end(envs, 6)
    final_obs, final_rewards, _, _, final_infos, _ = play_to_the_end(same, 6)
    assert terminated.all() and infos["_final_obs"].all()
    assert np.array_equal(np.stack(list(infos["final_obs"])), final_obs)
    assert np.array_equal(infos["final_info"]["seat_rewards"], final_infos["seat_rewards"])
    assert np.array_equal(rewards, final_rewards)
    assert envs.games.hand_index == 0 and infos["action_mask"].any(axis=1).all()
    assert np.array_equal(obs, envs.observe(envs.games.to_move))


def test_disabled_autoreset_refuses_to_step_past_the_end() -> None:
    envs = SaladVectorEnv(2, "canadian", 4, autoreset_mode=AutoresetMode.DISABLED)
    *_, actions = play_to_the_end(envs, 1)
    with pytest.raises(SaladError, match="over"):
        envs.step(actions)
    _, infos = envs.reset()
    envs.step(random_actions(infos["action_mask"], np.random.default_rng(0)))


def test_refusals() -> None:
    envs = SaladVectorEnv(2, "canadian", 4)
    with pytest.raises(SaladError, match="reset"):
        envs.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(SaladError, match="one int seed"):
        envs.reset(seed=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(SaladError, match="options"):
        envs.reset(options={"reset_mask": np.ones(2, dtype=bool)})
    _, infos = envs.reset(seed=1)
    illegal = (~infos["action_mask"]).argmax(axis=1)
    with pytest.raises(SaladError, match="cannot make move"):
        envs.step(illegal)
    with pytest.raises(SaladError, match="integers"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(SaladError):
        SaladVectorEnv(0, "canadian", 4)


def test_gymnasium_vector_wrappers_run_over_it() -> None:
    """Gymnasium's own vector wrappers take it as it is (episode statistics at the end)."""
    envs = RecordEpisodeStatistics(SaladVectorEnv(2, "canadian", 4))
    _, infos = envs.reset(seed=np.int64(2))
    rng = np.random.default_rng(2)
    terminated = np.zeros(2, dtype=bool)
    while not terminated.any():
        _, _, terminated, _, infos = envs.step(random_actions(infos["action_mask"], rng))
    assert infos["_episode"].all() and (infos["episode"]["l"] == 312).all()


def test_rewards_follow_highest_wins() -> None:
    """Rewards are minus the points, or plus them where the highest total wins (Skip the Salad
    with every topping: the differential test checks its returns are plus the totals)."""
    assert SaladVectorEnv(2, "canadian", 4).sign == -1
    rs = load_ruleset("skip-the-salad", SKIP_ALL)
    assert rs.highest_wins and SaladVectorEnv(2, rs, 4).sign == 1
