"""The one-line check of a database that ``salad serve`` makes before it listens."""

from __future__ import annotations

import asyncio

from alembic.util import CommandError
from sqlalchemy.exc import SQLAlchemyError

from salad.errors import SaladError
from salad.server.store.sql import SqlStore
from salad.server.store.urls import shown_url

__all__ = ["check_database"]


def check_database(url: str) -> str:
    """Open the database at ``url`` once (bringing its schema up to date) and return it as
    shown to people (no password); any problem is a one-line :class:`SaladError` naming it (a
    database of a newer salad, at a revision this one does not know, too).
    Called where no event loop runs (``salad serve`` before it listens).

    >>> check_database("garbage://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    salad.errors.SaladError: database garbage://x: not a database the server knows (use ...)
    """
    shown = shown_url(url)

    async def opened() -> None:
        store = SqlStore(url)
        try:
            await store.open()
        finally:
            await store.close()

    try:
        asyncio.run(opened())
    except (SQLAlchemyError, CommandError, ImportError, OSError) as exc:
        reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
        raise SaladError(f"database {shown}: cannot be opened ({reason})") from None
    return shown
