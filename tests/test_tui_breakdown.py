"""The points of every hand, penalty by penalty (salad.scoring.hand_breakdowns): what the end of
a hand shows in the terminal app and in --plain, and what the web client will read."""

from __future__ import annotations

import random

import pytest

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.presets import PRESETS
from salad.scoring import MOON, breakdown_hand, card_counts, hand_breakdowns

CASES = [(name, None) for name in sorted(PRESETS)] + [
    ("skip-the-salad", {"toppings": ["all"]}),
    ("canadian", {"moon": "old"}),
    ("canadian", {"moon": "negative"}),
]


@pytest.mark.parametrize(("preset", "settings"), CASES)
def test_the_breakdown_sums_to_every_hand_of_whole_games(
    preset: str, settings: dict[str, object] | None
) -> None:
    rs = load_ruleset(preset, settings)
    for players in sorted({rs.min_players, rs.default_players, rs.max_players}):
        for seed in range(3):
            game = Game(rs, players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over():
                game.play(rng.choice(game.legal_moves()))
            rules = game.rules
            found = hand_breakdowns(rules, game.log)
            assert [b.points for b in found] == [tuple(p) for p in game.hand_points]
            for b in found:
                hand = rules.hands[b.hand]
                assert b.penalties == tuple(p.penalty.id for p in hand.penalties)
                for seat in range(players):
                    by_id = b.seat(seat)
                    assert sum(by_id.values()) == b.points[seat]
                    assert set(by_id) == {*b.penalties, MOON}
                if b.moon < 0:  # without a moon the hand hands out exactly its checksum
                    assert sum(b.points) == hand.fixed_total
                    assert not any(b.moon_points)


@pytest.mark.parametrize(("moon", "shooter", "others"), [("old", 0, 100), ("negative", -130, 0)])
def test_a_moon_shows_as_its_own_share(moon: str, shooter: int, others: int) -> None:
    """Seat 0 took every trick of No Tricks: the penalty row says 130, the moon row the rest."""
    rules = load_ruleset("canadian", {"moon": moon}).compiled(4)
    hand = rules.hands[0]
    taken = [rules.deck.in_play, 0, 0, 0]
    b = breakdown_hand(rules, hand, [13, 0, 0, 0], card_counts(hand, taken), 0, -1)
    assert b.moon == 0
    assert b.by_penalty == ((130, 0, 0, 0),)
    assert b.points == (shooter, others, others, others)
    assert b.seat(0) == {"tricks": 130, MOON: shooter - 130}
    assert b.to_dict()["seats"] == [b.seat(s) for s in range(4)]
