"""The web client's pages and its static files (``/static/``), cached as a real site's are;
while the client is not installed, a placeholder page points at the API's description instead.

Every static file's URL in a page carries its content's hash (``/static/js/table.js?v=HASH``),
and such a URL is cached for a year as immutable. The ES modules' own imports (``./dom.js``)
get theirs from an import map written into each page's head, which maps every module's plain
URL to its versioned one: a relative import resolves against the importing module's URL, its
query dropped, and then through the map. A stylesheet's ``url(...)`` of another of the files
(a font, an image) is versioned in the stylesheet as served. The files keep their paths (no
build step), and a changed file changes its own URL only (and a stylesheet's that names it). A
URL without a version, or with another one (a page from before a restart), is answered with the
current file and ``no-cache``: never cached under a name that is not its content's.

The pages are revalidated on every visit (``no-cache`` and an ``ETag``: a repeat visit gets 304
and an empty body) and answer HEAD. Files are read and hashed once, when the app is made:
restart the server after editing the client.

Each page is a Jinja template written once per language (:mod:`salad.locale`): its words
through the language's catalog, ``<html lang>`` its tag, and before its scripts the browser's
catalog of that language (``/i18n/fr/table.js``, versioned like a static file), which ``js/i18n.js``
reads. A page's language is the one its ``?lang=`` names, else the ``salad_lang`` cookie the
switch sets, else the browser's ``Accept-Language``.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cached_property, partial
from pathlib import Path, PurePath
from urllib.parse import urljoin

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader
from starlette.datastructures import Headers, QueryParams
from starlette.requests import HTTPConnection
from starlette.staticfiles import NotModifiedResponse
from starlette.types import Scope

from salad import __version__
from salad.locale import (
    LANGUAGES,
    PSEUDO,
    SOURCE,
    Language,
    browser_catalog,
    from_accept_language,
)
from salad.locale import translations as catalog_of
from salad.server.defences import policy

STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "web" / "static"

PAGES = {
    "index": "Canadian Salad",
    "table": "Table",
    "join": "Join a table",
    "watch": "Watch a table",
    "replay": "Replay",
    "sheet": "Score sheet",
    "howto": "How to play",
    "group": "Group",
    "groupjoin": "Join a group",
    "profile": "Player",
    "leaderboard": "Leaderboard",
}
"""Each page's file name (without ``.html``) and the title of its placeholder."""

IMMUTABLE = "public, max-age=31536000, immutable"
"""A static file asked for under its current version: its URL changes with its content."""

REVALIDATE = "no-cache"
"""A page, or a static file asked for without its current version: kept, but asked again."""

STATIC_URL = re.compile(r'(?<=\s)(src|href)="/static/([^"?#]+)"')
"""A page's reference to a static file, in a ``<script>`` or ``<link>`` tag."""

MODULE_SCRIPT = '<script type="module"'

PAGE_MODULE = re.compile(r'<script type="module" src="/static/([^"?#]+)(?:\?[^"]*)?"')
"""A page's module script: the file it loads (its URL versioned or not)."""

MODULE_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+\.js)["']""")
"""A module's import of another (``from "./dom.js"``, ``import("./x.js")``), relative."""

LANGUAGE_COOKIE = "salad_lang"
"""The language the switch chose (``js/i18n.js`` sets it; a code of :data:`LANGUAGES`)."""

SPOKEN = {**LANGUAGES, PSEUDO.code: PSEUDO}
"""Every language a page is written in: the offered ones and the pseudo-locale."""

CSS_URL = re.compile(r"""url\(\s*(["']?)([^"')\s]+)\1\s*\)""")
"""A stylesheet's reference to a file: ``url(../fonts/a.woff2)``, quoted or not."""

router = APIRouter()


def version(data: bytes) -> str:
    """A file's version: the start of its content's SHA-256."""
    return hashlib.sha256(data).hexdigest()[:12]


