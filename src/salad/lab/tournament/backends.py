"""Where a tournament's games are played: processes of this machine, or a Ray cluster.

Both backends send batches of games per task, sized from the measured time per game
(:class:`Batches`), and hand each finished batch back to this process in the order they finish.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from salad.errors import SaladError
from salad.lab.games import GameJob, PlayedGame, play_game
from salad.lab.pool import WorkerPool, run_pool

BACKENDS = ("local", "ray")
TASK_SECONDS = 0.5
"""Aimed-for duration of one task (a batch of games) on a worker."""
MAX_BATCH = 256
RAY_HINT = "pip install 'canadian-salad[ray]'"

Finished = Callable[[tuple[list[PlayedGame], float]], None]
"""Called in this process with each finished batch: its games and the seconds they took."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def play_batch(jobs: Sequence[GameJob]) -> tuple[list[PlayedGame], float]:
    """Play a batch of games (in a worker); their results and the seconds they took."""
    start = time.perf_counter()
    played = [play_game(job) for job in jobs]
    return played, time.perf_counter() - start


class Batches:
    """The jobs cut into batches of about :data:`TASK_SECONDS` each, from the times so far.

    The first batches hold one game each; once games have been timed, a batch holds as many
    as fit the aimed-for time, at most :data:`MAX_BATCH`, and never more than a share of what
    is left (so that the last batches end together on every worker).
    """

    def __init__(self, jobs: Sequence[GameJob]) -> None:
        self.jobs = jobs
        self.workers = 1
        """Workers the games are shared among: set by the backend once it knows."""
        self.pos = 0
        self.games = 0
        self.seconds = 0.0

    def timed(self, games: int, seconds: float) -> None:
        """Count a finished batch: ``games`` games played in ``seconds``."""
        self.games += games
        self.seconds += seconds

    def __iter__(self) -> Iterator[list[GameJob]]:
        return self

    def __next__(self) -> list[GameJob]:
        left = len(self.jobs) - self.pos
        if left <= 0:
            raise StopIteration
        size = 1
        if self.games and self.seconds > 0:
            size = max(1, min(MAX_BATCH, round(TASK_SECONDS * self.games / self.seconds)))
        size = min(size, max(1, left // (2 * self.workers)))
        batch = list(self.jobs[self.pos : self.pos + size])
        self.pos += len(batch)
        return batch


def import_ray() -> Any:
    """The ``ray`` module, or a one-line error naming the extra to install."""
    # Ray is an optional extra (canadian-salad[ray]): imported only for --backend ray.
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise SaladError(f"backend ray: Ray is not installed here ({RAY_HINT})") from None


def run_local(pool: WorkerPool | None, batches: Batches, workers: int, finished: Finished) -> None:
    """Play the batches on the local ``pool`` of ``workers`` processes (None: in this one)."""
    batches.workers = workers
    if pool is None:
        for batch in batches:
            finished(play_batch(batch))
    else:
        run_pool(play_batch, batches, pool, finished)


def run_ray(
    ray: Any,
    batches: Batches,
    workers: int | None,
    address: str | None,
    finished: Finished,
) -> int:
    """Play the batches as Ray tasks; the number of tasks run at a time."""
    started = not ray.is_initialized()
    if started:
        try:
            if address is None:
                start_local_ray(ray)
            else:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except Exception as exc:
            where = f"cannot connect to {address}" if address else "cannot start a local Ray"
            raise SaladError(f"backend ray: {where} ({_one_line(exc)})") from None
    running: dict[Any, int] = {}
    try:
        used = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        batches.workers = used
        task = ray.remote(num_cpus=1, max_retries=0)(play_batch)
        for batch in itertools.islice(batches, 2 * used):
            running[task.remote(batch)] = len(batch)
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                del running[ref]
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, SaladError):
                        raise SaladError(str(cause)) from None
                    raise
                finished(result)
                nxt = next(batches, None)
                if nxt is not None:
                    running[task.remote(nxt)] = len(nxt)
    except BaseException:
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            ray.shutdown()
    return used


def start_local_ray(ray: Any) -> None:
    """Start a Ray instance on this machine for a run: every core, no dashboard, quiet.

    Its workers run at the normal priority (``RAY_worker_niceness=0`` unless set already):
    Ray's default, niceness 15, leaves them only the CPU time nothing else on the machine
    wants, which on a shared machine halves a tournament's speed for nothing.
    """
    key = "RAY_worker_niceness"
    before = os.environ.get(key)
    os.environ.setdefault(key, "0")
    try:
        ray.init(
            address="local",
            num_cpus=cores(),
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )
    finally:
        if before is None:
            del os.environ[key]


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
