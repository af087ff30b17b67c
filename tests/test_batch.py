"""The batched engine (:mod:`salad.adapters.batch`) against the reference engine, side by side.

Each case deals K games the same cards in both engines (the batch's own deals fed to the
reference engine, or the reference engine's seeded deals fed to the batch), then at every step
checks that both give the same legal cards and the same seat to move, plays the same card in
each (a seeded choice among the reference's legal moves), checks the running points after
every trick, and at the end every hand's points and the totals. ``benchmarks/batch_speed.py
--games 10000`` is the large run of the same check.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import settings

from salad import Game, load_ruleset
from salad.adapters.batch import (
    Agreement,
    BatchGames,
    Chooser,
    compare_with_engine,
    not_covered,
    random_choice,
)
from salad.errors import RulesError, SaladError
from salad.ruleset import Ruleset


def shooter_policy(game: Game, legal: list[int], rng: random.Random) -> int:
    """Seat 0 plays its highest legal card, the others mostly their lowest: seat 0 takes most
    tricks (and with them, now and then, every counting card: a moon)."""
    if game.to_move == 0:
        return legal[-1]
    return legal[0] if rng.random() < 0.9 else rng.choice(legal)


def wild_policy(game: Game, legal: list[int], rng: random.Random) -> int:
    """A Wild whenever there is one (high or low at random): tricks of Wilds only, and Wilds
    beside Salad Dressing and trumps, come up often."""
    wild = game.deck.wild_mask
    wilds = [m for m in legal if m >= game.deck.size or wild >> m & 1]
    return rng.choice(wilds or legal)


def differential(
    rs: Ruleset,
    players: int,
    k: int,
    seed: int,
    *,
    batch_deals: bool,
    policy: Chooser = random_choice,
) -> Agreement:
    """Play ``k`` games in both engines (:func:`compare_with_engine`); every one must agree."""
    got = compare_with_engine(rs, players, k, seed, batch_deals=batch_deals, choose=policy)
    assert got.first_difference == ""
    assert got.agreed == got.games == k
    return got


def scaled(games: int) -> int:
    """Fewer games under Hypothesis's ``dev`` profile (``make test-fast``) in the share of its
    examples to ``ci``'s (``make test``: every game), at least 4."""
    share = settings().max_examples / settings.get_profile("ci").max_examples
    return max(4, round(games * share))


PRESET_CASES = [
    (preset, players)
    for preset, counts in (
        ("canadian", range(3, 9)),
        ("fruit-salad", range(3, 9)),
        ("extended", range(3, 11)),
    )
    for players in counts
]


@pytest.mark.parametrize(("preset", "players"), PRESET_CASES)
def test_batch_agrees_with_the_engine_on_its_own_deals(preset: str, players: int) -> None:
    rs = load_ruleset(preset)
    k = scaled(100 if players == 4 else 10 if preset == "extended" else 32)
    got = differential(rs, players, k, seed=players, batch_deals=True)
    assert got.plays == k * len(rs.hands) * rs.compiled(players).deck.in_play.bit_count()


@pytest.mark.parametrize("preset", ["canadian", "fruit-salad", "extended"])
def test_batch_agrees_with_the_engine_on_the_engines_deals(preset: str) -> None:
    differential(load_ruleset(preset), 4, 64, seed=11, batch_deals=False)


TWO_ACES: dict[str, Any] = {
    "penalties": [{"id": "two-aces", "points": 20, "cards": ["AS", "AH"]}],
    "rounds": [{"id": "no-two-aces", "name": "No Two Aces", "penalties": ["two-aces"]}],
    "hands": ["no-two-aces", "no-queens", "no-king-of-spades", "no-tricks", "salad"],
}
"""A round whose two penalty cards often go to one seat at random: moons to check."""

SETTINGS_CASES: list[tuple[str, dict[str, Any], int]] = [
    ("canadian", {**TWO_ACES, "moon": "old"}, 4),
    ("canadian", {**TWO_ACES, "moon": "negative"}, 3),
    ("canadian", {**TWO_ACES, "toppings": ["blue-cheese-moon", "cornucopia"]}, 5),
    ("canadian", {"moon": "old", "moon_points": 70}, 4),
    (
        "fruit-salad",
        {"points": {"queens": 30, "last-trick": 40}, "hands": ["no-queens", "salad", "no-tricks"]},
        6,
    ),
    (
        "canadian",
        {
            **TWO_ACES,
            "penalties": [
                *TWO_ACES["penalties"],
                {"id": "potato", "kind": "token", "points": 40, "cards": ["QS", "JD"]},
            ],
            "every_hand": ["potato"],
            "moon": "negative",
        },
        4,
    ),
    ("extended", {"removal": ["2S", "2H", "3S", "3H", "4S"]}, 7),
    (
        "canadian",
        {
            "penalties": [
                {"id": "hot", "kind": "token", "points": 10, "suits": ["H"]},
                {"id": "ace", "kind": "token", "points": 5, "cards": ["AH"]},
            ],
            "every_hand": ["hot", "ace"],
        },
        4,
    ),
]
"""Settings the batch covers: moons, changed points and hands, a token, another removal, two
tokens that share a card."""


