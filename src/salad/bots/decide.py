"""One bot decision, as a worker process makes it: a bot rebuilt from its name and seed.

The bot object never crosses a process boundary: only ``(name, seed, view)`` goes in and a
move number comes out. The web server's tables seed it with :func:`salad.bots.seeds.bot_seed` of
``"table"``, the game's seed, the seat and the move number; :func:`exit_with_parent` makes a
worker end with its server.
"""

from __future__ import annotations

import os
import random
import threading
import time

from salad.bots import make_bot
from salad.moves import Move
from salad.view import View

__all__ = ["PARENT_CHECK", "RANDOM", "choose_move", "exit_with_parent"]

RANDOM = "random"


def choose_move(name: str, seed: int, view: View, move_time: float | None = None) -> Move:
    """The move bot ``name`` (seeded with ``seed``) makes in ``view``, thinking at most
    ``move_time`` seconds (None: its own budget); a legal one, always."""
    if name == RANDOM:
        return random.Random(seed).choice(view.legal_moves)
    options = {} if move_time is None else {"move_time": move_time}
    move = make_bot(name, seed, **options).choose(view)
    if move not in view.legal_moves:  # a bot bug must not stall the table
        return random.Random(seed).choice(view.legal_moves)
    return move


PARENT_CHECK = 0.5
"""Seconds between a worker's looks at whether its parent still lives."""


def exit_with_parent(parent: int) -> None:
    """Pool initializer: end this worker process as soon as ``parent`` (the server) is gone.

    A parent killed with ``kill -9`` runs no shutdown code, and its pool's workers would wait
    for work forever (each holds the pool's queue open itself). A daemon thread watches the
    parent's pid instead: when the parent dies, this process is handed to another parent and
    ``os.getppid()`` changes. (``prctl(PR_SET_PDEATHSIG)`` would fire when the *thread* that
    started the worker ends, which a parent run in a thread does long before the process.)
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)  # no cleanup: the parent and its work are gone

    threading.Thread(target=watch, name="salad-parent-watch", daemon=True).start()
