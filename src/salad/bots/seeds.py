"""One way to derive a bot's seed from what places it, so every front end seeds bots alike.

A bot (or one decision of a bot) is placed by a context and a few numbers: a match's seed, deal,
rotation and seat; a table's game seed, seat and move number. The seed is a hash of those, so it
is the same on every machine and every Python, and seeds of different places do not collide::

    >>> bot_seed("match", 1, 0, 0, 2) == bot_seed("match", 1, 0, 0, 2)
    True
    >>> bot_seed("match", 1, 0, 0, 2) != bot_seed("match", 1, 0, 0, 3)
    True
"""

from __future__ import annotations

import random


def bot_seed(context: str, *parts: int | str | None) -> int:
    """A 31-bit seed for the bot placed by ``context`` (``"match"``, ``"table"``, ``"game"``)
    and ``parts``."""
    key = ":".join([f"salad-{context}", *(str(p) for p in parts)])
    return random.Random(key).getrandbits(31)