class Assets(StaticFiles):
    """The client's files (``STATIC_DIR``, served under ``/static/``), each one's version, and
    the pages written with versioned URLs: read once, when made."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, check_dir=False)
        self.root = directory
        """Where the client's files are."""
        files = sorted(directory.rglob("*")) if directory.is_dir() else []
        self.versions = {
            path.relative_to(directory).as_posix(): version(path.read_bytes())
            for path in files
            if path.is_file()
        }
        """Each file's path under the directory (``js/table.js``) and its version."""
        self.stylesheets: dict[str, bytes] = {}
        """The stylesheets that name other files (a font, an image), as served: with those
        URLs versioned (the stylesheet's own version is then that text's)."""
        for name in [name for name in self.versions if name.endswith(".css")]:
            text = (directory / name).read_text(encoding="utf-8")
            served = CSS_URL.sub(partial(self.css_url, name), text)
            if served != text:
                self.stylesheets[name] = served.encode()
                self.versions[name] = version(self.stylesheets[name])
        self.writers: dict[str, Environment] = {}
        """Each language's Jinja environment: the pages' templates through its catalog."""
        self.catalogs: dict[tuple[str, str], tuple[bytes, str]] = {}
        """Each page's browser catalog in each language but the source's, as served (a
        script): the words of the modules the page loads, and its version."""
        self.pages: dict[tuple[str, str], tuple[bytes, str]] = {}
        """Each page's HTML in each language as served, and its ETag: written when first
        asked for (a server starts without writing 33 pages it may never send)."""

    def written(self, name: str, lang: Language) -> tuple[bytes, str]:
        """The page ``name`` in ``lang`` as served, and its ETag (:meth:`page`, once)."""
        if (name, lang.code) not in self.pages:
            if lang.code not in self.writers:
                self.writers[lang.code] = writer(self.root, lang)
            self.pages[name, lang.code] = self.page(self.root / f"{name}.html", PAGES[name], lang)
        return self.pages[name, lang.code]

    def url(self, name: str) -> str:
        """The versioned URL of the file ``name`` (``js/table.js``)."""
        return f"/static/{name}?v={self.versions[name]}"

    def css_url(self, stylesheet: str, found: re.Match[str]) -> str:
        """A stylesheet's ``url(...)`` (:data:`CSS_URL`) with the file it names versioned, if
        it names one of the client's files without a query of its own."""
        target = urljoin(f"/static/{stylesheet}", found[2])
        name = target.removeprefix("/static/")
        if target == name or name not in self.versions:  # elsewhere, a data: URL, a query
            return found[0]
        return f'url("{self.url(name)}")'

    @cached_property
    def import_map(self) -> str:
        """The import map of every ES module: its plain URL to its versioned one (the text of
        the pages' ``<script type="importmap">``)."""
        modules = {
            f"/static/{name}": self.url(name) for name in self.versions if name.endswith(".js")
        }
        return "\n" + json.dumps({"imports": modules}, indent=1) + "\n"

    @cached_property
    def policy(self) -> str:
        """The pages' Content-Security-Policy: the site's, with their import map allowed."""
        return policy(self.import_map)

    def modules(self, html: str) -> frozenset[str]:
        """The ES modules a page loads: its module scripts and what they import, all the way
        down (``web/static/js/table.js``...: the catalogs' locations)."""
        todo = [found for found in PAGE_MODULE.findall(html) if found in self.versions]
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            text = (self.root / name).read_text(encoding="utf-8")
            for imported in MODULE_IMPORT.findall(text):
                target = urljoin(f"/static/{name}", imported).removeprefix("/static/")
                if target in self.versions:
                    todo.append(target)
        return frozenset(f"web/static/{name}" for name in seen)

    def catalog(self, page: str, html: str, lang: Language) -> str:
        """The ``<script>`` of ``page``'s browser catalog in ``lang`` (none in the source
        language: ``js/i18n.js`` then shows the words as written), made on the first ask."""
        if lang == SOURCE:
            return ""
        if (page, lang.code) not in self.catalogs:
            words = browser_catalog(lang.code, self.modules(html))
            data = json.dumps(words, ensure_ascii=False, sort_keys=True)
            body = f"globalThis.SALAD_CATALOG = {data};\n".encode()
            self.catalogs[page, lang.code] = body, version(body)
        current = self.catalogs[page, lang.code][1]
        return f'<script src="/i18n/{lang.code}/{page}.js?v={current}"></script>\n'

    def versioned(self, html: str, lang: Language, page: str) -> str:
        """A page with its static files' URLs versioned, and before its first module script
        its catalog in its language and the import map (a map must come before the modules
        it maps)."""
        html = STATIC_URL.sub(
            lambda m: f'{m[1]}="{self.url(m[2])}"' if m[2] in self.versions else m[0], html
        )
        first = html.find(MODULE_SCRIPT)
        if first < 0:
            return html
        catalog = self.catalog(page, html, lang)
        importmap = f'<script type="importmap">{self.import_map}</script>\n'
        return html[:first] + catalog + importmap + html[first:]

    def page(self, path: Path, title: str, lang: Language) -> tuple[bytes, str]:
        """The page at ``path`` in ``lang``, or a placeholder while the client is not
        installed, as served: its HTML and its ETag."""
        if path.is_file():
            page = self.writers[lang.code].get_template(path.name)
            written = page.render(lang=lang, languages=list(LANGUAGES.values()))
            html = self.versioned(written, lang, path.stem)
        else:
            html = (
                f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head>"
                f"<body><h1>{title}</h1><p>The web client is not installed; the API is described "
                "at <a href='/docs'>/docs</a>.</p></body></html>"
            )
        body = html.encode()
        return body, f'"{version(body)}"'

    async def get_response(self, path: str, scope: Scope) -> Response:
        """StaticFiles' answer (a file, 304, or an HTTPException; a stylesheet of
        :attr:`stylesheets` from memory), cached for a year if asked for under the file's
        current version, else revalidated."""
        name = PurePath(path).as_posix()
        current = self.versions.get(name)
        if name in self.stylesheets and scope["method"] in ("GET", "HEAD"):
            body = self.stylesheets[name]
            response = self.remembered(body, "text/css", f'"{current}"', Headers(scope=scope))
        else:
            response = await super().get_response(path, scope)
        asked = QueryParams(scope["query_string"]).get("v")
        fresh = asked is not None and asked == current
        response.headers["cache-control"] = IMMUTABLE if fresh else REVALIDATE
        if fresh and response.status_code == 200:
            # Never asked again: what a revalidation (or a range) would need is bytes for
            # nothing (about 110 a file, 2.5 KB of the table page's first visit).
            for header in ("etag", "last-modified", "accept-ranges"):
                if header in response.headers:
                    del response.headers[header]
        return response

    def remembered(self, body: bytes, media_type: str, etag: str, asked: Headers) -> Response:
        """A text held in memory, with its ETag: 304 if the browser has it already."""
        response = Response(body, media_type=media_type, headers={"etag": etag})
        if self.is_not_modified(response.headers, asked):
            return NotModifiedResponse(response.headers)
        return response


