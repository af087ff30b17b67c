"""One bot decision, as a worker process makes it: a bot rebuilt from its name and seed.

The bot object never crosses a process boundary: only ``(name, seed, view)`` goes in and a
move number comes out. The web server's tables seed it with :func:`salad.bots.seeds.bot_seed` of
``"table"``, the game's seed, the seat and the move number; :func:`exit_with_parent` makes a
worker end with its server.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import threading
from multiprocessing.connection import wait

from salad.bots import make_bot
from salad.moves import Move
from salad.view import View

__all__ = ["RANDOM", "choose_move", "exit_with_parent"]

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


def exit_with_parent() -> None:
    """Pool initializer: end this worker process as soon as the process that made its pool
    (the server) is gone.

    A server killed with ``kill -9`` runs no shutdown code, and its pool's workers would wait
    for work forever (each holds the pool's queue open itself). A daemon thread waits on
    ``multiprocessing.parent_process()``'s sentinel instead, which becomes ready when that
    process ends, however the worker was started (``spawn``, or from the fork server, whose
    child it is). (``prctl(PR_SET_PDEATHSIG)`` would fire when the *thread* that started the
    worker ends, which a parent run in a thread does long before the process.)
    """
    parent = multiprocessing.parent_process()
    if parent is None:  # not a worker: nothing to watch
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)  # no cleanup: the parent and its work are gone

    threading.Thread(target=watch, name="salad-parent-watch", daemon=True).start()
