"""The engine's fast paths agree with its checked paths and with the plain algorithms they stand
in for: legal moves from cached card lists, the straight-line ``play``, the simple trick winner,
the inline shuffle with its reused generator, and the slot-by-slot ``copy``."""

from __future__ import annotations

import pickle
import random
from concurrent.futures import ThreadPoolExecutor
from copy import deepcopy
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_budget import examples

from salad import Game, IllegalMoveError, Phase, View, load_ruleset, sampler
from salad.cards import NO_SUIT, cards_of
from salad.events import DEAL, DRAW
from salad.presets import PRESETS
from salad.ruleset import Ruleset

RULESETS: list[Ruleset] = [load_ruleset(p) for p in PRESETS]
RULESETS += [
    load_ruleset("skip-the-salad", {"toppings": "all"}),
    load_ruleset("canadian", {"jokers": 2}),
    load_ruleset("extended", {"jokers": 1}),
]


def plain_legal(game: Game) -> list[int]:
    """The legal moves by the rules, one bit at a time (what the cached lists stand in for)."""
    deck = game.deck
    seat = game.to_move
    if game.phase is not Phase.PLAY:
        return game.legal_moves()  # passing and trump picks have no fast path
    hand = game.hands[seat]
    if game.led != NO_SUIT and hand & deck.suit_masks[game.led]:
        hand = (hand & deck.suit_masks[game.led]) | (hand & deck.wild_mask)
    cards = [c for c in range(deck.size) if hand >> c & 1]
    return cards + [c + deck.size for c in cards if deck.declare_mask >> c & 1]


def outcome(game: Game, move: int | str) -> str:
    try:
        game.play(move)
    except IllegalMoveError as e:
        return f"illegal {e.reason}"
    return "played"


def checked_outcome(game: Game, move: int | str) -> str:
    try:
        game._play_checked(move)
    except IllegalMoveError as e:
        return f"illegal {e.reason}"
    return "played"


@settings(max_examples=examples(60), deadline=None)
@given(
    index=st.integers(0, len(RULESETS) - 1),
    players=st.integers(3, 8),
    seed=st.integers(0, 2**32),
    odd_moves=st.lists(st.integers(-3, 140), max_size=40),
)
def test_fast_and_checked_paths_agree(
    index: int, players: int, seed: int, odd_moves: list[int]
) -> None:
    """Two games play the same random moves: one through ``play`` (the fast path), one through
    the checked path with the general trick winner; any move, legal or not, fares the same."""
    rs = RULESETS[index]
    players = min(max(players, rs.min_players), rs.max_players)
    fast = Game(rs, players, seed=seed)
    slow = Game(rs, players, seed=seed)
    slow._simple = False  # the general trick winner and legal moves a block at a time
    rng = random.Random(seed)
    odd = iter(odd_moves)
    while not fast.is_over():
        legal = fast.legal_moves()
        assert legal == plain_legal(fast) == slow.legal_moves()
        probe = next(odd, None)
        if probe is not None:  # an arbitrary move, often illegal: the same answer from both
            a, b = fast.copy(), slow.copy()
            assert outcome(a, probe) == checked_outcome(b, probe)
            assert a.log == b.log
        move = rng.choice(legal)
        fast.play(move)
        slow._play_checked(move)
        assert fast.to_move == slow.to_move and fast.phase == slow.phase
    assert fast.log == slow.log
    assert fast.totals == slow.totals


@pytest.mark.parametrize("move", ["QS", "qs", True, -1, -1000, 10**6, 2**70])
def test_odd_moves_take_the_checked_path(move: object) -> None:
    """Text plays as before; negative, huge and boolean moves get the answer they got before."""
    fast = Game(load_ruleset("canadian"), 4, seed=3)
    slow = fast.copy()
    assert outcome(fast, move) == checked_outcome(slow, move)  # type: ignore[arg-type]
    assert fast.log == slow.log


def reference_deal(game: Game, seed: int, hand_index: int, dealer: int) -> tuple[int, ...]:
    """A hand dealt as the engine always dealt it: ``random.Random(text).shuffle``."""
    cards = cards_of(game.deck.in_play)
    random.Random(f"salad:{seed}:{hand_index}").shuffle(cards)
    n = game.players
    hands = [0] * n
    for j in range(n):
        hands[(dealer + 1 + j) % n] = sum(1 << c for c in cards[j::n])
    return tuple(hands)


def reference_draw(game: Game, seed: int) -> int:
    deck = game.deck
    rng = random.Random(f"salad:{seed}:draw")
    ordinary = [c for c in range(deck.size) if deck.suit_of[c] != NO_SUIT]
    drawing = list(range(game.players))
    while True:
        cards = rng.sample(ordinary, len(drawing))
        best = max(deck.rank_of[c] for c in cards)
        drawing = [s for s, c in zip(drawing, cards, strict=True) if deck.rank_of[c] == best]
        if len(drawing) == 1:
            return drawing[0]


