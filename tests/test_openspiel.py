"""The OpenSpiel adapter (``python_salad``) and the ``openspiel-ismcts`` bot."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from salad import Game, load_ruleset  # noqa: E402
from salad.adapters.features import encode, observation_layout  # noqa: E402
from salad.adapters.openspiel.game import GAME_NAME, SaladGame, SaladState  # noqa: E402
from salad.bots import make_bot  # noqa: E402
from salad.cards import cards_of  # noqa: E402
from salad.sampler import shown_voids  # noqa: E402
from salad.view import Phase  # noqa: E402

TOPPED = {"rules": "skip-the-salad", "toppings": "all"}


def step(state: Any, rng: random.Random) -> None:
    """One random chance outcome or move."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, weights=probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def play_random(state: Any, rng: random.Random, until: Any = None) -> Any:
    """Random chance outcomes and moves until the game ends or ``until(state)`` holds."""
    while not state.is_terminal() and not (until is not None and until(state)):
        step(state, rng)
    return state


def deal(game: Any, order: list[int]) -> Any:
    state = game.new_initial_state()
    for card in order:
        assert state.is_chance_node()
        state.apply_action(card)
    return state


# -- registration and loading -----------------------------------------------------------------
def test_registered_and_loaded_by_name_with_parameters() -> None:
    assert GAME_NAME in pyspiel.registered_names()
    game = pyspiel.load_game("python_salad(rules=skip-the-salad,players=5,hands=2)")
    deck = load_ruleset("skip-the-salad").deck_for(5)
    assert game.num_players() == 5
    assert game.num_distinct_actions() == 2 * deck.size + len(deck.suits)
    assert game.get_type().short_name == GAME_NAME
    assert pyspiel.load_game(str(game)).num_players() == 5

    settings = json.dumps({"points": {"queens": 30}, "hands": ["no-queens", "no-tricks"]})
    custom = pyspiel.load_game(GAME_NAME, {"settings": settings, "players": 3})
    assert isinstance(custom, SaladGame)
    assert custom.config.rules.hands[0].round.id == "no-queens"
    assert custom.num_players() == 3
    state = play_random(custom.new_initial_state(), random.Random(1))
    # 30 per queen in the first hand, then 10 per trick of 17: everything the game hands out.
    assert sum(state.returns()) == pytest.approx(-1.0)
    assert state.salad.totals and sum(state.salad.totals) == 4 * 30 + 17 * 10


def test_toppings_parameter_and_returns_sign() -> None:
    game = pyspiel.load_game(GAME_NAME, {**TOPPED, "hands": 1, "first_dealer": 0})
    assert game.config.ruleset.highest_wins and game.config.ruleset.passing == 2
    state = play_random(game.new_initial_state(), random.Random(2))
    totals = state.salad.totals
    assert state.returns() == pytest.approx([t / game.config.scale for t in totals])
    raw = pyspiel.load_game(GAME_NAME, {"hands": 1, "normalize": False, "first_dealer": 0})
    state = play_random(raw.new_initial_state(), random.Random(2))
    assert state.returns() == [-t for t in state.salad.totals]
    assert raw.min_utility() == -130 and raw.max_utility() == 0


