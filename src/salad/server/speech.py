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

>>> scope = {"type": "http", "path": "/api/me", "query_string": b"lang=fr", "headers": []}
>>> asked_language(scope)
'fr'
>>> header = [(b"accept-language", b"fr-CA,fr;q=0.9")]
>>> asked_language({**scope, "query_string": b""}) is None, browser_language(header)
(True, 'fr')
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

from salad.locale import from_accept_language, using
from salad.server.players.identity import COOKIE, Identities
from salad.server.routes.pages import LANGUAGE_COOKIE, SPOKEN

REMEMBERED = 60.0
"""Seconds a player's stored language is taken as read (another server's change shows after
this)."""

REMEMBERED_MOST = 10_000
"""Players whose language is remembered at once (past it, all are forgotten)."""

SPOKEN_PATHS = ("/api/", "/ws/")
"""Where the stored language of a player is looked up (an answer with words in it): not the
pages (:func:`~salad.server.routes.pages.page_language`) nor the static files."""


def cookies(headers: Iterable[tuple[bytes, bytes]]) -> dict[str, str]:
    """The cookies of a request's headers (a malformed one is skipped)."""
    jar: SimpleCookie = SimpleCookie()
    for name, value in headers:
        if name == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:  # a cookie the standard library cannot read: not ours
                continue
    return {key: str(morsel.value) for key, morsel in jar.items()}


def asked_language(scope: Scope) -> str | None:
    """The language a request names itself: ``?lang=``, else the switch's cookie."""
    query: bytes = scope.get("query_string", b"")
    asked: str | None = next(iter(parse_qs(query.decode("latin-1")).get("lang", [])), None)
    if asked in SPOKEN:
        return asked
    asked = cookies(scope.get("headers", ())).get(LANGUAGE_COOKIE)
    return asked if asked in SPOKEN else None


def browser_language(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """The language of a request's ``Accept-Language`` (English when none is offered)."""
    for name, value in headers:
        if name == b"accept-language":
            return from_accept_language(value.decode("latin-1"))
    return from_accept_language("")


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
        asked = asked_language(scope)
        if asked is not None:
            return asked
        headers = scope.get("headers", ())
        if self.identities is not None and scope["path"].startswith(SPOKEN_PATHS):
            stored = await self.stored_language(headers)
            if stored is not None:
                return stored
        return browser_language(headers)

    async def stored_language(self, headers: Iterable[tuple[bytes, bytes]]) -> str | None:
        """The language the player the request's cookie names chose, if it names one: read
        from the store at most once every :data:`REMEMBERED` seconds a player (a lobby is
        polled), at once after a change on this server (``/api/me`` forgets it)."""
        assert self.identities is not None
        signed = cookies(headers).get(COOKIE)
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
