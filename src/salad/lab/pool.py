"""The local process pool that matches and tournaments play their games on."""

from __future__ import annotations

import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

from salad.lab.games import warm_up

_J = TypeVar("_J")
_R = TypeVar("_R")


def can_fork() -> bool:
    """Whether worker processes may be forked from this one: on Linux, with no other thread
    running here (a fork copies only the calling thread, so a lock another thread holds
    would stay locked in the child forever)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def _start_worker(names: Sequence[str]) -> None:
    """Pool initializer: leave Ctrl-C to the parent, make SIGTERM kill the worker, then
    import the bots.

    Ctrl-C sends SIGINT to the whole process group: a worker that took it printed its own
    traceback under the parent's one line; the parent stops the workers itself (see
    :func:`worker_pool`), so they ignore it.

    A forked worker inherits the parent's Python signal handlers, and ``salad tournament``
    turns SIGTERM into an interrupt; a worker interrupted while it sends a result back then
    retries the send into a pipe nobody reads, and the parent's ``terminate()`` could not
    stop it: the run hung at exit after Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    warm_up(names)


def _ready() -> None:
    """A task that does nothing: running it proves a worker started."""


@contextmanager
def worker_pool(workers: int, names: Sequence[str]) -> Iterator[ProcessPoolExecutor | None]:
    """``workers`` processes to play games in, every one started before this returns (None
    for a single worker: play in this process). ``names`` are the bots to import in each.

    The workers are forked from this process when :func:`can_fork` (about 40 ms, with
    every module already imported) and spawned otherwise (a new interpreter: about 0.4 s),
    so start the pool before anything that runs a thread of its own, such as a progress
    bar. On an error or an interrupt inside, the workers are stopped at once, not left to
    finish their games.
    """
    if workers <= 1:
        yield None
        return
    ctx = multiprocessing.get_context("fork" if can_fork() else "spawn")
    pool = ProcessPoolExecutor(workers, ctx, initializer=_start_worker, initargs=(names,))
    try:
        for started in [pool.submit(_ready) for _ in range(workers)]:
            started.result()
        yield pool
    except BaseException:
        # The executor has no public way to stop a running job (before Python 3.14).
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()
        # Wait for the executor's own thread to end here: left running, it closes its wake-up
        # pipe while the interpreter's exit hook writes to it ("Bad file descriptor" printed
        # after a Ctrl-C). The workers are terminated, so this is quick.
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()


def run_pool(
    play: Callable[[_J], _R],
    jobs: Iterable[_J],
    pool: ProcessPoolExecutor,
    workers: int,
    done: Callable[[_R], None],
) -> None:
    """Run ``play(job)`` on the ``workers`` processes of ``pool`` (see :func:`worker_pool`),
    at most two queued per worker at a time.

    ``jobs`` is read lazily (a generator may size the next job from the results so far) and
    ``done`` is called in this process with each result, in the order they finish.
    """
    queue = iter(jobs)
    running: set[Future[_R]] = set()
    try:
        for job in queue:
            running.add(pool.submit(play, job))
            if len(running) >= 2 * workers:
                break
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                done(f.result())
                nxt = next(queue, None)
                if nxt is not None:
                    running.add(pool.submit(play, nxt))
    except BaseException:
        for f in running:
            f.cancel()
        raise
