"""The progress bar of a match or a tournament: games done, the rate, time left; and how a rate
is written for people (games per second, or seconds per game when slower than one a second).
On a stderr that is not a terminal (a pipe, a log file) the same figures come as a line every
:data:`LINE_EVERY` seconds instead of a bar, which Rich draws only on a terminal.

The rate and the time left come from the recent rate (:class:`RecentRate`, the last
:data:`WINDOW` seconds), not from Rich's own estimate: games finish in batches, so Rich's
samples bunch up and its time left was off by a factor of three.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

WINDOW = 30.0
"""Seconds of recent progress the rate and the time left are estimated from."""

LINE_EVERY = 10.0
"""Seconds between two progress lines on a stderr that is not a terminal."""


def format_rate(games: int, seconds: float, short: bool = False) -> str:
    """``games`` played in ``seconds`` as people read it: games per second from one a second
    up, seconds per game below (never "0.0 games per second").

    >>> format_rate(250, 10.0)
    '25.0 games per second'
    >>> format_rate(3, 10.0)
    '3.3 seconds per game'
    >>> format_rate(1, 125.0, short=True)
    '125 s/game'
    >>> format_rate(0, 0.0)
    'no games played'
    """
    if games <= 0 or seconds <= 0:
        return "no games played" if games <= 0 else f"{games} games in no time"
    rate = games / seconds
    if rate >= 1:
        number = f"{rate:.0f}" if short and rate >= 10 else f"{rate:.1f}"
        return f"{number} games/s" if short else f"{number} games per second"
    per_game = seconds / games
    number = f"{per_game:.0f}" if per_game >= 100 else f"{per_game:.1f}"
    return f"{number} s/game" if short else f"{number} seconds per game"


class RecentRate:
    """Games per second over the last ``window`` seconds, counting the time up to now (so that
    a stall shows at once), from the start while the run is younger than that."""

    def __init__(self, window: float = WINDOW, clock: Callable[[], float] = time.monotonic):
        self.window = window
        self.clock = clock
        self.done = 0
        self.samples: deque[tuple[float, int]] = deque([(clock(), 0)])

    def add(self, games: int = 1) -> None:
        """Count ``games`` finished now."""
        self.done += games
        now = self.clock()
        self.samples.append((now, self.done))
        # keep one sample at or before the window's start: the rate is measured from it
        while len(self.samples) > 2 and self.samples[1][0] <= now - self.window:
            self.samples.popleft()

    def span(self) -> tuple[int, float]:
        """Games finished and seconds elapsed over the recent window, up to now."""
        since, done_then = self.samples[0]
        return self.done - done_then, self.clock() - since

    def left(self, remaining: int) -> float | None:
        """Seconds the ``remaining`` games should take at the recent rate (None: not known)."""
        games, seconds = self.span()
        if games <= 0 or seconds <= 0:
            return None
        return remaining * seconds / games


class _Rate(ProgressColumn):
    """The recent rate: games per second, or seconds per game."""

    def __init__(self, rate: RecentRate) -> None:
        super().__init__()
        self.rate = rate

    def render(self, task: Task) -> Text:
        games, seconds = self.rate.span()
        return Text(format_rate(games, seconds, short=True) if games else "")


def format_left(seconds: float | None) -> str:
    """Time left as ``H:MM:SS`` (``-:--:--``: not known yet).

    >>> format_left(3725.2), format_left(None)
    ('1:02:05', '-:--:--')
    """
    if seconds is None:
        return "-:--:--"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


class _Left(ProgressColumn):
    """Time left at the recent rate."""

    def __init__(self, rate: RecentRate) -> None:
        super().__init__()
        self.rate = rate

    def render(self, task: Task) -> Text:
        total = task.total or 0
        return Text(format_left(self.rate.left(max(0, int(total - task.completed)))))


@contextmanager
def rich_progress(label: str, total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr (games done, the rate, time left); yields ``advance()``. On a
    stderr that is not a terminal, a line of the same figures every :data:`LINE_EVERY`
    seconds and one at the end."""
    rate = RecentRate()
    console = Console(stderr=True)
    if not console.is_terminal:
        with line_progress(console, label, total, rate) as advance:
            yield advance
        return
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        _Rate(rate),
        TimeElapsedColumn(),
        TextColumn("left"),
        _Left(rate),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total)

        def advance() -> None:
            rate.add()
            progress.advance(task)

        yield advance


@contextmanager
def line_progress(
    console: Console, label: str, total: int, rate: RecentRate, every: float = LINE_EVERY
) -> Iterator[Callable[[], None]]:
    """Progress as lines on ``console``: "LABEL: 120/1000 games, 41 games/s, 0:00:21 left",
    every ``every`` seconds and once at the end; yields ``advance()``."""
    last = rate.clock()

    def line() -> None:
        games, seconds = rate.span()
        speed = format_rate(games, seconds, short=True)
        left = format_left(rate.left(total - rate.done))
        console.print(f"{label}: {rate.done}/{total} games, {speed}, {left} left", markup=False)

    def advance() -> None:
        nonlocal last
        rate.add()
        if rate.clock() - last >= every and rate.done < total:
            last = rate.clock()
            line()

    yield advance
    line()


@contextmanager
def progress_bar(show: bool, label: str, total: int) -> Iterator[Callable[[], None]]:
    """:func:`rich_progress` when ``show`` and there is something to play, else a no-op."""
    if not show or total == 0:
        yield lambda: None
        return
    with rich_progress(label, total) as advance:
        yield advance
