"""The server as a real site serves: text gzipped, the client's files cached for a year under
versioned URLs (the ES modules' imports too, through each page's import map), pages revalidated
(304) and answering HEAD; ``make run PORT= HOST=``, and a busy port's one-line error."""

from __future__ import annotations

import hashlib
import json
import re
import socket
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from fastapi import FastAPI

import salad
from salad.cli import app
from salad.cli.errors import run_app
from salad.server.routes.pages import STATIC_DIR, Assets, router

with warnings.catch_warnings():  # starlette's note on which httpx it would like
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]

PAGES = ("/", "/sheet", "/howto", "/table/abc", "/join/abc", "/watch/abc", "/replay/abc")
YEAR = "public, max-age=31536000, immutable"
STATIC_URL = re.compile(r'\s(?:src|href)="(/static/[^"]+)"')
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)
MODULE_IMPORT = re.compile(r'^\s*(?:import|export)\b[^"\'`;]*?["\'](\.{1,2}/[^"\']+)["\']', re.M)


def static_urls(html: str) -> list[str]:
    """The static files a page's tags name (its stylesheets and scripts)."""
    return STATIC_URL.findall(html)


def version_of(url: str) -> str:
    match = re.fullmatch(r"/static/[^?]+\?v=([0-9a-f]+)", url)
    assert match, f"{url} carries no version"
    return match.group(1)