# -- OpenSpiel's own checks -------------------------------------------------------------------
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"hands": 2, "first_dealer": 1},
        {**TOPPED},
        {**TOPPED, "players": 7, "hands": 2},
        {"rules": "canadian", "players": 5, "settings": '{"jokers":2}', "hands": 2},
        {"rules": "extended", "players": 6, "first_hand": 10},
    ],
)
def test_random_sim_test(params: dict[str, Any]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_chance_outcomes_sum_to_one() -> None:
    game = pyspiel.load_game(GAME_NAME, {"hands": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert [a for a, _ in outcomes] == state.legal_actions()
            checked += 1
        step(state, rng)
    assert checked == 1 + 2 * 52


def test_action_strings_use_card_codes() -> None:
    game = pyspiel.load_game(GAME_NAME, {"hands": 1})
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "dealer:2"
    state.apply_action(0)
    deck = game.config.rules.deck
    qs = deck.parse("QS")
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, qs) == "deal:QS"
    assert state.action_to_string(0, qs) == "QS"
    topped = pyspiel.load_game(GAME_NAME, TOPPED)
    vdeck = topped.config.rules.deck
    wild = cards_of(vdeck.declare_mask)[1]
    s = topped.new_initial_state()
    assert s.action_to_string(0, wild + vdeck.size) == "W#2+"
    assert s.action_to_string(0, 2 * vdeck.size + 0) == "trump:R"


# -- information states -----------------------------------------------------------------------
def test_info_state_hides_other_hands() -> None:
    """Two deals that differ only in seats 2 and 3's cards look the same to seats 0 and 1."""
    game = pyspiel.load_game(GAME_NAME, {"hands": 1, "first_dealer": 3})
    cards = list(range(52))
    random.Random(4).shuffle(cards)
    # Dealt from seat 0: card j goes to seat j % 4; swap seat 2's and seat 3's cards.
    swapped = cards[:]
    for j in range(2, 52, 4):
        swapped[j], swapped[j + 1] = cards[j + 1], cards[j]
    a, b = deal(game, cards), deal(game, swapped)
    assert a.salad.hands[2] == b.salad.hands[3] and a.salad.hands[0] == b.salad.hands[0]
    for seat in (0, 1):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    assert a.information_state_string(2) != b.information_state_string(2)
    strings = {a.information_state_string(s) for s in range(4)}
    assert len(strings) == 4
    # Seat 0 leads a card both deals let it play; seat 1 still cannot tell them apart.
    move = a.legal_actions()[0]
    a.apply_action(move)
    b.apply_action(move)
    assert a.information_state_string(1) == b.information_state_string(1)
    assert game.config.labels[move] in a.information_state_string(1)
    size = game.observation_tensor_size()
    assert all(len(a.observation_tensor(s)) == size for s in range(4))


@pytest.mark.parametrize("params", [{"hands": 2}, {**TOPPED, "hands": 3}])
def test_info_state_survives_resampling(params: dict[str, Any]) -> None:
    """The ISMCTS invariant: resampling for a seat never changes what that seat knows."""
    game = pyspiel.load_game(GAME_NAME, params)
    rng = random.Random(5)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.3:
            seat = state.current_player()
            other = (seat + 1) % game.num_players()
            new = state.resample_from_infostate(seat, sampler)
            assert new.information_state_string(seat) == state.information_state_string(seat)
            assert new.observation_tensor(seat) == state.observation_tensor(seat)
            assert new.legal_actions() == state.legal_actions()
            changed += new.salad.hands[other] != state.salad.hands[other]
        step(state, rng)
    assert changed > 5


def test_observation_tensor_is_the_shared_encoding() -> None:
    """OpenSpiel's observation tensor is salad.adapters.features.encode of the seat's view (the
    PettingZoo environment's observation); other observation types take parts of it."""
    game = pyspiel.load_game(GAME_NAME, {"rules": "skip-the-salad", "toppings": "all"})
    rs = game.config.ruleset
    layout = observation_layout(rs, 4)
    assert game.observation_tensor_size() == layout.size
    state = play_random(game.new_initial_state(), random.Random(2), lambda s: len(s.history()) > 80)
    assert state.salad.phase == Phase.PLAY
    for seat in range(4):
        expected = encode(state.view(seat), layout)
        assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), expected)
    everyone = game.make_py_observer(
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
        )
    )
    everyone.set_from(state, 1)
    hands = everyone.dict["hands"]
    for seat in range(4):
        assert np.flatnonzero(hands[(seat - 1) % 4]).tolist() == cards_of(state.salad.hands[seat])
    assert "hand" not in everyone.dict and "played" in everyone.dict
    private = game.make_py_observer(
        pyspiel.IIGObservationType(
            public_info=False,
            perfect_recall=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER,
        )
    )
    assert [name for name in private.dict] == ["hand", "passed", "received", "phase"]


