"""The installable web app: its manifest and its service worker.

``/manifest.webmanifest`` names the app in the page's language, its colours and icons (a phone
then offers to install it); ``/sw.js`` is ``web/static/app/sw.js`` with its version and the
URLs it keeps filled in: the pages of :data:`OFFLINE_PAGES` in the language the browser asks
for, and every file each loads (its stylesheets, its modules and theirs, its catalog), all under
their versioned URLs. A release changes those URLs, so the script, which browsers then install
afresh (docs/deploying.md)."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

from salad.locale import _, pgettext, using
from salad.server.routes.pages import REVALIDATE, STATIC_URL, Assets, page_language, version

router = APIRouter()

OFFLINE_PAGES = {"/": "index", "/sheet": "sheet", "/howto": "howto"}
"""The pages kept for when there is no network (their path and their file)."""

THEME = "#0c3b27"
"""The pages' ``theme-color``: the app's bar and splash screen."""

SCRIPT_SRC = '<script src="'
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
"""The app's icons under ``/static/``: their size and purpose (a maskable one keeps its drawing
inside the safe circle a phone crops it to)."""


def offline_urls(assets: Assets, request: Request) -> list[str]:
    """The URLs the service worker keeps: :data:`OFFLINE_PAGES` and every file they load."""
    lang = page_language(request)
    urls: list[str] = []
    for path, name in OFFLINE_PAGES.items():
        html = assets.written(name, lang)[0].decode()
        urls.append(path)
        urls += [assets.url(file) for _attr, file in STATIC_URL.findall(unversioned(html))]
        urls += [assets.url(module.removeprefix("web/static/")) for module in assets.modules(html)]
        urls += [
            url.split('"', 1)[0]
            for url in html.split(SCRIPT_SRC)[1:]
            if url.startswith("/i18n/")  # the page's catalog in its language
        ]
    return list(dict.fromkeys(u for u in urls if u))  # once each, in order


def unversioned(html: str) -> str:
    """A written page's ``/static/`` URLs without their ``?v=`` (to read them with
    :data:`STATIC_URL`, which takes only plain ones)."""
    return html.replace("?v=", '" data-v="')


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker, for the language the browser asks in; revalidated on each visit
    (browsers look for a new one at least once a day anyway)."""
    assets: Assets = request.app.state.assets
    urls = offline_urls(assets, request)
    template = (assets.root / "app" / "sw.js").read_text(encoding="utf-8")
    body = template.replace("__PRECACHE__", json.dumps(urls)).replace(
        "__VERSION__", version("\n".join(urls).encode())
    )
    response = assets.remembered(
        body.encode(), "text/javascript", f'"{version(body.encode())}"', request.headers
    )
    response.headers["cache-control"] = REVALIDATE
    response.headers["vary"] = "Accept-Language, Cookie"
    return response


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(request: Request) -> Response:
    """The web app manifest, in the language the browser asks in."""
    assets: Assets = request.app.state.assets
    lang = page_language(request)
    with using(lang.code):
        name, short = pgettext("app", "Canadian Salad"), pgettext("app", "Salad")
        about = _("Play Canadian Salad with friends and bots, and keep score with real cards.")
    data = {
        "name": name,
        "short_name": short,
        "description": about,
        "lang": lang.tag,
        "id": "/",  # the app's identity: one app whatever its start URL becomes
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME,
        "theme_color": THEME,
        "icons": [
            {"src": assets.url(file), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for file, sizes, purpose in ICONS
        ],
    }
    body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    response = assets.remembered(
        body, "application/manifest+json", f'"{version(body)}"', request.headers
    )
    response.headers["cache-control"] = REVALIDATE
    response.headers["vary"] = "Accept-Language, Cookie"
    return response
