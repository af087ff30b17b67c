"""The PettingZoo AEC environment: PettingZoo's API and seed tests, whole games, the encoding."""

from __future__ import annotations

import pickle
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from salad import Game, SaladError, load_ruleset  # noqa: E402
from salad.adapters.pettingzoo import encode, env, observation_layout, raw_env  # noqa: E402
from salad.view import Phase  # noqa: E402

DOC = Path(__file__).resolve().parent.parent / "docs" / "envs.md"
SKIP_ALL: dict[str, Any] = {"rules": "skip-the-salad", "settings": {"toppings": "all"}}
CASES = [
    pytest.param({"rules": "canadian"}, id="canadian"),
    pytest.param(SKIP_ALL, id="skip-the-salad-all-toppings"),
    pytest.param({"rules": "extended", "players": 3}, id="extended-3"),
]


@pytest.mark.parametrize("kwargs", CASES)
def test_pettingzoo_api_test(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # Dict observations draw "probably should be a Box" notes for any env not on
        # PettingZoo's own list; they are advice, not failures.
        warnings.simplefilter("ignore")
        api_test(env(**kwargs), num_cycles=1000, verbose_progress=False)


@pytest.mark.parametrize("kwargs", CASES[:2])
def test_pettingzoo_seed_test(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(**kwargs), num_cycles=100)


def play_random(e: Any, seed: int) -> dict[str, float]:
    """Play a whole game with random legal actions; every agent's summed rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    earned = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        earned[agent] += reward
        assert e.observation_space(agent).contains(obs)
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.any()
        e.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert not e.agents and steps > 0
    return earned


def test_a_random_game_to_the_end() -> None:
    e = env(rules="canadian", players=4)
    earned = play_random(e, seed=3)
    game = e.unwrapped.game
    assert game.is_over()
    assert [earned[a] for a in e.possible_agents] == [-t for t in game.totals]
    assert sum(earned.values()) == -1120  # the game checksum: no moon in Canadian Salad


def test_rewards_are_points_under_highest_wins() -> None:
    e = env(**SKIP_ALL)
    earned = play_random(e, seed=4)
    game = e.unwrapped.game
    assert game.ruleset.highest_wins
    assert [earned[a] for a in e.possible_agents] == [float(t) for t in game.totals]


def test_rewards_come_when_each_hand_is_scored() -> None:
    e = raw_env(rules="canadian")
    e.reset(seed=5)
    rewarded_at = []
    moves = 0
    while not all(e.terminations.values()):
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        e.step(int(legal[0]))
        moves += 1
        if any(e.rewards.values()):
            rewarded_at.append(moves)
            assert list(e.rewards.values()) == [-p for p in e.game.hand_points[-1]]
    # the first hand (No Tricks) gives every trick's points; each hand is 52 cards
    assert rewarded_at[0] == 52 and moves == 6 * 52
    assert set(rewarded_at) <= {52 * k for k in range(1, 7)}


def test_trump_and_pass_phases_are_moves_of_the_seat_to_move() -> None:
    e = raw_env(**SKIP_ALL)
    e.reset(seed=6)
    game = e.game
    size = e.deck.size
    seen = set()
    while not game.is_over() and len(seen) < 3:
        seat = game.to_move
        assert e.agent_selection == f"player_{seat}"
        obs = e.observe(e.agent_selection)
        legal = np.flatnonzero(obs["action_mask"])
        assert list(legal) == game.legal_moves()
        other = e.observe(f"player_{(seat + 1) % 4}")
        assert not other["action_mask"].any()
        if game.phase == Phase.TRUMP:
            assert list(legal) == [2 * size + s for s in range(len(e.deck.suits))]
        elif game.phase == Phase.PASS:
            assert all(m < size for m in legal)
        seen.add(game.phase)
        e.step(int(legal[-1]))
    assert seen == {Phase.PASS, Phase.PLAY, Phase.TRUMP}
    assert e.action_space("player_0").n == 2 * size + 4


def test_illegal_actions() -> None:
    e = env(rules="canadian")
    e.reset(seed=1)
    mask = e.last()[0]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(SaladError, match="not legal"):
        e.step(bad)
    e = env(rules="canadian", illegal_reward=-500)
    e.reset(seed=1)
    agent = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -500


def test_render_pickle_and_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    e = env(render_mode="ansi", rules="skip-the-salad", players=5)
    e.reset(seed=2)
    text = e.render()
    assert "Skip the Salad: hand 1/6" in text and "player_4" in text
    clone = pickle.loads(pickle.dumps(e.unwrapped))
    assert clone.players == 5 and clone.render_mode == "ansi"
    human = raw_env(render_mode="human", rules=load_ruleset("canadian"), players=3)
    human.reset(seed=1)
    human.step(int(np.flatnonzero(human.observe(human.agent_selection)["action_mask"])[0]))
    assert "Canadian Salad: hand 1/6" in capsys.readouterr().out
    with pytest.raises(SaladError):
        raw_env(rules="canadian", players=9)
    with pytest.raises(SaladError):
        raw_env(render_mode="rgb_array")


# -- the observation encoding ---------------------------------------------------------------------


def test_layout_is_documented() -> None:
    """Every part, in order, appears in the table of docs/envs.md with its length."""
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", DOC.read_text(), flags=re.M)
    layout = observation_layout(load_ruleset("canadian"), 4)
    assert [name for name, _ in rows] == [name for name, _ in layout.segments]
    values = {"S": 52, "N": 4, "K": 4, "H": 6, "P": 5}
    for (name, length), (_, formula) in zip(layout.segments, rows, strict=True):
        expr = formula.strip().strip("`").replace("×", "*")
        assert eval(expr, {}, values) == length, name  # noqa: S307 - the doc's own formulas
    assert layout.size == sum(length for _, length in layout.segments) == 886


def test_the_encoding_reads_the_view() -> None:
    rs = load_ruleset("canadian")
    game = Game(rs, 4, seed=11)
    for _ in range(6):  # a trick and two cards
        game.play(game.legal_moves()[0])
    layout = observation_layout(rs, 4)
    seat = game.to_move
    view = game.view(seat)
    obs = encode(view, layout)
    part = lambda name: layout.part(obs, name)  # noqa: E731
    size = view.deck.size
    assert obs.dtype == np.float32 and obs.shape == (layout.size,)
    assert np.flatnonzero(part("hand")).tolist() == [c for c in range(size) if view.hand >> c & 1]
    played, trick, taken = part("played"), part("trick"), part("taken")
    assert played.shape == (4, size) and played[0].sum() == 1  # I played one card
    first = view.tricks[0]
    for i, m in enumerate(first.moves):
        r = (first.leader + i - seat) % 4
        assert played[r, m] == 1 and taken[(first.winner - seat) % 4, m] == 1
    assert trick.sum() == 2 == len(view.trick)
    for i, m in enumerate(view.trick):
        assert trick[(view.leader + i - seat) % 4, m] == 1
    assert part("led_suit").tolist() == [float(s == view.led_suit) for s in range(5)]
    assert part("trump").tolist() == [0, 0, 0, 0, 1]  # no trump
    assert part("phase").tolist() == [0, 0, 0, 1, 0]
    assert part("round").tolist() == [1, 0, 0, 0, 0, 0]
    assert part("to_move").tolist() == [1, 0, 0, 0]
    assert part("leader")[(view.leader - seat) % 4] == 1
    assert part("token").tolist() == [0, 0, 0, 0, 1]
    assert part("card_points").sum() == 0  # No Tricks: no card counts
    won = part("tricks_won")
    assert won[(first.winner - seat) % 4] == pytest.approx(1 / 13)
    running = part("running")
    assert running[(first.winner - seat) % 4] == pytest.approx(10 / layout.hand_scale)
    for name in ("led_suit", "trump", "phase", "round", "leader", "dealer", "token"):
        assert part(name).sum() == 1, name
    assert (obs >= -1).all() and (obs <= 1).all()


def test_card_points_and_totals() -> None:
    rs = load_ruleset("canadian")
    layout = observation_layout(rs, 4)
    game = Game(rs, 4, seed=12)
    while game.hand_index < 2:  # to No Queens
        game.play(game.legal_moves()[0])
    view = game.view(game.to_move)
    obs = encode(view, layout)
    points = layout.part(obs, "card_points")
    queens = [c for c in range(52) if view.deck.format(c).startswith("Q")]
    assert np.flatnonzero(points).tolist() == queens
    assert points[queens[0]] == pytest.approx(25 / layout.hand_scale)
    totals = layout.part(obs, "totals")
    for s in range(4):
        assert totals[(s - view.seat) % 4] == pytest.approx(game.totals[s] / layout.game_scale)
    assert layout.part(obs, "round").tolist() == [0, 0, 1, 0, 0, 0]
