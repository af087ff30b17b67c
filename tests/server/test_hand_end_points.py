"""The points a seat plate shows (``running``), the server's ``running`` field and the score
sheet agree after every move of whole games, the end of each hand included (issue 14, item 2:
the last trick's penalty was left out at game over)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.scoring import hand_breakdown, hand_breakdowns
from salad.server.tables.wire import JsonCodes, TricksCache, common_view_parts, hand_rounds


def sheet_totals(rounds: list[dict[str, Any]], players: int) -> list[int]:
    """The totals row of the score sheet the page draws from ``hand_rounds``."""
    return [sum(r["points"][s] for r in rounds) for s in range(players)]


@pytest.mark.parametrize(
    ("preset", "settings", "players", "seed"),
    [
        ("canadian", None, 4, 5),
        ("skip-the-salad", {"toppings": "all"}, 4, 9),
        ("skip-the-salad", {"toppings": "all"}, 5, 2),
    ],
)
def test_running_agrees_with_the_sheet(preset: str, settings: Any, players: int, seed: int) -> None:
    game = Game(load_ruleset(preset, settings), players, seed=seed)
    cache, codes = TricksCache(), JsonCodes(game.deck)
    rng = random.Random(seed)
    hands_checked = 0
    while not game.is_over():
        last_card = sum(h.bit_count() for h in game.hands) == 1
        move = rng.choice(game.legal_moves())
        if last_card:
            # The hand's end as a table waiting for its next deal sees it.
            held = game.copy()
            held.auto_deal = False
            held.play(move)
            points = list(held.hand_points[-1])
            assert held.running_points() == points
            every = hand_breakdowns(held.rules, held.log)
            assert list(every[-1].points) == points
            # One hand's breakdown, read from that hand's events alone, is the same.
            assert [hand_breakdown(held.rules, held.log, i) for i in range(len(every))] == every
            wire = json.loads(
                "{" + common_view_parts(held, TricksCache(), JsonCodes(held.deck))[0] + "}"
            )
            assert wire["running"] == points == hand_rounds(held)[-1]["points"]
            hands_checked += 1
        game.play(move)
        wire = json.loads("{" + common_view_parts(game, cache, codes)[0] + "}")
        assert wire["running"] == game.running_points() == list(game.view(0).running)
        rounds = hand_rounds(game)
        assert wire["totals"] == sheet_totals(rounds, players)
    # Game over: the plates' "+N" is the last hand's row of the sheet, its last trick included.
    assert hands_checked == len(game.rules.hands)
    final = json.loads("{" + common_view_parts(game, cache, codes)[0] + "}")
    rounds = hand_rounds(game)
    assert final["running"] == rounds[-1]["points"]
    assert final["running"] == list(hand_breakdowns(game.rules, game.log)[-1].points)
    assert final["totals"] == sheet_totals(rounds, players)


def test_a_hand_not_finished_has_no_breakdown() -> None:
    game = Game(load_ruleset("canadian"), 4, seed=1)
    game.play(game.legal_moves()[0])
    with pytest.raises(IndexError):
        hand_breakdown(game.rules, game.log, 0)
    with pytest.raises(IndexError):
        hand_breakdown(game.rules, game.log, 3)
