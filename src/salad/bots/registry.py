"""Every front end builds bots here, by name: a built-in or registered bot
(:mod:`salad.bots.catalog`) or an outside program (``cmd:PROGRAM``, :mod:`salad.bots.external`)."""

from __future__ import annotations

import math
from typing import Any

from salad.bots.bot import Bot, BotFactory
from salad.bots.catalog import named_factory
from salad.bots.external.factory import external_factory
from salad.bots.external.program import PREFIX
from salad.bots.seeds import bot_seed
from salad.errors import SaladError
from salad.locale import _


def check_move_time(move_time: float | None) -> None:
    """Refuse a time per move that no bot can search in (zero, negative, not finite); None:
    each bot's own.

    >>> check_move_time(0.0)
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: move time: must be a positive number of seconds, not 0.0
    """
    if move_time is not None and not (move_time > 0 and math.isfinite(move_time)):
        raise SaladError(
            _("move time: must be a positive number of seconds, not {value}").format(
                value=move_time
            )
        )


def bot_factory(name: str) -> BotFactory:
    """The factory of the bot ``name``; unknown names are refused in one line."""
    if name.strip()[: len(PREFIX)].lower() == PREFIX:
        return external_factory(name)
    return named_factory(name)


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name (options such as ``move_time``); unknown names are refused."""
    return bot_factory(name)(seed, **options)


def parse_bots(spec: str, players: int, seed: int | None = None, **options: Any) -> list[Bot]:
    """``"random,random"`` → one bot per seat; a single name fills every seat. A blank name
    (``""``, ``",,"``) is refused: it is a mistake, not a wish for some default.

    Seat ``i``'s bot of a game seeded ``seed`` is seeded ``bot_seed("game", seed, i)``.
    """
    names = spec.split(",")
    if not spec.strip() or not all(n.strip() for n in names):
        raise SaladError(f"bots: a blank bot name in {spec!r} (e.g. random,basic,expert,expert)")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise SaladError(f"bots: {len(names)} bots named for {players} players")
    return [
        make_bot(n, None if seed is None else bot_seed("game", seed, i), **options)
        for i, n in enumerate(names)
    ]
