"""Writing a file whole or not at all: the text goes to a file beside it, which is then renamed
over it, so that a write cut short (a full disk, a closed terminal, ``kill``) leaves the last
whole file, never half of one. Records, score sheets, games kept in progress and a tournament's
tables are written so."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (through ``PATH.tmp``); an
    ``OSError`` says why it was not written."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
