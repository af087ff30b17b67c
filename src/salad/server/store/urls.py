"""Which database: the URL from what a user gives, the default SQLite file, and the checks of a
URL that need no connection."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_path
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from salad.errors import SaladError

__all__ = ["CONNECT_TIMEOUT", "DIALECTS", "database_url", "default_database_path", "shown_url"]

CONNECT_TIMEOUT = 10
"""Seconds a new connection to a server database may take (libpq's ``connect_timeout``,
unless the URL names one): a server that accepts the connection and never answers, frozen or
behind a network that drops its packets, is an error instead of a wait for ever, when the
server starts (``salad serve`` says so in one line) as when a connection is made again."""

DIALECTS = ("sqlite", "postgresql")
"""The databases the server runs on."""


def default_database_path() -> Path:
    """The SQLite file used when no database is given (in the user data directory)."""
    return user_data_path("salad", appauthor=False) / "salad.db"


def database_url(value: str | None) -> str:
    """A SQLAlchemy URL from what a user gives: nothing (the default SQLite file), a path,
    ``sqlite:///...`` or ``postgresql://...`` (mapped to the psycopg driver)."""
    if not value:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    for prefix in ("postgresql://", "postgres://"):
        if value.startswith(prefix):
            return "postgresql+psycopg://" + value[len(prefix) :]
    if "://" not in value:
        return f"sqlite:///{Path(value).expanduser().resolve()}"
    return value


def shown_url(url: str) -> str:
    """``url`` as shown to people (no password), once checked without opening anything: a
    database the server knows, in a folder that exists; else a one-line :class:`SaladError`.

    >>> shown_url("garbage://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: database garbage://x: not a database the server knows (use ...)
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise SaladError(f"database {url}: not a database URL or a file path") from None
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() not in DIALECTS:
        raise SaladError(
            f"database {shown}: not a database the server knows (use a SQLite file path, "
            "sqlite:///FILE or postgresql://user:password@host/name)"
        )
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        folder = Path(parsed.database).expanduser().parent
        if not folder.is_dir():
            raise SaladError(f"database {shown}: the folder {folder} does not exist")
    return shown
