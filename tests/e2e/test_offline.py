"""End-to-end: the installable web app. Its manifest (a name, colours, icons that are the PNGs
they say), the service worker controlling the pages after a first visit, the site without a
network (the home page says so in one line and how to play still opens; the pages come from the
worker's cache), and a release reaching a browser that comes back (its new files, offline too,
and the old cache gone)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect
from serving import free_port, wait_serving

from .conftest import ROOT, watch

PHONE = {"width": 390, "height": 844}
ARTIFACTS = Path(__file__).with_name("artifacts")


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@contextmanager
def installed(browser: Any, url: str, path: str = "/") -> Iterator[Any]:
    """A page of ``path`` in a new context that allows service workers, once the site's
    worker has installed and controls it (errors of its scripts fail the test)."""
    ctx = browser.new_context(viewport=PHONE, service_workers="allow")
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        watch(page, errors)
        page.goto(url + path)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        yield page
    finally:
        ctx.close()
    assert not errors, "errors in the page scripts:\n" + "\n".join(errors)


def caches(page: Any) -> list[str]:
    return list(page.evaluate("() => caches.keys()"))


def test_the_manifest_names_the_app_and_its_icons_are_what_it_says(
    base_url: str, browser: Any
) -> None:
    for lang, name in (("en", "Canadian Salad"), ("fr", "Salade canadienne")):
        answer = httpx.get(f"{base_url}/manifest.webmanifest?lang={lang}")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest = answer.json()
        assert manifest["name"] == name and manifest["short_name"]
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert manifest["theme_color"] and manifest["background_color"]
        sizes = set()
        for icon in manifest["icons"]:
            png = httpx.get(base_url + icon["src"])
            assert png.status_code == 200 and png.headers["content-type"] == "image/png"
            width, height = png_size(png.content)
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.add((icon["sizes"], icon["purpose"]))
        assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    with installed(browser, base_url) as page:
        assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
        worker = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
        assert worker == f"{base_url}/sw.js"
        assert len(caches(page)) == 1


def test_offline_the_home_page_says_so_and_the_kept_pages_open(
    base_url: str, browser: Any, record_property: Callable[[str, object], None]
) -> None:
    with installed(browser, base_url) as page:
        expect(page.locator("#offline")).to_be_hidden()
        page.context.set_offline(True)
        page.reload()
        line = page.locator("#offline")
        expect(line).to_be_visible()
        expect(line).to_contain_text("You are offline")
        page.wait_for_load_state("networkidle")  # every request the page makes has failed
        expect(page.locator(".toast")).to_have_count(0)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "offline-home-phone.png"))
        line.get_by_role("link", name="How to play").click()
        expect(page).to_have_url(f"{base_url}/howto")
        expect(page.locator("h1")).to_be_visible()
        # A page never visited: the home page, which says it is offline.
        page.goto(f"{base_url}/leaderboard")
        expect(page.locator("#offline")).to_be_visible()
        # The score sheet's page, its files and its scripts come from the cache; it says what
        # it cannot do without the server (check and score a hand), in one line and no more.
        page.goto(f"{base_url}/sheet")
        expect(page.locator("h1")).to_be_visible()
        expect(page.locator("#offline")).to_contain_text("needs the connection")
        page.wait_for_load_state("networkidle")
        expect(page.locator(".toast")).to_have_count(0)
        paint = page.evaluate(
            "() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
        )
        assert paint is not None and paint <= 1000, paint
        record_property("figure", f"offline, the score sheet page's first paint: {paint:.0f} ms")
        page.screenshot(path=str(ARTIFACTS / "offline-sheet-phone.png"))
        page.context.set_offline(False)
        page.reload()
        expect(page.locator("#offline")).to_be_hidden()


def serve_release(release: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``salad serve`` of the copy of the package in ``release`` (its web client as changed
    there), on ``port``; returned once it answers."""
    env = {**os.environ, "PYTHONPATH": str(release)}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "salad.cli",
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{release / 'salad.db'}",
        ],
        cwd=release,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    wait_serving(f"http://127.0.0.1:{port}", proc, log, seconds=45)
    return proc


def release(place: Path, change: Callable[[Path], None]) -> Path:
    """A copy of the package (``src/salad``) in ``place``, its web client changed by ``change``
    (given the static files' directory)."""
    # With its bytecode (its sources keep their times, so it stays valid): the two servers
    # start without compiling the package (about 3 s of CPU each).
    shutil.copytree(ROOT / "src" / "salad", place / "salad")
    change(place / "salad" / "web" / "static")
    return place


def test_a_release_reaches_a_returning_browser(browser: Any, tmp_path: Path) -> None:
    """A browser that kept the site (and its worker) comes back after a release: the worker is
    replaced, the old cache goes, and the page is the release's, online and offline."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "serve.log"
    first = release(tmp_path / "v1", lambda static: None)
    marker = "/* the second release */\n:root { --release-mark: 2; }\n"

    def mark(static: Path) -> None:
        with (static / "css" / "pages.css").open("a") as css:
            css.write(marker)

    second = release(tmp_path / "v2", mark)
    proc = serve_release(first, port, log)
    try:
        with installed(browser, url) as page:
            (old,) = caches(page)
            proc.terminate()
            proc.wait(10)
            proc = serve_release(second, port, log)
            page.reload()  # the browser looks for a new worker on a visit
            page.wait_for_function(
                "old => caches.keys().then(keys => keys.length === 1 && keys[0] !== old)",
                arg=old,
            )
            page.context.set_offline(True)
            page.reload()
            href = page.locator('link[href^="/static/css/pages.css"]').get_attribute("href")
            text = page.evaluate("href => fetch(href).then(r => r.text())", href)
            assert text.endswith(marker), "the page's stylesheet is not the release's"
            mark_value = page.evaluate(
                "() => getComputedStyle(document.documentElement)"
                ".getPropertyValue('--release-mark')"
            )
            assert mark_value.strip() == "2"
    finally:
        proc.terminate()
        proc.wait(10)
