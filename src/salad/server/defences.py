"""The browser's own defences, in the headers of the server's HTTP answers.

On a page (an HTML answer):

- ``Content-Security-Policy``: scripts only from the site's own files (the pages load ES
  modules; no inline script but a page's import map, allowed by its hash; no ``eval``),
  everything else from the site too, no plugins, no ``<base>``, forms posted only here, and no
  framing (``frame-ancestors 'none'``, which every browser of the ES modules the pages need
  knows). Styles may be inline: the table sets CSS custom properties in ``style`` attributes.
- ``Referrer-Policy: same-origin``: a table's URL, which names it, never leaves the site.

On every answer but the client's own files (``/static/``: the server's files, by their
extension, and cached for a year: 26 requests of a table's first visit, whose budget is 80 KB):
``X-Content-Type-Options: nosniff``. Over HTTPS (the scheme uvicorn reports; behind a proxy,
the one it was told), on every answer: ``Strict-Transport-Security``.

FastAPI's API pages (``/docs``, ``/redoc``) load Swagger UI and ReDoc from their CDN with an
inline script: they get a policy that allows those, and nothing else does.
"""

from __future__ import annotations

import base64
import hashlib

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["API_PAGES", "HSTS", "NOSNIFF", "PAGE_HEADERS", "POLICY", "Defences", "policy"]


def policy(*inline_scripts: str) -> str:
    """The site's policy, allowing the ``inline_scripts`` given (their texts, by their SHA-256:
    a page's import map).

    >>> policy().split("; ")[1], policy("{}").split("; ")[1]
    ("script-src 'self'", "script-src 'self' 'sha256-RBNvo1WzZ4oRRq0W9+hknpT7T8If536DEMBg9hyq/4o='")
    """
    allowed = "".join(
        f" 'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"
        for text in inline_scripts
    )
    return "; ".join(
        (
            "default-src 'self'",
            f"script-src 'self'{allowed}",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data:",  # the pages' icon is an SVG in a data: URL
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        )
    )


POLICY = policy()
"""The policy of an HTML answer that has none of its own (the pages have theirs, which allow
their import map: routes/pages.py) but FastAPI's API pages."""

CDN = "https://cdn.jsdelivr.net"
API_POLICY = "; ".join(
    (
        f"default-src 'self' {CDN}",
        f"script-src 'self' 'unsafe-inline' {CDN}",
        f"style-src 'self' 'unsafe-inline' {CDN}",
        f"img-src 'self' data: {CDN} https://fastapi.tiangolo.com",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    )
)
"""The policy of FastAPI's API pages: their CDN's scripts and styles and their inline script."""

API_PAGES = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})

PAGE_HEADERS = (("referrer-policy", "same-origin"),)
"""A page's headers besides its policy."""
NOSNIFF = ("x-content-type-options", "nosniff")
HSTS = ("strict-transport-security", "max-age=31536000")
"""Over HTTPS: a year of HTTPS only (without subdomains, which may be other sites)."""
STATIC = "/static/"


class Defences:
    """ASGI middleware: on a page (HTML), the policy (the answer's own, else :data:`POLICY`, or
    :data:`API_POLICY` on :data:`API_PAGES`) and :data:`PAGE_HEADERS`; :data:`NOSNIFF` on every
    answer but the client's files; :data:`HSTS` over HTTPS. Websockets pass by."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        page_policy = API_POLICY if path in API_PAGES else POLICY
        ours = path.startswith(STATIC)
        secure = scope.get("scheme") == "https"

        async def defended(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if headers.get("content-type", "").startswith("text/html"):
                    headers.setdefault("content-security-policy", page_policy)
                    for name, value in PAGE_HEADERS:
                        headers.setdefault(name, value)
                if not ours:
                    headers.setdefault(*NOSNIFF)
                if secure:
                    headers.setdefault(*HSTS)
            await send(message)

        await self.app(scope, receive, defended)
