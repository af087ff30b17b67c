"""The local process pool that matches and tournaments play their games on."""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.pool import Pool
from multiprocessing.queues import SimpleQueue
from typing import TypeVar, cast

from salad.errors import SaladError
from salad.lab.games import warm_up

_J = TypeVar("_J")
_R = TypeVar("_R")

#: How often :func:`run_pool` looks whether a worker died while it waits for a result.
CHECK_EVERY = 0.5


class WorkerPool:
    """The processes of :func:`worker_pool`: a :class:`multiprocessing.pool.Pool` and the
    queue its workers write their process ids to when they start."""

    def __init__(self, pool: Pool, started: SimpleQueue[int | str], workers: int) -> None:
        self.pool = pool
        self.workers = workers
        self._started = started

    def run(self, fn: Callable[[], _R]) -> _R:
        """``fn()`` run on one of the workers, its result here."""
        return self.pool.apply(fn)

    def check(self) -> None:
        """Raise :class:`SaladError` if a worker has died since the pool started: the pool
        starts another in its place (which writes its id), but the job it was running is
        lost, and waiting for its result would wait forever."""
        if not self._started.empty():
            raise SaladError(
                "a game worker process died (killed by the system? out of memory?); "
                "the games played so far are kept"
            )


def can_fork() -> bool:
    """Whether worker processes may be forked from this one: on Linux, with no other thread
    running here (a fork copies only the calling thread, so a lock another thread holds
    would stay locked in the child forever)."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def _start_worker(names: Sequence[str], started: SimpleQueue[int | str]) -> None:
    """Pool initializer: leave Ctrl-C to the parent, make SIGTERM kill the worker, import
    the bots, then tell the parent this worker is ready (its process id), or why it could
    not start (a one-line message; the worker then exits, rather than be started again and
    again by the pool while the parent waits).

    Ctrl-C sends SIGINT to the whole process group: a worker that took it printed its own
    traceback under the parent's one line; the parent stops the workers itself (see
    :func:`worker_pool`), so they ignore it.

    A forked worker inherits the parent's Python signal handlers, and ``salad tournament``
    turns SIGTERM into an interrupt; a worker interrupted while it sends a result back then
    retries the send into a pipe nobody reads, and the pool's ``terminate()`` could not stop
    it: the run hung at exit after Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        warm_up(names)
    except Exception as exc:  # the parent says it and stops the pool
        started.put(str(exc))
        sys.exit(1)
    started.put(os.getpid())


@contextmanager
def worker_pool(workers: int, names: Sequence[str]) -> Iterator[WorkerPool | None]:
    """``workers`` processes to play games in, every one started before this returns (None
    for a single worker: play in this process). ``names`` are the bots to import in each.

    The workers are forked from this process when :func:`can_fork` (about 40 ms, with
    every module already imported) and spawned otherwise (a new interpreter: about 0.4 s),
    so start the pool before anything that runs a thread of its own, such as a progress
    bar. On an error or an interrupt inside, the workers are stopped at once
    (``Pool.terminate``), not left to finish their games.
    """
    if workers <= 1:
        yield None
        return
    ctx = multiprocessing.get_context("fork" if can_fork() else "spawn")
    started: SimpleQueue[int | str] = ctx.SimpleQueue()
    pool = ctx.Pool(workers, initializer=_start_worker, initargs=(names, started))
    try:
        for _ in range(workers):
            ready = started.get()
            if isinstance(ready, str):
                raise SaladError(f"a game worker could not start: {ready}")
        yield WorkerPool(pool, started, workers)
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()
        started.close()


def run_pool(
    play: Callable[[_J], _R],
    jobs: Iterable[_J],
    workers: WorkerPool,
    done: Callable[[_R], None],
) -> None:
    """Run ``play(job)`` on the processes of ``workers`` (see :func:`worker_pool`), at most
    two queued per worker at a time.

    ``jobs`` is read lazily (a generator may size the next job from the results so far) and
    ``done`` is called in this process with each result, in the order they finish. An error
    in a job is raised here; so is a worker's death (:meth:`WorkerPool.check`).
    """
    finished: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()

    def submit(job: _J) -> None:
        workers.pool.apply_async(
            play,
            (job,),
            callback=lambda result: finished.put((True, result)),
            error_callback=lambda exc: finished.put((False, exc)),
        )

    pending = 0
    queued = iter(jobs)
    for job in queued:
        submit(job)
        pending += 1
        if pending >= 2 * workers.workers:
            break
    while pending:
        try:
            ok, value = finished.get(timeout=CHECK_EVERY)
        except queue.Empty:
            workers.check()
            continue
        pending -= 1
        if not ok:
            assert isinstance(value, BaseException)
            raise value
        done(cast(_R, value))
        nxt = next(queued, None)
        if nxt is not None:
            submit(nxt)
            pending += 1
