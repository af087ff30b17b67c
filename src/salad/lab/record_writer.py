"""Records written as JSON Lines in schedule order while the games finish in any order."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from salad.errors import RecordError
from salad.formats.records import dump_record


class RecordWriter:
    """Writes game ``k``'s record as soon as every game before it is written."""

    def __init__(self, path: Path, fh: IO[str], start: int = 0) -> None:
        self.path = path
        self.fh = fh
        self.next = start
        """The index of the next game to write."""
        self.waiting: dict[int, dict[str, Any]] = {}

    def add(self, index: int, record: dict[str, Any]) -> None:
        self.waiting[index] = record
        try:
            while self.next in self.waiting:
                self.fh.write(dump_record(self.waiting.pop(self.next)) + "\n")
                self.next += 1
        except OSError as exc:
            raise RecordError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def flush(self) -> None:
        self.fh.flush()


@contextmanager
def open_records(
    path: Path | None, *, append: bool = False, start: int = 0
) -> Iterator[RecordWriter | None]:
    """A :class:`RecordWriter` on ``path`` (None for no path), its first game ``start``."""
    if path is None:
        yield None
        return
    try:
        fh = open(path, "a" if append else "w", encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise RecordError(f"{path}: cannot write ({exc.strerror or exc})") from None
    with fh:
        yield RecordWriter(path, fh, start)