def test_text_is_gzipped_above_a_small_size(server: Any) -> None:
    gzip = {"accept-encoding": "gzip"}
    script = (STATIC_DIR / "js" / "table.js").read_bytes()
    with server.http.stream("GET", "/static/js/table.js", headers=gzip) as r:
        body = r.read()
        assert r.headers["content-encoding"] == "gzip"
        assert "accept-encoding" in r.headers["vary"].lower()
        assert body == script
        assert r.num_bytes_downloaded < len(script) / 2, (r.num_bytes_downloaded, len(script))
    for path in ("/", "/api/options", "/static/css/salad.css"):
        assert server.http.get(path, headers=gzip).headers.get("content-encoding") == "gzip", path
    small = server.http.get("/healthz", headers=gzip)
    assert small.status_code == 200 and "content-encoding" not in small.headers
    plain = server.http.get("/static/js/table.js", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == script


def test_pages_are_revalidated_and_answer_head(server: Any) -> None:
    for path in PAGES:
        r = server.http.get(path)
        assert r.status_code == 200, path
        assert r.headers["cache-control"] == "no-cache", path
        etag = r.headers["etag"]
        again = server.http.get(path, headers={"if-none-match": etag})
        assert again.status_code == 304 and again.content == b"", path
        assert again.headers["etag"] == etag
        head = server.http.head(path)
        assert head.status_code == 200 and head.content == b"", path
        assert head.headers["etag"] == etag
        assert head.headers["content-type"].startswith("text/html")
    changed = server.http.get("/", headers={"if-none-match": '"not-this-one"'})
    assert changed.status_code == 200 and "<html" in changed.text.lower()


def test_the_home_pages_footer_gives_the_version_salad_version_gives(server: Any) -> None:
    said = subprocess.run(
        [sys.executable, "-m", "salad.cli", "--version"], capture_output=True, text=True, check=True
    ).stdout.split()[-1]
    assert said == salad.__version__
    for lang, name in (("en", "Canadian Salad"), ("fr", "Salade canadienne")):
        home = server.http.get(f"/?lang={lang}").text
        assert f'<p class="footer-note" id="version">{name} {said}</p>' in home, lang


def test_every_static_url_and_module_import_is_versioned(server: Any) -> None:
    """Every file a page names carries its content's version and is cached for a year; every
    module's relative import resolves to a URL the page's import map versions."""
    imported: set[str] = set()
    for path in PAGES:
        html = server.http.get(path).text
        urls = static_urls(html)
        assert urls, path
        found = IMPORT_MAP.search(html)
        modules = [u for u in urls if u.split("?")[0].endswith(".js")]
        if modules:
            assert found and found.start() < html.index('<script type="module"'), path
        imports: dict[str, str] = json.loads(found.group(1))["imports"] if found else {}
        for url in [*urls, *imports.values()]:
            version = version_of(url)
            r = server.http.get(url)
            assert r.status_code == 200, url
            assert r.headers["cache-control"] == YEAR, url
            assert hashlib.sha256(r.content).hexdigest().startswith(version), url
        assert all(imports[u.split("?")[0]] == u for u in modules), path
        # Each module of the page, its imports followed: every one is in the map.
        todo = [u.split("?")[0] for u in modules]
        while todo:
            module = todo.pop()
            assert module in imports, f"{path}: {module} is not in the import map"
            if module in imported:
                continue
            imported.add(module)
            source = server.http.get(imports[module]).text
            for spec in MODULE_IMPORT.findall(source):
                todo.append(urlsplit(urljoin(module, spec)).path)
    assert "/static/js/table/render.js" in imported  # a module only an import reaches


def test_unversioned_or_stale_static_urls_are_revalidated(server: Any) -> None:
    for url in ("/static/js/table.js", "/static/js/table.js?v=000000000000"):
        r = server.http.get(url)
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache", url
        again = server.http.get(url, headers={"if-none-match": r.headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == "no-cache", url
    assert server.http.head("/static/css/salad.css").status_code == 200


def test_a_stylesheets_fonts_and_images_are_versioned_too(tmp_path: Path) -> None:
    """A file a stylesheet names (a font the site serves, say) gets its version in the
    stylesheet as served, and the stylesheet's version is that text's."""
    (tmp_path / "css").mkdir()
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "emoji.woff2").write_bytes(b"wOF2 font")
    sheet = (
        '@font-face { src: url("../fonts/emoji.woff2") format("woff2"); }\n'
        ".a { background: url(/static/fonts/emoji.woff2); }\n"
        ".b { background: url(data:image/png;base64,AAAA) url('https://example.com/x.png'); }\n"
        ".c { background: url(../fonts/missing.woff2) url(../fonts/emoji.woff2?x=1); }\n"
    )
    (tmp_path / "css" / "a.css").write_text(sheet)
    (tmp_path / "table.html").write_text(
        '<html><head><link rel="stylesheet" href="/static/css/a.css" /></head></html>'
    )
    assets = Assets(tmp_path)
    font = f"/static/fonts/emoji.woff2?v={hashlib.sha256(b'wOF2 font').hexdigest()[:12]}"
    served = assets.stylesheets["css/a.css"].decode()
    assert served == (
        f'@font-face {{ src: url("{font}") format("woff2"); }}\n'
        f'.a {{ background: url("{font}"); }}\n' + sheet.split("\n", 2)[2]
    )
    site = FastAPI()
    site.state.assets = assets
    site.mount("/static", assets)
    site.include_router(router)
    client = TestClient(site)
    html = client.get("/table/x").text
    (url,) = static_urls(html)
    assert hashlib.sha256(served.encode()).hexdigest().startswith(version_of(url))
    r = client.get(url)
    assert r.text == served and r.headers["cache-control"] == YEAR
    assert r.headers["content-type"].startswith("text/css")
    assert "etag" not in r.headers  # never asked again under its version
    plain = client.get("/static/css/a.css")  # asked without one: revalidated, by its ETag
    assert plain.text == served and plain.headers["cache-control"] == "no-cache"
    again = client.get("/static/css/a.css", headers={"if-none-match": plain.headers["etag"]})
    assert again.status_code == 304
    assert client.get(font).content == b"wOF2 font"
    assert client.get(font).headers["cache-control"] == YEAR


def test_a_busy_port_is_one_line_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        database = f"sqlite:///{tmp_path / 'salad.db'}"
        code = run_app(app, ["serve", "--port", str(port), "--database", database])
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert err == (
        f"error: salad serve: port {port} is in use: choose another with --port "
        f"(make run PORT={port + 1})\n"
    )


def test_make_run_passes_port_and_host() -> None:
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "run", "PORT=8001", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.splitlines()[-1].endswith("salad serve --host 0.0.0.0 --port 8001")
