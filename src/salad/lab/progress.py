"""The progress bar of a match or a tournament: games done, games per second, time left."""

from __future__ import annotations

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
    TimeRemainingColumn,
)
from rich.text import Text


class _Rate(ProgressColumn):
    """Games per second so far."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:.2f} games/s" if rate < 10 else f"{rate:.0f} games/s")


@contextmanager
def rich_progress(label: str, total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr (games done, games/s, time left); yields ``advance()``."""
    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        _Rate(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task(label, total=total)
        yield lambda: progress.advance(task)


@contextmanager
def progress_bar(show: bool, label: str, total: int) -> Iterator[Callable[[], None]]:
    """:func:`rich_progress` when ``show`` and there is something to play, else a no-op."""
    if not show or total == 0:
        yield lambda: None
        return
    with rich_progress(label, total) as advance:
        yield advance
