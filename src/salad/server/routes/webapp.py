"""The installable web app: its manifest and its service worker.

``/manifest.webmanifest`` names the app in the page's language, its colours and icons (a phone
then offers to install it); ``/sw.js`` is ``web/static/app/sw.js`` with its version and the
URLs it keeps filled in: the pages of :data:`OFFLINE_PAGES` in the language the browser asks
for, and every file each loads (its stylesheets, its modules and theirs, its catalog), all under
their versioned URLs. A release changes those URLs, so the script, which browsers then install
afresh (docs/deploying.md)."""

from __future__ import annotations

import json
import re
from functools import lru_cache

from fastapi import APIRouter, Request
from fastapi.responses import Response

from salad.locale import Language, _, pgettext, using
from salad.server.routes.pages import REVALIDATE, Assets, page_language, version

router = APIRouter()

OFFLINE_PAGES = {"/": "index", "/sheet": "sheet", "/howto": "howto"}
"""The pages kept for when there is no network (their path and their file)."""

THEME = "#0c3b27"
"""The pages' ``theme-color``: the app's bar and splash screen."""

ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
"""The app's icons under ``/static/``: their size and purpose (a maskable one keeps its drawing
inside the safe circle a phone crops it to)."""


KEPT_URL = re.compile(r'(?<=\s)(?:src|href)="(/(?:static|i18n)/[^"]+)"')
"""A written page's reference to a file it loads, its URL already versioned: a stylesheet, an
icon, a module script, its catalog (``/i18n/...``)."""


def offline_urls(assets: Assets, lang: Language) -> list[str]:
    """The URLs the service worker keeps: :data:`OFFLINE_PAGES` and every file they load
    (what their tags name, and the modules their scripts import, all the way down)."""
    urls: list[str] = []
    for path, name in OFFLINE_PAGES.items():
        html = assets.written(name, lang)[0].decode()
        urls += [path, *KEPT_URL.findall(html)]
        modules = sorted(assets.modules(html))  # a set: in its order, the hash seed's
        urls += [assets.url(module.removeprefix("web/static/")) for module in modules]
    # Once each, in an order of their own: the same files give every process the same script
    # (a node or a restart must not make browsers install the worker anew).
    return list(dict.fromkeys(urls))


@lru_cache(maxsize=16)
def worker_script(assets: Assets, lang: Language) -> bytes:
    """``/sw.js`` in ``lang``, made once (a browser asks for it again at every visit)."""
    urls = offline_urls(assets, lang)
    template = (assets.root / "app" / "sw.js").read_text(encoding="utf-8")
    return (
        template.replace("__PRECACHE__", json.dumps(urls))
        .replace("__VERSION__", version("\n".join(urls).encode()))
        .encode()
    )


@lru_cache(maxsize=16)
def manifest_text(assets: Assets, lang: Language) -> bytes:
    """The manifest in ``lang``, made once."""
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
    return json.dumps(data, ensure_ascii=False, indent=1).encode()


def answer(body: bytes, media_type: str, request: Request) -> Response:
    """``body`` with its ETag (304 if the browser has it), revalidated at each visit, by the
    language the request asks in."""
    assets: Assets = request.app.state.assets
    response = assets.remembered(body, media_type, f'"{version(body)}"', request.headers)
    response.headers["cache-control"] = REVALIDATE
    response.headers["vary"] = "Accept-Language, Cookie"
    return response


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker, for the language the browser asks in; revalidated on each visit
    (browsers look for a new one at least once a day anyway)."""
    body = worker_script(request.app.state.assets, page_language(request))
    return answer(body, "text/javascript", request)


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(request: Request) -> Response:
    """The web app manifest, in the language the browser asks in."""
    body = manifest_text(request.app.state.assets, page_language(request))
    return answer(body, "application/manifest+json", request)
