"""Writing a file whole or not at all: the text goes to a file beside it, which is then renamed
over it, so that a write cut short (a full disk, a closed terminal, ``kill``) leaves the last
whole file, never half of one. Records, score sheets, games kept in progress, a tournament's
tables and the command's compiled catalogs are written so."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: str | os.PathLike[str], text: str | bytes) -> None:
    """Write ``text`` (UTF-8, or bytes as they are) to ``path`` whole or not at all (through
    ``PATH.tmp``); an ``OSError`` says why it was not written."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_bytes(text.encode() if isinstance(text, str) else text)
    os.replace(tmp, target)