# -- resampling -------------------------------------------------------------------------------
def test_resample_respects_voids_and_hand_sizes() -> None:
    game = pyspiel.load_game(GAME_NAME, {"hands": 1, "first_dealer": 0})
    rng = random.Random(6)
    state = game.new_initial_state()

    def voids_shown(s: SaladState) -> bool:
        game = s.salad
        return (
            game is not None
            and not s.is_chance_node()
            and not game.trick
            and any(shown_voids(s.view(s.current_player())))
        )

    play_random(state, rng, until=voids_shown)
    seat = state.current_player()
    view = state.view(seat)
    voids = shown_voids(view)
    deck = game.config.rules.deck
    unseen = deck.in_play & ~view.hand & ~view.played
    for i in range(30):
        new = state.resampled(seat, random.Random(i))
        hands = new.salad.hands
        assert hands[seat] == view.hand
        assert [h.bit_count() for h in hands] == list(view.hand_sizes)
        union = 0
        for s, h in enumerate(hands):
            for suit, mask in enumerate(deck.suit_masks):
                if voids[s] >> suit & 1:
                    assert not h & mask
            union |= h
        assert union == unseen | view.hand
        play_random(new, random.Random(i))  # the resampled deal plays out


def test_resample_keeps_passed_cards_with_their_receiver() -> None:
    game = pyspiel.load_game(GAME_NAME, {**TOPPED, "hands": 1, "first_dealer": 0})
    rng = random.Random(7)
    state = play_random(
        game.new_initial_state(),
        rng,
        until=lambda s: s.salad is not None and s.salad.phase is Phase.PLAY,
    )
    seat = state.current_player()
    passed = state.salad.passed[seat]
    receiver = (seat - 1) % 4  # passing goes to the right
    for i in range(20):
        new = state.resampled(seat, random.Random(i))
        assert new.salad.hands[receiver] & passed == passed
        assert new.salad.received[seat] == state.salad.received[seat]
        assert new.information_state_string(seat) == state.information_state_string(seat)


# -- OpenSpiel's bots on the game -------------------------------------------------------------
@pytest.mark.parametrize("params", [{"hands": 1}, {**TOPPED, "hands": 2}])
def test_ismcts_and_random_bots_play_whole_hands(params: dict[str, Any]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    bots: list[Any] = [
        ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
            2.0,
            8,
            random_state=np.random.RandomState(2),
        ),
    ]
    bots += [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(1, n)]
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        player = state.current_player()
        action = bots[player].step(state)
        assert action in state.legal_actions()
        searched += player == 0
        state.apply_action(action)
    assert searched >= 13 * game.config.end_hand
    returns = state.returns()
    assert len(returns) == n and game.min_utility() <= min(returns) <= game.max_utility()


# -- the openspiel-ismcts bot in our own games ------------------------------------------------
def test_openspiel_bot_plays_legal_moves() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": ["all"]})
    bots = [
        make_bot("openspiel-ismcts", seed=0, simulations=4),
        make_bot("random", seed=1),
        make_bot("openspiel-ismcts", seed=2, simulations=4, rollout="engine", move_time=5.0),
        make_bot("random", seed=3),
    ]
    game = Game(rs, 4, seed=8)
    phases = set()
    while game.hand_index < 2:
        view = game.view(game.to_move)
        move = bots[game.to_move].choose(view)
        assert move in view.legal_moves
        phases.add(game.phase)
        game.play(move)
    assert {Phase.PASS, Phase.PLAY, Phase.TRUMP} <= phases


def test_openspiel_bot_is_deterministic_and_timed() -> None:
    def moves(seed: int) -> list[int]:
        bot = make_bot("openspiel-ismcts", seed=seed, simulations=20, move_time=None)
        game = Game(load_ruleset(), 4, seed=9)
        out = []
        for _ in range(8):
            move = bot.choose(game.view(game.to_move))
            out.append(move)
            game.play(move)
        return out

    assert moves(1) == moves(1)
    timed = make_bot("openspiel-ismcts", seed=2, move_time=0.05)
    game = Game(load_ruleset(), 4, seed=9)
    assert timed.choose(game.view(game.to_move)) in game.legal_moves()
    assert timed.last_simulations >= 2  # type: ignore[attr-defined]