@pytest.mark.parametrize("rs", RULESETS, ids=lambda rs: rs.preset)
@pytest.mark.parametrize("seed", [0, 1, 12345, 2**62 + 7])
def test_deals_are_the_ones_random_shuffle_makes(rs: Ruleset, seed: int) -> None:
    """Seeded games keep their deals (records and replays with ``auto_deal`` rely on them)."""
    for players in (rs.min_players, rs.default_players):
        game = Game(rs, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        log = game.log
        assert [e for e in log if e[0] == DRAW][0][2] == reference_draw(game, seed)
        deals = [e for e in log if e[0] == DEAL]
        assert len(deals) == len(rs.hands)
        for _, hand_index, dealer, hands in deals:
            assert hands == reference_deal(game, seed, hand_index, dealer)  # type: ignore[arg-type]


def test_games_dealt_in_threads_match_games_dealt_in_turn() -> None:
    """The dealing generator is one per thread: games dealt at once get their own deals."""
    rs = load_ruleset("canadian")

    def deals(seed: int) -> list[object]:
        game = Game(rs, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        return [e for e in game.log if e[0] in (DEAL, DRAW)]

    seeds = list(range(24))
    in_turn = [deals(s) for s in seeds]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(deals, seeds)) == in_turn


def test_copy_keeps_every_slot() -> None:
    """``copy`` names each slot: a slot added to Game but not to copy fails here."""
    game = Game(load_ruleset("skip-the-salad", {"toppings": "all"}), 4, seed=5)
    rng = random.Random(5)
    for _ in range(70):
        game.play(rng.choice(game.legal_moves()))
    new = game.copy()
    for name in Game.__slots__:
        value = getattr(new, name)  # AttributeError: the slot was not copied
        assert value == getattr(game, name), name
        if isinstance(value, list):
            assert value is not getattr(game, name), f"{name} is shared, not copied"
    new.play(new.legal_moves()[0])
    assert len(new.log) == len(game.log) + 1


def test_legal_moves_are_a_fresh_list_each_time() -> None:
    game = Game(load_ruleset("canadian"), 4, seed=1)
    for _ in range(3):
        moves = game.legal_moves()
        expected = list(moves)
        moves.clear()
        assert game.legal_moves() == expected
        game.play(expected[0])


def test_compiled_rules_are_looked_up_by_identity_and_equal_for_equal_rulesets() -> None:
    rs = load_ruleset("fruit-salad")
    assert rs.compiled(5) is rs.compiled(5)
    twin = replace(rs)
    assert twin is not rs and twin.compiled(5) == rs.compiled(5)
    with pytest.raises(Exception, match="out of range"):
        rs.compiled(99)


def reference_sample(view: View, rng: random.Random) -> list[int]:
    """sample_hands as it was written before its weighted pick was inlined (rng.choices)."""
    n = view.players
    known = sampler.known_cards(view)
    free = sampler.unseen_cards(view)
    for h in known:
        free &= ~h
    need = [view.hand_sizes[s] - known[s].bit_count() for s in range(n)]
    allowed_for = sampler._allowed_masks(view, sampler.shown_voids(view))
    cards = cards_of(free)
    takers = {c: [s for s in range(n) if need[s] and allowed_for[s] >> c & 1] for c in cards}
    while True:  # the views below always deal within the attempts
        rng.shuffle(cards)
        cards.sort(key=lambda c: len(takers[c]))
        hands, left = known[:], need[:]
        for card in cards:
            options = [s for s in takers[card] if left[s]]
            if not options:
                break
            seat = rng.choices(options, weights=[left[s] for s in options])[0]
            hands[seat] |= 1 << card
            left[seat] -= 1
        else:
            return hands


def test_pickles_leave_the_shared_tables_out() -> None:
    """A pickled game carries its own state, not the card-list cache its rules share (which
    grows with play), and plays on the same after loading."""
    rs = load_ruleset("canadian")
    game = Game(rs, 4, seed=2)
    fresh = len(pickle.dumps(game))
    rng = random.Random(2)
    for seed in range(20):  # fill the shared cache
        other = Game(rs, 4, seed=seed)
        while not other.is_over():
            other.play(rng.choice(other.legal_moves()))
    assert len(pickle.dumps(game)) == fresh
    for clone in (pickle.loads(pickle.dumps(game)), deepcopy(game)):
        ref = game.copy()
        assert clone.log == ref.log
        while not clone.is_over():
            move = clone.legal_moves()[0]
            assert clone.legal_moves() == ref.legal_moves()
            clone.play(move)
            ref.play(move)
        assert clone.totals == ref.totals
