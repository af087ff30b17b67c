"""Bots: given a seat's :class:`~salad.view.View` (never the hidden hands), return a legal move.

Every front end builds bots through :func:`make_bot`, by name:

>>> from salad import Game, load_ruleset
>>> bot = make_bot("random", seed=1)
>>> game = Game(load_ruleset(), 4, seed=1)
>>> game.play(bot.choose(game.view(game.to_move)))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from salad.bots.random_bot import RandomBot
from salad.errors import SaladError
from salad.events import Move
from salad.view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Move:
        """A legal move for ``view.seat``, which is to move."""
        ...


BotFactory = Callable[[int | None], Bot]

REGISTRY: dict[str, BotFactory] = {
    "random": RandomBot,
}


def bot_names() -> list[str]:
    return list(REGISTRY)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by registry name; an unknown name is a one-line ``SaladError``."""
    key = name.strip().lower()
    if key not in REGISTRY:
        raise SaladError(f"bots: unknown bot {name!r} (known: {', '.join(REGISTRY)})")
    return REGISTRY[key](seed)


def parse_bots(spec: str, players: int, seed: int | None = None) -> list[Bot]:
    """``"random,random"`` → one bot per seat; a single name fills every seat."""
    names = [n for n in spec.split(",") if n.strip()] or ["random"]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SaladError(f"bots: {len(names)} bots named for {players} players")
    return [make_bot(n, None if seed is None else seed * 101 + i) for i, n in enumerate(names)]


__all__ = ["Bot", "REGISTRY", "bot_names", "make_bot", "parse_bots"]
