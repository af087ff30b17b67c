"""The player a browser is (#34), in a real browser against a real server: made on the first
visit and kept across a restart of the server; named in the "You" panel; opened in a second
browser by a sign-in link, which then opens no third (and a revoked code none); their table
rejoined there by the cookie alone (no token); exported and deleted.

One server of this module's own (restarted on its database), one browser, a context a person.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import expect
from serving import free_port, wait_serving

from .conftest import DESKTOP, ROOT, _salad_command, watch
from .test_browser import HAND


@contextmanager
def serving(database: Path, port: int) -> Iterator[str]:
    """``salad serve`` on ``database`` and ``port`` until the block ends."""
    args = ["serve", "--port", str(port), "--database", f"sqlite:///{database}"]
    args += ["--bot-delay", "0.05"]
    log_path = database.parent / f"server-{time.monotonic_ns()}.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [*_salad_command(), *args], stdout=log, stderr=subprocess.STDOUT, cwd=ROOT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_serving(url, proc, log_path, seconds=45)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def player(page: Any) -> dict[str, Any]:
    """The player the page's browser is (its cookie, through the page's own context)."""
    answer: dict[str, Any] = page.request.get("/api/me").json()
    return answer


def test_a_player_is_kept_signed_in_elsewhere_rejoins_exports_and_deletes(
    browser: Any, tmp_path: Path, axe: Callable[..., list[str]]
) -> None:
    database, port = tmp_path / "salad.db", free_port()
    contexts: list[Any] = []
    errors: list[str] = []

    def person(url: str) -> Any:
        ctx = browser.new_context(viewport=DESKTOP, base_url=url, accept_downloads=True)
        ctx.add_init_script("localStorage.setItem('salad.pref.pause', 'false')")
        contexts.append(ctx)
        return ctx

    def open_in(ctx: Any, path: str) -> Any:
        page = ctx.new_page()
        page.set_default_timeout(20_000)
        watch(page, errors)
        page.goto(path)
        return page

    try:
        with serving(database, port) as url:
            phone = person(url)
            page = open_in(phone, "/")
            expect(page.locator("#you")).to_be_visible()
            first = player(page)
            page.fill("#you-name", "Aurore")
            page.click("#you-save")
            expect(page.locator("#you-status")).to_have_text("Saved: you are Aurore.")
            expect(page.locator("#quick-name")).to_have_value("Aurore")  # fills the forms
            page.click("#btn-quick")
            page.wait_for_url("**/table/**")
            page.wait_for_selector(HAND)
            table_id = page.url.split("#")[0].rstrip("/").rsplit("/", 1)[1]
            page.close()  # its websocket closed: the server stops at once
        with serving(database, port):  # the server restarted on its database
            page = open_in(phone, "/")
            expect(page.locator("#you-name")).to_have_value("Aurore")
            assert player(page)["id"] == first["id"]  # the same identity
            rejoin = page.locator("#you-table-list a")
            expect(rejoin).to_have_attribute("href", f"/table/{table_id}")

            page.click("#you-devices summary")
            page.click("#you-make")
            code = page.locator("#you-code-made").inner_text()
            link = page.locator("#you-link-made").input_value()
            assert link == f"{url}/signin/{code}"
            expect(page.locator("#you-links li").first).to_contain_text("open until")
            for more in ("#you-have", "#you-data"):
                page.click(f"{more} summary")
            assert axe(page) == []  # the whole panel open, a code shown

            laptop = person(url)
            other = open_in(laptop, f"/signin/{code}")
            expect(other.locator("#you-status")).to_have_text(
                "Signed in: this browser is Aurore now."
            )
            assert player(other)["id"] == first["id"] and other.url == f"{url}/"
            other.click("#you-table-list a")  # Rejoin: the seat by the cookie alone
            other.wait_for_selector(HAND)
            assert other.evaluate(f"localStorage.getItem('salad.token.{table_id}')") is None

            stranger = person(url)
            third = open_in(stranger, f"/signin/{code}")
            expect(third.locator("#you-status")).to_contain_text("used already")
            assert player(third)["id"] != first["id"]
            page.click("#you-make")
            expect(page.locator("#you-code-made")).not_to_have_text(code)  # the new one
            revoked = page.locator("#you-code-made").inner_text()
            # The list read anew (the first code used by now), not the one drawn before it was:
            # a click there would revoke the used code.
            expect(page.locator("#you-links .you-used")).to_have_count(1)
            page.locator("#you-links [data-revoke]").first.click()
            expect(page.locator("#you-links [data-revoke]")).to_have_count(0)
            third.click("#you-have summary")
            third.fill("#you-code", revoked.lower())
            third.click("#you-signin-btn")
            expect(third.locator("#you-status")).to_contain_text("revoked")
            assert player(third)["id"] != first["id"]

            other.goto("/")
            other.click("#you-data summary")
            with other.expect_download() as download:
                other.click("#you-export")
            held = json.loads(Path(download.value.path()).read_text())
            assert held["player"]["name"] == "Aurore"
            assert held["tables"]["seats"][0]["table_id"] == table_id
            other.click("#you-delete")
            other.click("#you-delete-yes")
            expect(other.locator("#you-status")).to_contain_text("Deleted")
            assert player(other)["id"] != first["id"]
            page.reload()  # the phone's cookie names a deleted player: a new one
            assert player(page)["id"] != first["id"]
            expect(page.locator("#you-name")).to_have_value("")
    finally:
        for ctx in contexts:
            ctx.close()
    assert not errors, "errors in the page scripts:\n" + "\n".join(errors)