@pytest.mark.parametrize(("preset", "settings", "players"), SETTINGS_CASES)
def test_batch_agrees_with_settings_and_moons(
    preset: str, settings: dict[str, Any], players: int
) -> None:
    rs = load_ruleset(preset, settings)
    k = 8 if preset == "extended" else 16
    differential(rs, players, k, seed=3, batch_deals=True)
    got = differential(rs, players, k, seed=4, batch_deals=False, policy=shooter_policy)
    if "hands" in settings and "no-two-aces" in settings["hands"]:
        assert got.moons > 0, "no moon was shot: the moon rules went untested"


def test_moons_are_shot_and_scored_alike() -> None:
    got = differential(
        load_ruleset("extended"), 3, 24, seed=5, batch_deals=True, policy=shooter_policy
    )
    assert got.moons > 0


WIDE_CASES: list[tuple[str, dict[str, Any], int]] = [
    ("skip-the-salad", {}, 4),
    ("skip-the-salad", {"toppings": "all"}, 4),
    ("skip-the-salad", {"toppings": "all"}, 3),
    ("skip-the-salad", {"toppings": "all"}, 7),  # Corn: 75 cards, two words a hand
    ("skip-the-salad", {"toppings": ["salad-dressing", "rotten-tomato"]}, 5),
    ("skip-the-salad", {"toppings": ["spicy-pepper", "cornucopia"], "swap": "2=no-evens"}, 6),
    ("canadian", {"passing": 3, "pass_direction": "left"}, 4),
    ("canadian", {"passing": 2, "pass_direction": "across"}, 6),
    ("canadian", {"trump": "H"}, 4),
    ("canadian", {"trump": "S", "trump_chooser": "last-place", "objective": "high"}, 5),
    ("canadian", {"jokers": 2, "joker_points": 20}, 4),
    ("extended", {"jokers": 3, "passing": 1}, 6),
]
"""Wilds (declared high or low, jokers, Salad Dressing), trumps, passing, the toppings."""


@pytest.mark.parametrize(("preset", "settings", "players"), WIDE_CASES)
def test_batch_agrees_with_wilds_trumps_and_passing(
    preset: str, settings: dict[str, Any], players: int
) -> None:
    rs = load_ruleset(preset, settings)
    assert not_covered(rs, players) == ""
    k = 6 if preset == "extended" else 12  # 12 hands of 100 cards and more
    differential(rs, players, k, seed=5, batch_deals=True)
    differential(rs, players, k, seed=6, batch_deals=False, policy=shooter_policy)
    if rs.compiled(players).deck.wild_mask:
        differential(rs, players, k, seed=7, batch_deals=True, policy=wild_policy)


def test_an_uncovered_setting_is_refused_in_one_line() -> None:
    """Nothing the rules files can say is left out today; a moon rule (or a penalty kind, or a
    kind of Wild) added to the engine later and not to the batch is refused by name."""
    rs = replace(load_ruleset("canadian"), moon=7)  # type: ignore[arg-type]
    assert not_covered(rs, 4) == "moon rule 7"
    with pytest.raises(RulesError) as info:
        BatchGames(rs, 4, 8)
    assert str(info.value) == "batch engine: moon rule 7 is not covered"


def test_illegal_cards_and_bad_deals_are_refused() -> None:
    rs = load_ruleset("canadian")
    batch = BatchGames(rs, 4, 3, seed=1)
    legal = batch.legal_mask()
    cards = legal.argmax(axis=1)
    held = batch.unpack(batch.hands[np.arange(3), batch.to_move])
    wrong = cards.copy()
    wrong[1] = int(np.flatnonzero(~held[1])[0])  # a card seat to move does not hold
    with pytest.raises(SaladError, match="^step: game 1: seat"):
        batch.step(wrong)
    batch.step(cards)
    follow = batch.legal_mask()
    held = batch.unpack(batch.hands[np.arange(3), batch.to_move])
    off = held & ~follow  # held cards of another suit while the seat can follow
    assert off.any(), "no game to test must-follow in (pick another seed)"
    g = int(np.flatnonzero(off.any(axis=1))[0])
    wrong = follow.argmax(axis=1)
    wrong[g] = int(np.flatnonzero(off[g])[0])
    with pytest.raises(SaladError, match=f"^step: game {g}:"):
        batch.step(wrong)
    waiting = BatchGames(rs, 4, 2, seed=1, auto_deal=False)
    with pytest.raises(SaladError, match="waits for a deal"):
        waiting.step([0, 0])
    reference = Game(rs, 4, seed=1)
    hands = [list(reference.hands), list(reference.hands)]
    hands[1][0], hands[1][1] = hands[1][1], hands[1][0] | 1  # seat 1 gets a card twice
    with pytest.raises(SaladError, match="^deal: game 1"):
        waiting.deal(hands)
    waiting.deal([list(reference.hands), list(reference.hands)])
    assert waiting.hand_masks(1) == list(reference.hands)


