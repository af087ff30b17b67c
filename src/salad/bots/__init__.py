"""Bots: given a seat's :class:`~salad.view.View` (never the hidden hands), return a legal move.

Every front end builds bots through :func:`make_bot`, by name:

>>> from salad import Game, load_ruleset
>>> bot = make_bot("random", seed=1)
>>> game = Game(load_ruleset(), 4, seed=1)
>>> game.play(bot.choose(game.view(game.to_move)))
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from salad.errors import SaladError
from salad.moves import Move
from salad.view import View

if TYPE_CHECKING:
    from salad.engine import Game


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Move:
        """A legal move for ``view.seat``, which is to move."""
        ...


BotFactory = Callable[..., Bot]

REGISTRY: dict[str, str] = {
    "random": "salad.bots.random_bot:RandomBot",
    "basic": "salad.bots.basic:BasicBot",
    "advanced": "salad.bots.expert:AdvancedBot",
    "expert": "salad.bots.expert:ExpertBot",
    "openspiel-ismcts": "salad.adapters.openspiel.bot:OpenSpielISMCTSBot",
}
"""Bot name → "module:factory"; modules load on first use (OpenSpiel is heavy)."""


def tell_game_over(bots: Sequence[Bot], game: Game) -> None:
    """Let bots that want it (external programs) see each seat's view of the finished game."""
    for seat, bot in enumerate(bots):
        hook = getattr(bot, "game_over", None)
        if hook is not None:
            hook(game.view(seat))


def bot_names() -> list[str]:
    return list(REGISTRY)


def bot_factory(name: str) -> BotFactory:
    if name.strip()[:4].lower() == "cmd:":  # an outside program: salad.bots.external
        from salad.bots.external import external_factory

        return external_factory(name)
    key = name.strip().lower()
    if key not in REGISTRY:
        raise SaladError(f"bots: unknown bot {name!r} (known: {', '.join(REGISTRY)})")
    module_name, attr = REGISTRY[key].split(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SaladError(f"bots: {name} is not available here ({exc})") from None
    factory: BotFactory = getattr(module, attr)
    return factory


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by registry name (options such as ``move_time``); unknown names are refused."""
    return bot_factory(name)(seed, **options)


def parse_bots(spec: str, players: int, seed: int | None = None, **options: Any) -> list[Bot]:
    """``"random,random"`` → one bot per seat; a single name fills every seat."""
    names = [n for n in spec.split(",") if n.strip()] or ["random"]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SaladError(f"bots: {len(names)} bots named for {players} players")
    return [
        make_bot(n, None if seed is None else seed * 101 + i, **options)
        for i, n in enumerate(names)
    ]


__all__ = [
    "Bot",
    "REGISTRY",
    "bot_factory",
    "bot_names",
    "make_bot",
    "parse_bots",
    "tell_game_over",
]