def writer(directory: Path, lang: Language) -> Environment:
    """The Jinja environment that writes the pages of ``directory`` in ``lang``: their
    ``{% trans %}`` and ``_()`` through its catalog; a page has ``lang`` (its
    :class:`~salad.locale.Language`), ``languages`` (the switch's,
    ``{% include "parts/language.html" %}``) and ``version`` (the package's, as ``salad
    --version`` says it)."""
    env = Environment(
        loader=FileSystemLoader(directory), extensions=["jinja2.ext.i18n"], autoescape=True
    )
    env.globals["version"] = __version__
    env.install_gettext_translations(catalog_of(lang.code), newstyle=True)  # type: ignore[attr-defined]
    env.policies["ext.i18n.trimmed"] = True  # as the catalog's extraction reads them (tool.py)
    return env


def asked_language(conn: HTTPConnection) -> str | None:
    """The language a request or websocket names itself: ``?lang=``, else the switch's
    cookie (``None``: neither names one of :data:`SPOKEN`)."""
    for asked in (conn.query_params.get("lang"), conn.cookies.get(LANGUAGE_COOKIE)):
        if asked in SPOKEN:
            return asked
    return None


def page_language(conn: HTTPConnection) -> Language:
    """The language a page is asked in: :func:`asked_language`, else the browser's
    ``Accept-Language`` (English when none is offered)."""
    asked = asked_language(conn)
    if asked is not None:
        return SPOKEN[asked]
    return LANGUAGES[from_accept_language(conn.headers.get("accept-language", ""))]


async def page(name: str, request: Request) -> Response:
    """A page of the web client (or its placeholder) in its language, revalidated on every
    visit."""
    assets: Assets = request.app.state.assets
    lang = page_language(request)
    body, etag = assets.written(name, lang)
    response = assets.remembered(body, "text/html", etag, request.headers)
    response.headers["cache-control"] = REVALIDATE
    response.headers["content-security-policy"] = assets.policy
    response.headers["content-language"] = lang.tag
    response.headers["vary"] = "Accept-Language, Cookie"
    return response


@router.get("/i18n/{code}/{page}.js", include_in_schema=False)
async def catalog(code: str, page: str, request: Request) -> Response:
    """A page's browser catalog in a language (a script), cached for a year under its
    version."""
    assets: Assets = request.app.state.assets
    if page in PAGES and code in SPOKEN:
        assets.written(page, SPOKEN[code])  # its catalog with it (another node wrote the page)
    if (page, code) not in assets.catalogs:
        known = sorted({c for _p, c in assets.catalogs})
        raise HTTPException(
            404, f"no catalog of the page {page!r} in {code!r} (languages: {', '.join(known)})"
        )
    body, current = assets.catalogs[page, code]
    response = assets.remembered(body, "text/javascript", f'"{current}"', request.headers)
    fresh = request.query_params.get("v") == current
    response.headers["cache-control"] = IMMUTABLE if fresh else REVALIDATE
    return response


# A spectator's page is the table page: it tells the two apart by its path.
for _path, _file in (
    ("/", "index"),
    ("/signin/{code}", "index"),  # a sign-in link: the home page signs in with its code
    ("/sheet", "sheet"),
    ("/howto", "howto"),  # ?preset=...&players=...
    ("/table/{table_id}", "table"),
    ("/join/{table_id}", "join"),
    ("/watch/{table_id}", "table"),
    ("/replay/{table_id}", "replay"),
    ("/table/{table_id}/howto", "howto"),
    ("/g/{group_id}", "group"),
    ("/g/{group_id}/join", "groupjoin"),  # ?code=...
    ("/p/{who}", "profile"),
    ("/leaderboard", "leaderboard"),
):
    # Starlette's route: the page is given the request alone (no parameters to read).
    router.add_route(_path, partial(page, _file), methods=["GET", "HEAD"], include_in_schema=False)


def mount_static(app: FastAPI) -> None:
    """Serve the client's files under ``/static/`` (last: a mount takes every path under it)
    and keep them, versions and pages, in ``app.state.assets``."""
    app.state.assets = assets = Assets(STATIC_DIR)
    app.mount("/static", assets, name="static")
