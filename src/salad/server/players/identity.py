"""Who a request comes from: the player id in its signed cookie (:data:`COOKIE`), made on the
first visit (:meth:`Identities.ensure`), with no password and no e-mail.

The cookie holds the id signed with the server secret (itsdangerous), so it cannot be forged or
changed to another player's: a cookie whose signature fails is no identity at all. It is
``HttpOnly`` (no script reads it), ``SameSite=Lax`` (not sent with another site's POST) and
``Secure`` when the request came over HTTPS.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Protocol

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.requests import HTTPConnection
from starlette.responses import Response

from salad.locale import LANGUAGES as SPOKEN
from salad.locale import from_accept_language
from salad.server.store.players import PlayerRow, PlayerStore

COOKIE = "salad_player"
COOKIE_AGE = 400 * 24 * 3600
"""Seconds a browser keeps the cookie (the most browsers allow): renewed on every visit."""

SALT = "salad.player"

COLOURS = ("#c0392b", "#d35400", "#b7950b", "#1e8449", "#117a65", "#1f618d", "#6c3483", "#884ea0")
"""The colours a new player is given one of at random (they may choose any ``#rrggbb``)."""

LANGUAGES = tuple(SPOKEN)
"""The languages a player may choose (the codes of :data:`salad.locale.LANGUAGES`)."""


class PlayerPart(Protocol):
    """What one part of the site holds about a player (their seats, ratings, groups...): what a
    player's export shows of it, and how a player's deletion forgets it. Each part registers
    itself in :attr:`Identities.parts`."""

    name: str
    """The key of this part in the export's JSON."""

    async def export(self, player_id: str) -> Any:
        """Everything this part holds about the player, as JSON values."""

    async def forget(self, player_id: str) -> None:
        """Forget the player (a deletion), leaving the records of finished games whole."""


@dataclass
class Identities:
    """The players' cookies, signed with ``secret``, and their rows in ``players``."""

    players: PlayerStore
    secret: str
    parts: list[PlayerPart] = field(default_factory=list)
    """The site's parts that hold something about players (see :class:`PlayerPart`)."""
    languages: dict[str, tuple[float, str | None]] = field(default_factory=dict)
    """Each player's stored language as last read, and when (:mod:`salad.server.speech`)."""

    def __post_init__(self) -> None:
        self.signer = URLSafeSerializer(self.secret, salt=SALT)

    def player_id(self, conn: HTTPConnection) -> str | None:
        """The player id a request's cookie names, if its signature holds."""
        cookie = conn.cookies.get(COOKIE)
        return self.read(cookie) if cookie else None

    def read(self, cookie: str) -> str | None:
        """The player id a cookie's value names, if its signature holds."""
        try:
            value = self.signer.loads(cookie)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None

    async def current(self, conn: HTTPConnection) -> PlayerRow | None:
        """The player a request comes from (None: no cookie, a forged one, a deleted player)."""
        player_id = self.player_id(conn)
        if player_id is None:
            return None
        row = await self.players.player(player_id)
        return None if row is None or row.deleted_at is not None else row

    async def ensure(self, conn: HTTPConnection, response: Response) -> PlayerRow:
        """The request's player, made now if it has none (a first visit): its cookie is set (or
        renewed) on ``response``."""
        row = await self.current(conn)
        if row is None:
            row = PlayerRow(
                id=secrets.token_urlsafe(16),
                name=None,
                colour=random.choice(COLOURS),
                language=from_accept_language(conn.headers.get("accept-language", "")),
            )
            await self.players.create_player(row)
        self.set_cookie(conn, response, row.id)
        return row

    def set_cookie(self, conn: HTTPConnection, response: Response, player_id: str) -> None:
        response.set_cookie(
            COOKIE,
            self.signer.dumps(player_id),
            max_age=COOKIE_AGE,
            httponly=True,
            samesite="lax",
            secure=conn.url.scheme in ("https", "wss"),
            path="/",
        )
