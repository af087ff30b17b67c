"""What a bot worker process runs: a bot rebuilt from its name and seed chooses one move.

Kept small so that a worker (spawned, not forked) imports little; the bot object never crosses
a process boundary, only ``(name, seed, view)`` goes in and a move number comes out.
"""

from __future__ import annotations

import random

from salad.moves import Move
from salad.view import View

RANDOM = "random"


def choose_move(name: str, seed: int, view: View) -> Move:
    """The move bot ``name`` (seeded with ``seed``) makes in ``view``; a legal one, always."""
    if name == RANDOM:
        return random.Random(seed).choice(view.legal_moves)
    from salad.bots import make_bot

    move = make_bot(name, seed).choose(view)
    if move not in view.legal_moves:  # a bot bug must not stall the table
        return random.Random(seed).choice(view.legal_moves)
    return move


def bot_seed(game_seed: int | None, seat: int, seq: int) -> int:
    """A seed for one bot decision, the same every time the same game reaches it."""
    base = 0 if game_seed is None else game_seed
    return (base * 1_000_003 + seat * 10_007 + seq) % 2**63
