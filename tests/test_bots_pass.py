"""Passing by search: worlds sampled mid-pass keep the passes the view implies, and the expert
searches its pass card by card like a play."""

from __future__ import annotations

import random

from salad import Game, load_ruleset
from salad.bots import make_bot
from salad.bots.expert import ExpertBot
from salad.sampler import passed_seats, sample_hands, sample_passes
from salad.view import Phase, View

PASSING = load_ruleset("skip-the-salad", {"toppings": "all"})


def mid_pass(seed: int = 3, seats_done: int = 2) -> Game:
    """A game in its second hand's passing, ``seats_done`` seats having chosen already."""
    game = Game(PASSING, 4, seed=seed)
    bot = make_bot("basic")
    while game.phase is not Phase.PASS:
        game.play(bot.choose(game.view(game.to_move)))
    first = game.to_move
    while (game.to_move - first) % 4 < seats_done:
        game.play(bot.choose(game.view(game.to_move)))
    return game


def test_sample_passes_fills_the_seats_that_chose_before() -> None:
    game = mid_pass()
    view = game.view(game.to_move)
    rng = random.Random(1)
    hands = sample_hands(view, rng)
    passed = sample_passes(view, hands, rng)
    done = passed_seats(view)
    assert len(done) == 2 and view.seat not in done
    for s in range(4):
        want = PASSING.passing if s in done else 0
        assert passed[s].bit_count() == want
        assert passed[s] & ~hands[s] == 0


def test_a_world_from_mid_pass_plays_out_whole() -> None:
    """Without the sampled passes the exchange hands out too few cards: the world breaks."""
    game = mid_pass()
    view = game.view(game.to_move)
    rng = random.Random(2)
    hands = sample_hands(view, rng)
    world = Game.from_view(view, hands, sample_passes(view, hands, rng))
    bot = make_bot("basic")
    while world.phase is Phase.PASS:
        world.play(bot.choose(world.view(world.to_move)))
    assert world.phase is Phase.PLAY
    assert [h.bit_count() for h in world.hands] == [world.deck.cards_each] * 4
    while world.phase is Phase.PLAY:
        world.play(bot.choose(world.view(world.to_move)))
    assert len(world.hand_points) == len(view.hand_points) + 1


def test_the_expert_searches_its_pass() -> None:
    game = mid_pass()
    view = game.view(game.to_move)
    moves = []
    for _ in range(2):
        bot = ExpertBot(seed=7, worlds=6)
        moves.append(bot.choose(view))
        assert bot.searcher.last_worlds > 0  # searched, not passed by rule
    assert moves[0] == moves[1]  # a seed and a world count fix the choice
    assert moves[0] in view.legal_moves


def test_the_expert_passes_legally_through_a_hand() -> None:
    game = mid_pass(seed=5, seats_done=0)
    bots = [ExpertBot(seed=s, worlds=2) for s in range(4)]
    while game.phase is Phase.PASS:
        view: View = game.view(game.to_move)
        move = bots[view.seat].choose(view)
        assert move in view.legal_moves
        game.play(move)
    assert game.phase is Phase.PLAY
