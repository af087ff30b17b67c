"""The language the server speaks to each request and websocket (:mod:`salad.locale`): the
same choice as the pages' (:func:`salad.server.routes.pages.page_language`), with the
language a player chose in between. ``?lang=``, else the ``salad_lang`` cookie the switch
sets, else the stored language of the player the request's cookie names, else the browser's
``Accept-Language`` (English when it offers none).

:class:`SpokenLanguage` is ASGI middleware, outermost: it makes that language current
(:func:`salad.locale.use`) for the whole of a request's handling, errors included, and for the
whole of a websocket's (its task copies the context: every message answered on it, every
error it is sent). A connection keeps its language (``Conn.lang``) for what other tasks say to
it (a close when the table moves). What a table sends to every connection at once (a state, a
chat line, a hand's end) is data: codes and names the client words in its own language.

The choice itself is the pages' (:func:`~salad.server.routes.pages.asked_language`,
:func:`~salad.server.routes.pages.page_language`), read from the scope by Starlette's
:class:`~starlette.requests.HTTPConnection`; this adds the stored language.
"""

from __future__ import annotations

import time

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from salad.locale import using
from salad.server.players.identity import COOKIE, Identities
from salad.server.routes.pages import SPOKEN, asked_language, page_language

REMEMBERED = 60.0
"""Seconds a player's stored language is taken as read (another server's change shows after
this)."""

REMEMBERED_MOST = 10_000
"""Players whose language is remembered at once (past it, all are forgotten)."""

SPOKEN_PATHS = ("/api/", "/ws/")
"""Where the stored language of a player is looked up (an answer with words in it): not the
pages (:func:`~salad.server.routes.pages.page_language`) nor the static files."""


class SpokenLanguage:
    """ASGI middleware: every request and websocket handled in its language (see the module)."""

    def __init__(self, app: ASGIApp, identities: Identities | None = None) -> None:
        self.app = app
        self.identities = identities

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        with using(await self.language(scope)):
            await self.app(scope, receive, send)

    async def language(self, scope: Scope) -> str:
        """The language of a request or websocket (see the module)."""
        conn = HTTPConnection(scope)
        asked = asked_language(conn)
        if asked is not None:
            return asked
        if self.identities is not None and scope["path"].startswith(SPOKEN_PATHS):
            stored = await self.stored_language(conn)
            if stored is not None:
                return stored
        return page_language(conn).code

    async def stored_language(self, conn: HTTPConnection) -> str | None:
        """The language the player the request's cookie names chose, if it names one: read
        from the store at most once every :data:`REMEMBERED` seconds a player (a lobby is
        polled), at once after a change on this server (``/api/me`` forgets it)."""
        assert self.identities is not None
        signed = conn.cookies.get(COOKIE)
        if not signed:
            return None
        player_id = self.identities.read(signed)
        if player_id is None:
            return None
        known = self.identities.languages
        now = time.monotonic()
        kept = known.get(player_id)
        if kept is not None and now - kept[0] < REMEMBERED:
            return kept[1]
        try:
            row = await self.identities.players.player(player_id)
        except Exception:  # the store is down: the request itself will say so
            return None
        language: str | None = None
        if row is not None and row.deleted_at is None and row.language in SPOKEN:
            language = row.language
        if len(known) >= REMEMBERED_MOST:
            known.clear()
        known[player_id] = (now, language)
        return language
