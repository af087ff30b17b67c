"""Whether a request authenticated by the player's cookie comes from another site: its
``Origin`` (or, without one, its ``Referer``) names another host than the one asked. Browsers
send ``Origin`` with every cross-site POST, DELETE and websocket handshake."""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers


def foreign_origin(headers: Headers) -> str | None:
    """The other site a request comes from (None: this one, or no browser's cross-site request).

    >>> foreign_origin(Headers({"host": "a.example", "origin": "https://a.example"})) is None
    True
    >>> foreign_origin(Headers({"host": "a.example", "origin": "https://evil.example"}))
    'https://evil.example'
    >>> foreign_origin(Headers({"host": "a.example", "origin": "null"}))
    'null'
    """
    origin = headers.get("origin") or headers.get("referer")
    if origin is None:
        return None
    if origin == "null" or urlsplit(origin).netloc != headers.get("host", ""):
        return origin
    return None
