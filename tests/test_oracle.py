"""The oracle: it searches the true deal, which only the lab's game runner gives it; it beats
basic by far, and no front end with a human lets it sit."""

from __future__ import annotations

import pytest

from salad import Game, load_ruleset
from salad.bots import make_bot, reference_only
from salad.errors import SaladError
from salad.lab.match import run_match
from salad.tui.session import seat_bots


def test_the_oracle_refuses_to_move_without_the_deal() -> None:
    game = Game(load_ruleset(), 4, seed=1)
    with pytest.raises(SaladError, match="^bots: oracle sees every hand"):
        make_bot("oracle", seed=1).choose(game.view(game.to_move))


def test_the_oracle_plays_the_deal_it_was_given_only() -> None:
    game = Game(load_ruleset(), 4, seed=1)
    bot = make_bot("oracle", seed=1)
    bot.see_deal(Game(load_ruleset(), 4, seed=2))  # type: ignore[attr-defined]
    with pytest.raises(SaladError, match="another game"):
        bot.choose(game.view(game.to_move))
    bot.see_deal(game)  # type: ignore[attr-defined]
    view = game.view(game.to_move)
    assert bot.choose(view) in view.legal_moves


def test_the_oracle_is_reference_only_and_refused_in_the_terminal_app() -> None:
    assert reference_only("Oracle") and not reference_only("expert")
    with pytest.raises(SaladError, match="oracle sees every hand"):
        seat_bots("basic,oracle,basic", 4, 0)


def test_the_oracle_beats_basic() -> None:
    result = run_match(load_ruleset(), 4, ["oracle"] + ["basic"] * 3, deals=1, seed=3, workers=1)
    assert result.entrant("oracle").mean < 0.6 * result.entrant("basic").mean
