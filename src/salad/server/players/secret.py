"""The server secret that signs the players' cookies (docs/deploying.md).

``SALAD_SECRET`` in the environment (at least :data:`MIN_LENGTH` characters; every node of a
cluster must be given the same one), else the file ``secret`` in the server's data directory
(beside the default database), made on the first start with 48 random bytes and readable by its
owner only. A secret changed or lost signs every player out: their rows stay, their browsers no
longer name them.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from platformdirs import user_data_path

from salad.errors import SaladError

ENV = "SALAD_SECRET"
MIN_LENGTH = 32


def secret_file() -> Path:
    """Where the secret is kept when the environment gives none."""
    return user_data_path("salad", appauthor=False) / "secret"


def server_secret(path: Path | None = None) -> str:
    """The secret (see above): the environment's, else the file's, made if missing. A secret
    too short, or a file that cannot be read or made, is a one-line :class:`SaladError`.

    >>> import os, tempfile, pathlib
    >>> where = pathlib.Path(tempfile.mkdtemp()) / "secret"
    >>> os.environ.pop(ENV, None) and None
    >>> first = server_secret(where)
    >>> first == server_secret(where), len(first) >= MIN_LENGTH, oct(where.stat().st_mode & 0o777)
    (True, True, '0o600')
    """
    given = os.environ.get(ENV)
    if given is not None:
        if len(given) < MIN_LENGTH:
            raise SaladError(f"{ENV}: at least {MIN_LENGTH} characters, not {len(given)}")
        return given
    path = path or secret_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made before (or by another server starting at the same moment)
        pass
    except OSError as exc:
        raise SaladError(f"secret file {path}: cannot be made ({exc.strerror})") from None
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(48))
    for _ in range(50):  # the other server's write, if it is being written
        try:
            text = path.read_text().strip()
        except OSError as exc:
            raise SaladError(f"secret file {path}: cannot be read ({exc.strerror})") from None
        if len(text) >= MIN_LENGTH:
            return text
        time.sleep(0.01)
    raise SaladError(f"secret file {path}: shorter than {MIN_LENGTH} characters")
