"""One bot decision, as a worker process makes it: a bot rebuilt from its name and seed.

The bot object never crosses a process boundary: only ``(name, seed, view)`` goes in and a
move number comes out. The web server's tables seed it with :func:`salad.bots.seeds.bot_seed` of
``"table"``, the game's seed, the seat and the move number.
"""

from __future__ import annotations

import random

from salad.bots import make_bot
from salad.moves import Move
from salad.view import View

RANDOM = "random"


def choose_move(name: str, seed: int, view: View) -> Move:
    """The move bot ``name`` (seeded with ``seed``) makes in ``view``; a legal one, always."""
    if name == RANDOM:
        return random.Random(seed).choice(view.legal_moves)
    move = make_bot(name, seed).choose(view)
    if move not in view.legal_moves:  # a bot bug must not stall the table
        return random.Random(seed).choice(view.legal_moves)
    return move
