"""Bots: given a seat's :class:`~salad.view.View` (never the hidden hands), return a legal move.

Every front end builds bots through :func:`make_bot`, by name (built-ins, bots other packages
register under the ``salad.bots`` entry-point group, or ``cmd:PROGRAM``):

>>> from salad import Game, load_ruleset
>>> bot = make_bot("random", seed=1)
>>> game = Game(load_ruleset(), 4, seed=1)
>>> game.play(bot.choose(game.view(game.to_move)))
"""

from __future__ import annotations

from salad.bots.bot import Bot, BotFactory
from salad.bots.catalog import REFERENCE_ONLY, REGISTRY, bot_names, bot_word, reference_only
from salad.bots.play import play_out, tell_game_over
from salad.bots.registry import bot_factory, make_bot, parse_bots

__all__ = [
    "REFERENCE_ONLY",
    "REGISTRY",
    "Bot",
    "BotFactory",
    "bot_factory",
    "bot_names",
    "bot_word",
    "make_bot",
    "parse_bots",
    "play_out",
    "reference_only",
    "tell_game_over",
]
