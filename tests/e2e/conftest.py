"""Browser tests: a real `salad serve` process and Debian's Chromium driven by Playwright.

The server runs on a free port with a fresh SQLite database for the whole session; a module
that wants other server options starts its own with ``start_server``. Environment:

- ``SALAD_CHROMIUM``: the browser binary (default ``/usr/bin/chromium``; none is downloaded).
- ``SALAD_E2E_BASE_URL``: use a server that is already running instead of starting one.

The pages run under the server's Content-Security-Policy: a breach of it, like an error of a
page's scripts, fails the test (``watch``). Playwright's ``wait_for_function`` takes a function
(``"() => ..."``): a bare expression is evaluated with ``eval`` in the page, which the policy
refuses.

The ``axe`` fixture runs axe-core (``node_modules/axe-core``, from ``npm ci``) in a page and
gives its serious and critical violations.

When a test fails, every page it opened is saved as a PNG in ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import cache, partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from forked_servers import ForkedProcess, forks
from serving import free_port

ROOT = Path(__file__).resolve().parents[2]

# The tests create tables far faster than any family: no rate limits in the servers they start
# (test_hostile_rate.py sets its own).
os.environ.setdefault("SALAD_RATE_LIMITS", "off")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("SALAD_CHROMIUM", "/usr/bin/chromium")
# Drawn on the CPU by Skia, without a GPU process emulating one in SwiftShader (Debian's
# wrapper asks for --enable-gpu-rasterization): the same pixels for 10% less of Chromium's CPU.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-gpu-rasterization",
    "--disable-gpu-compositing",
    "--disable-software-rasterizer",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _salad_command() -> list[str]:
    local = ROOT / ".venv" / "bin" / "salad"
    if local.exists():
        return [str(local)]
    found = shutil.which("salad")
    return [found] if found else [sys.executable, "-m", "salad.cli"]


@cache  # one Python start a session, not one a server (each module of its own starts one)
def _serve_exists(cmd: tuple[str, ...]) -> bool:
    try:
        done = subprocess.run(
            [*cmd, "serve", "--help"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@contextmanager
def running_server(
    tmp_path_factory: pytest.TempPathFactory,
    bot_delay: float | None = None,
    database: Path | None = None,
    fork: bool = True,
) -> Iterator[str]:
    """The URL of a `salad serve` started here on a free port with a fresh SQLite database
    (``database``: that file), stopped on leaving; ``bot_delay`` is its ``--bot-delay`` (its
    own default when None). ``SALAD_E2E_BASE_URL`` names a running server to use instead.
    ``fork``: forked (tests/forked_servers.py) when ``make test`` says so; else, and always for
    the session's server, started as a user starts it, the ``salad`` command."""
    given = os.environ.get("SALAD_E2E_BASE_URL")
    if given:
        yield given.rstrip("/")
        return
    cmd = _salad_command()
    if not _serve_exists(tuple(cmd)):
        pytest.skip("`salad serve` does not exist yet (src/salad/server is not written)")
    port = free_port()
    db = database or tmp_path_factory.mktemp("e2e-db") / "salad.sqlite"
    log_path = tmp_path_factory.mktemp("e2e-log") / "server.log"
    log = log_path.open("w+")
    args = ["serve", "--port", str(port), "--database", f"sqlite:///{db}"]
    if bot_delay is not None:
        args += ["--bot-delay", str(bot_delay)]
    forked = forks() if fork else None
    proc: subprocess.Popen[bytes] | ForkedProcess
    if forked is not None:
        proc = forked.start(args, log_path, cwd=ROOT)
    else:
        proc = subprocess.Popen([*cmd, *args], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 45
    try:
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail(f"salad serve exited with {proc.returncode}:\n{log.read()[-3000:]}")
            try:
                if httpx.get(f"{url}/api/options", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"salad serve did not answer on {url}:\n{log.read()[-3000:]}")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def start_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[..., AbstractContextManager[str]]:
    """``with start_server(bot_delay=...) as url``: a server of one's own (see running_server),
    for a module that wants other options than the session's ``base_url``."""
    return partial(running_server, tmp_path_factory)


BOT_DELAY = 0.05
"""Seconds the session server's bots wait before they play (``--bot-delay``): the tests wait
on every bot move, and the server's default, a person's pace to watch (0.6 s), made a game of
bots last most of a minute."""


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a running `salad serve` whose bots wait ``BOT_DELAY`` (started here, stopped
    at the end of the session)."""
    with running_server(tmp_path_factory, bot_delay=BOT_DELAY, fork=False) as url:
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    # Package scope, not session: Playwright's sync API keeps an event loop running on this
    # thread until it stops, and the tests outside tests/e2e call asyncio.run(). A worker runs
    # the browser modules one after another (their groups come first, tests/conftest.py), so
    # it starts Chromium once or twice, not once a module (1.1 s of CPU each).
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (set SALAD_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def open_page(
    request: pytest.FixtureRequest, browser: Any, base_url: str
) -> Iterator[Callable[..., Any]]:
    """``open_page(path, viewport=DESKTOP, pause=False)``: a page in a fresh browser context.

    Each call is a new context (its own localStorage: another person). ``pause=False`` turns
    off the client's pause on finished tricks, so games run at the bots' pace. Errors of the
    page's scripts fail the test.
    """
    contexts: list[Any] = []
    pages: list[Any] = []
    errors: list[str] = []
    request.node._e2e_pages = pages

    def opener(
        path: str = "/", viewport: dict[str, int] | None = None, pause: bool = False, context=None
    ) -> Any:
        ctx = context
        if ctx is None:
            # No service worker (the installable app's, js/offline.js): a test's pages are a
            # first visit, and a worker would fetch the offline pages' files beside each one
            # (tests/e2e/test_offline.py opens contexts that allow it).
            ctx = browser.new_context(viewport=viewport or DESKTOP, service_workers="block")
            if not pause:
                ctx.add_init_script("localStorage.setItem('salad.pref.pause', 'false')")
            contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        watch(page, errors)
        pages.append(page)
        if path is not None:
            page.goto(base_url + path)
        return page

    yield opener
    for ctx in contexts:
        ctx.close()
    assert not errors, "errors in the page scripts:\n" + "\n".join(errors)


def watch(page: Any, errors: list[str]) -> None:
    """Put into ``errors`` every error of ``page``'s scripts and every breach of the site's
    Content-Security-Policy (which Chromium reports on the console): either fails the test."""
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))

    def console(message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            errors.append(f"{page.url}: {message.text}")

    page.on("console", console)


AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_IMPACTS = ("serious", "critical")
"""The violations a page may not have (axe-core's impact levels)."""


def axe_violations(page: Any, exclude: tuple[str, ...] = ()) -> list[str]:
    """axe-core's serious and critical violations of the page as it is now, one line each
    (rule, impact, the first elements it names); ``exclude``: CSS selectors left out."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated, not added as a <script>: the site's policy allows no inline script.
        page.evaluate(AXE_JS.read_text(encoding="utf-8"))
    result = page.evaluate(
        """async (exclude) => {
          const context = exclude.length ? {exclude: exclude.map((s) => [s])} : document;
          const r = await axe.run(context, {resultTypes: ['violations']});
          return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 4), count: v.nodes.length}));
        }""",
        list(exclude),
    )
    return [
        f"{v['id']} ({v['impact']}, {v['count']}x): {v['help']} — {', '.join(v['nodes'])}"
        for v in result
        if v["impact"] in AXE_IMPACTS
    ]


@pytest.fixture
def axe() -> Callable[..., list[str]]:
    """``axe(page)``: the page's serious and critical accessibility violations (axe-core)."""
    if not AXE_JS.exists():
        pytest.skip(f"axe-core is not installed ({AXE_JS} is missing: run `npm ci`)")
    return axe_violations


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when != "call" or not report.failed:
        return
    pages = getattr(item, "_e2e_pages", [])
    if not pages:
        return
    ARTIFACTS.mkdir(exist_ok=True)
    for i, page in enumerate(pages):
        path = ARTIFACTS / f"{item.name}-{i}.png"
        try:
            page.screenshot(path=str(path), full_page=True, timeout=5000)
            report.sections.append(("e2e screenshot", str(path)))
        except Exception as exc:  # a closed page: nothing to save
            report.sections.append(("e2e screenshot", f"page {i}: {exc}"))
