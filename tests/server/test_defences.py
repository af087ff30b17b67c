"""The browser's own defences in every HTTP answer of a real server (issue #40, item 6): a
Content-Security-Policy that allows no inline script but the pages' import map, no framing,
``nosniff``, ``Referrer-Policy``, and HSTS over HTTPS only. tests/e2e runs every page under the
policy (a breach fails the test) and shows the browser refusing an inline script."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from salad.server.defences import API_POLICY, HSTS, POLICY, Defences

IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)


def directives(header: str) -> dict[str, str]:
    return {part.split(" ", 1)[0]: part for part in header.split("; ")}


def test_every_answer_carries_its_defences(server: Any) -> None:
    """A page: its policy (no framing, no plugins, no inline script or eval) and its
    Referrer-Policy; every answer but the client's own files: nosniff; none: HSTS (plain HTTP)."""
    for path in ("/", "/sheet", "/table/AbCdEfGh", "/p/nobody"):
        r = server.http.get(path)
        assert r.headers["content-type"].startswith("text/html"), path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "same-origin", path
        policy = directives(r.headers["content-security-policy"])
        assert policy["default-src"] == "default-src 'self'", path
        assert policy["frame-ancestors"] == "frame-ancestors 'none'", path
        assert policy["object-src"] == "object-src 'none'", path
        assert policy["base-uri"] == "base-uri 'none'", path
        assert "'unsafe-inline'" not in policy["script-src"], path
        assert "'unsafe-eval'" not in policy["script-src"], path
        assert HSTS[0] not in r.headers, path
    for path in ("/api/options", "/api/tables/nothing", "/i18n/fr/table.js", "/openapi.json"):
        r = server.http.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert "content-security-policy" not in r.headers, path  # not a page
    assert "x-content-type-options" not in server.http.get("/static/js/table.js").headers


def test_a_page_allows_its_own_import_map_and_no_other_inline_script(server: Any) -> None:
    """The one inline script of a page, its import map, is allowed by its hash: the same
    text's, byte for byte."""
    for path in ("/", "/howto", "/table/AbCdEfGh"):
        r = server.http.get(path)
        scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", r.text)
        assert scripts == ['<script type="importmap">'], (path, scripts)
        found = IMPORT_MAP.search(r.text)
        assert found is not None
        digest = base64.b64encode(hashlib.sha256(found.group(1).encode()).digest()).decode()
        script_src = directives(r.headers["content-security-policy"])["script-src"]
        assert script_src == f"script-src 'self' 'sha256-{digest}'", path


def test_the_api_pages_get_their_cdn_and_nothing_else_does(server: Any) -> None:
    r = server.http.get("/docs")
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == API_POLICY
    assert "cdn.jsdelivr.net" not in server.http.get("/").headers["content-security-policy"]


@pytest.mark.parametrize(("base", "hsts"), [("https://salad.test", True), ("http://t", False)])
def test_hsts_only_over_https(base: str, hsts: bool) -> None:
    """HSTS rides on an answer to a request that came over HTTPS (the scheme the server was
    given: behind a proxy, the one it says), never on plain HTTP; a page with no policy of its
    own gets the site's."""

    async def hello(_request: Any) -> HTMLResponse:
        return HTMLResponse("hello")

    async def get() -> httpx.Response:
        app = Defences(Starlette(routes=[Route("/", hello)]))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=base) as client:
            return await client.get("/")

    r = asyncio.run(get())
    assert r.text == "hello"
    assert (r.headers.get(HSTS[0]) == HSTS[1]) is hsts
    assert r.headers["content-security-policy"] == POLICY  # a page without a policy of its own