def test_a_wild_is_declared_high_only_where_it_may_be() -> None:
    batch = BatchGames(load_ruleset("skip-the-salad"), 4, 2, seed=1)
    size = batch.size
    legal = batch.legal_mask()
    assert batch.moves == 2 * size + 4
    plain = np.flatnonzero(legal[0, :size] & ~batch.unpack(batch._declare_words)[0])
    moves = legal.argmax(axis=1)
    moves[0] = plain[0] + size  # an ordinary card "declared high"
    with pytest.raises(SaladError, match="^step: game 0:"):
        batch.step(moves)
    moves[0] = 2 * size  # a trump pick while cards are played
    with pytest.raises(SaladError, match="^step: game 0:"):
        batch.step(moves)


def test_own_deals_are_uniform_enough_and_whole() -> None:
    """Every card lands with every seat about equally often; each deal is a partition."""
    rs = load_ruleset("extended")
    batch = BatchGames(rs, 7, 2000, seed=9)
    deck = rs.compiled(7).deck
    bools = batch.unpack(batch.hands)  # (N, P, D)
    assert (bools.sum(axis=1) == np.array([deck.in_play >> c & 1 for c in range(deck.size)])).all()
    assert (bools.sum(axis=2) == deck.cards_each).all()
    share = bools.mean(axis=0)  # (P, D): how often seat s holds card c
    played = share[:, [c for c in range(deck.size) if deck.in_play >> c & 1]]
    assert abs(played - 1 / 7).max() < 0.04
    again = BatchGames(rs, 7, 2000, seed=9)  # the same seed deals the same cards
    assert (again.hands == batch.hands).all() and (again.dealer == batch.dealer).all()
    assert not (BatchGames(rs, 7, 2000, seed=10).hands == batch.hands).all()


@pytest.mark.parametrize(
    ("preset", "players", "skip"),
    [
        ("canadian", 4, 0),
        ("extended", 8, 0),
        ("skip-the-salad", 4, 0),
        ("skip-the-salad", 7, 0),
        ("skip-the-salad", 4, 9),
        ("skip-the-salad", 4, 3),
        ("skip-the-salad", 4, 68),
    ],
)
def test_random_legal_is_legal_and_uniform(preset: str, players: int, skip: int) -> None:
    """Drawn again and again in one state, every legal move comes up about equally often
    (one word a hand, two for the two-deck game and the Corn, Wilds declared high or low, a
    pass, a trump pick), and nothing else ever does."""
    rs = load_ruleset(preset, {"toppings": "all"} if skip else {})
    batch = BatchGames(rs, players, 64, seed=2)
    rng = np.random.default_rng(3)
    for _ in range(skip or players + 1):  # into the second trick: some follow, some lead
        batch.step(batch.random_legal(rng))
    legal = batch.legal_mask()
    draws = 3000
    counts = np.zeros(legal.shape, dtype=np.int64)
    for _ in range(draws):
        cards = batch.random_legal(rng)
        assert legal[np.arange(64), cards].all()
        counts[np.arange(64), cards] += 1
    expected = draws / legal.sum(axis=1, keepdims=True)
    spread = np.abs(counts - expected)[legal] / np.broadcast_to(expected, legal.shape)[legal]
    assert spread.max() < 0.35  # about 6 sigma for 17 cards in 3,000 draws
    assert legal.sum(axis=1).min() < legal.sum(axis=1).max() or skip  # following and leading


@pytest.mark.parametrize(("preset", "players"), [("canadian", 4), ("extended", 8)])
def test_deals_are_taken_as_arrays_of_words(preset: str, players: int) -> None:
    """``deal`` takes Python masks, an (N, P) ``uint64`` array (one word a hand) or (N, P, W)
    words; the batch's own hands round-trip through each."""
    rs = load_ruleset(preset)
    own = BatchGames(rs, players, 5, seed=8)
    for given in (own.hands.copy(), [own.hand_masks(g) for g in range(5)]):
        other = BatchGames(rs, players, 5, first_dealer=own.first_dealer, auto_deal=False)
        other.deal(given)
        assert (other.hands == own.hands).all()
        assert (other.legal_mask() == own.legal_mask()).all()
    if own.words == 1:
        other = BatchGames(rs, players, 5, auto_deal=False)
        other.deal(own.hands[:, :, 0])
        assert (other.hands == own.hands).all()
