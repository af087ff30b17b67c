"""Inference: a world weighs by how likely the other seats' plays are in it, so a seat that
played high where a low card of the suit would have ducked is believed to hold no low one."""

from __future__ import annotations

import random

import pytest

from salad import Game, load_ruleset
from salad.bots.expert import ExpertBot
from salad.bots.inference import observed_plays, play_likelihood, prepare, resampling
from salad.bots.policy import hand_model
from salad.bots.search import sample_world
from salad.errors import SaladError
from salad.sampler import sample_hands

RS = load_ruleset("canadian")


def after_a_high_heart() -> Game:
    """Hand 1 (every trick costs): seat 0 leads 5♥, seat 1 plays A♥ over it (its only heart,
    but for all the others know it might have held a lower one to duck with); seat 2 is to
    move."""
    deck = Game(RS, 4, first_dealer=3, auto_deal=False).deck
    hands = [
        "5H 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        "AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
        "2H 3H 4H 6H 2C 3C 4C 5C 6C 7C 8C KH QH",
        "7H 8H 9H 10H JH 9C 10C JC QC KC AC AS AD",
    ]
    game = Game(RS, 4, first_dealer=3, auto_deal=False)
    game.deal([deck.parse_many(h) for h in hands])
    game.play("5H")
    game.play("AH")
    return game


def test_a_high_card_over_a_duckable_one_is_unlikely_with_a_low_card() -> None:
    game = after_a_high_heart()
    view = game.view(2)
    m = hand_model(RS, 4, view.hand_index)
    (seen,) = [s for s in observed_plays(view, m) if s.seat == 1]
    deck = game.deck
    with_low = deck.parse_many("AH 4H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD")
    without = deck.parse_many("AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD")
    assert play_likelihood(m, seen, with_low, view.trump) < play_likelihood(
        m, seen, without, view.trump
    )


def test_worlds_where_the_seat_kept_a_low_heart_weigh_less() -> None:
    game = after_a_high_heart()
    # Seat 3's view: it cannot tell where 2H..4H, 6H are; seat 1 ducking would have used one.
    game.play("6H")
    view = game.view(3)
    m = hand_model(RS, 4, view.hand_index)
    weigh = prepare(view, m)
    assert weigh is not None
    low = game.deck.parse_many("2H 3H 4H")
    rng = random.Random(4)
    kept, short = [], []
    for _ in range(400):
        hands = sample_hands(view, rng)
        (kept if hands[1] & low else short).append(weigh(hands))
    assert kept and short
    assert sum(kept) / len(kept) < 0.75 * sum(short) / len(short)


def test_no_plays_yet_means_no_weights() -> None:
    game = Game(RS, 4, seed=1)
    view = game.view(game.to_move)
    assert prepare(view, hand_model(RS, 4, 0)) is None


def test_resampled_worlds_believe_the_seat_short() -> None:
    game = after_a_high_heart()
    game.play("6H")
    view = game.view(3)
    m = hand_model(RS, 4, view.hand_index)
    low = game.deck.parse_many("2H 3H 4H")
    plain, inferred = sample_world, resampling(sample_world, candidates=8)
    rng = random.Random(5)
    kept_plain = sum(bool(plain(view, m, rng).hands[1] & low) for _ in range(300))
    kept_inferred = sum(bool(inferred(view, m, rng).hands[1] & low) for _ in range(300))
    assert kept_inferred < 0.8 * kept_plain


def test_the_expert_infers_unless_told_not_to() -> None:
    game = after_a_high_heart()
    view = game.view(2)
    weighed = ExpertBot(seed=1, worlds=12, inference="weigh")
    assert weighed.choose(view) in view.legal_moves
    assert len(set(weighed.searcher.last_weights)) > 1
    for infer in (True, "false"):
        bot = ExpertBot(seed=1, worlds=12, inference=infer)
        assert bot.choose(view) in view.legal_moves
        assert set(bot.searcher.last_weights) == {1.0}
        assert (bot.searcher.make_world is sample_world) == (infer == "false")
    with pytest.raises(SaladError, match="inference must be true or false"):
        ExpertBot(inference="maybe")
