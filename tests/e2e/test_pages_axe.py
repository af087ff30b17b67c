"""End-to-end: accessibility (issue 14, item 13): axe-core, injected by the tests, finds no
serious or critical violation on the home, lobby, table (during play), score sheet, replay and
"How to play" pages, at 1280x800 and at 390x844.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

VIEWPORTS = {"1280x800": {"width": 1280, "height": 800}, "390x844": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def base_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    """A server whose bots play at once (the replay's game is over in seconds)."""
    with start_server(bot_delay=0) as url:
        yield url


@pytest.fixture(scope="module")
def finished_table(base_url: str) -> str:
    """A finished game of bots (the host's seat is taken over: nobody connects to it)."""
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Ann",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
            "bot_takeover": 5,
        },
    ).json()
    tid = made["table_id"]
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{base_url}/api/tables/{tid}/start", headers=headers).raise_for_status()
    deadline = time.monotonic() + 120
    while httpx.get(f"{base_url}/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    return str(tid)


def check(axe: Callable[..., list[str]], page: Any, what: str, found: list[str]) -> None:
    """Add the page's violations to ``found``, each naming the page."""
    found.extend(f"{what}: {v}" for v in axe(page))


def none_found(found: list[str]) -> None:
    assert not found, "serious or critical accessibility violations:\n" + "\n".join(found)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_home_howto_and_sheet(
    open_page: Callable[..., Any], axe: Callable[..., list[str]], size: str
) -> None:
    found: list[str] = []
    page = open_page("/", viewport=VIEWPORTS[size])
    expect(page.locator("#quick-rules option").first).to_be_attached()
    check(axe, page, f"home at {size}", found)
    page.goto(page.url.rstrip("/") + "/howto")
    expect(page.locator("#howto-lines")).to_contain_text("175")
    check(axe, page, f"how to play at {size}", found)
    page.goto(page.url.split("/howto")[0] + "/sheet")
    expect(page.locator("#setup")).to_be_visible()
    check(axe, page, f"sheet setup at {size}", found)
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        page.get_by_label(f"Name of player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    for i, count in enumerate([4, 3, 3, 3]):
        page.locator(f"#e-0-{i}").fill(str(count))
    page.get_by_role("button", name="Enter the hand").click()
    expect(page.locator("#entry-title")).to_contain_text("Hand 2 of 6")
    check(axe, page, f"sheet at {size}", found)
    none_found(found)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_lobby(
    open_page: Callable[..., Any], axe: Callable[..., list[str]], base_url: str, size: str
) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={"name": "Ann", "rules": "skip-the-salad", "toppings": ["cornucopia"]},
    ).json()
    page = open_page(f"/table/{made['table_id']}#token={made['token']}", viewport=VIEWPORTS[size])
    expect(page.locator("#lobby-toppings")).to_contain_text("Cornucopia")
    found: list[str] = []
    found.extend(f"lobby at {size}: {v}" for v in axe(page))
    none_found(found)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_table_during_play(
    open_page: Callable[..., Any], axe: Callable[..., list[str]], base_url: str, size: str
) -> None:
    made = httpx.post(f"{base_url}/api/quickplay", json={"name": "Ann"}).json()
    page = open_page(f"/table/{made['table_id']}#token={made['token']}", viewport=VIEWPORTS[size])
    page.wait_for_selector("#hand .card.legal")
    found: list[str] = []
    check(axe, page, f"table at {size}", found)
    none_found(found)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_replay(
    open_page: Callable[..., Any],
    axe: Callable[..., list[str]],
    finished_table: str,
    size: str,
) -> None:
    page = open_page(f"/replay/{finished_table}", viewport=VIEWPORTS[size])
    expect(page.locator("#round-line")).to_contain_text("Hand 1")
    page.click("#r-next")
    expect(page.locator("#trick .trick-card").first).to_be_attached()
    found: list[str] = []
    check(axe, page, f"replay at {size}", found)
    none_found(found)
