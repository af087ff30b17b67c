"""Driving games with bots: one seat's view in, one move out, until the game ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from salad.bots.bot import Bot
from salad.engine import Game


def tell_game_over(bots: Sequence[Bot], game: Game) -> None:
    """Let bots that want it (external programs) see each seat's view of the finished game."""
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "game_over", None)
        if hook is not None:
            hook(game.view(seat))


def play_out(
    game: Game, bots: Sequence[Bot], on_hand_end: Callable[[Game], None] | None = None
) -> Game:
    """Let the bots play ``game`` to its end; ``on_hand_end`` is called after each hand."""
    hands_done = len(game.hand_points)
    while not game.is_over():
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat)))
        if on_hand_end is not None and len(game.hand_points) != hands_done:
            hands_done = len(game.hand_points)
            on_hand_end(game)
    tell_game_over(bots, game)
    return game
