"""What a bot is: given a seat's :class:`~salad.view.View` (never the hidden hands), it returns
a legal move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from salad.moves import Move
from salad.view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Move:
        """A legal move for ``view.seat``, which is to move."""
        ...


BotFactory = Callable[..., Bot]
"""Makes a bot: ``factory(seed, **options)``."""
