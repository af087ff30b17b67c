"""End-to-end: the replay page (issue 14, item 8).

A whole game of bots (the host's seat is taken over by a bot: nobody connects to it) is
replayed card by card and trick by trick; the result stays hidden until the last step; the
passes are shown as cards; the end-of-hand banner never covers the trick. Screenshots at the
three viewports go to ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"1280x800": (1280, 800), "390x844": (390, 844), "844x390": (844, 390)}


@pytest.fixture(scope="module")
def base_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    """A server whose bots play at once (a whole game in a few seconds)."""
    with start_server(bot_delay=0) as url:
        yield url


@pytest.fixture(scope="module")
def finished(base_url: str) -> dict[str, Any]:
    """A finished game of Skip the Salad with passing, all played by bots."""
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Ann",
            "rules": "skip-the-salad",
            "toppings": ["pass-the-veggies"],
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
            "bot_takeover": 5,
            "seed": 3,
        },
    ).json()
    tid = made["table_id"]
    headers = {"Authorization": f"Bearer {made['token']}"}
    assert httpx.post(f"{base_url}/api/tables/{tid}/start", headers=headers).status_code == 200
    deadline = time.monotonic() + 120
    while httpx.get(f"{base_url}/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    record = httpx.get(f"{base_url}/api/tables/{tid}/record").json()
    return {"table_id": tid, "record": record}


def test_card_by_card_trick_by_trick_no_spoiler(
    open_page: Callable[..., Any], finished: dict[str, Any]
) -> None:
    record = finished["record"]
    n = len(record["players"])
    page = open_page(f"/replay/{finished['table_id']}")
    expect(page.locator("#round-line")).to_contain_text(record["hands"][0]["round"])
    # No spoiler: neither the winners nor the final totals before the last step.
    expect(page.locator("#replay-final")).to_have_count(0)
    expect(page.locator("#seats .seat.winner")).to_have_count(0)
    # The passes, as cards: each seat's two.
    page.click("#r-card-next")
    expect(page.locator("#replay-passes")).to_be_visible()
    passed = page.eval_on_selector_all(
        "#replay-passes .replay-pass-card", "els => els.map(e => e.dataset.card)"
    )
    assert passed == [c for cards in record["hands"][0]["passes"] for c in cards]
    expect(page.locator("#replay-passes svg").first).to_be_visible()
    # Card by card: one more card of the first trick each step.
    first = record["hands"][0]["tricks"][0]
    for c in range(1, n + 1):
        page.click("#r-card-next")
        expect(page.locator("#trick .trick-card")).to_have_count(c)
        shown = page.eval_on_selector_all(
            "#trick .trick-card", "els => els.map(e => e.dataset.card)"
        )
        assert shown == first["cards"][:c]
    expect(page.locator("#status")).to_contain_text("took the trick")
    # Trick by trick: the next trick, whole.
    page.click("#r-next")
    expect(page.locator("#trick .trick-card")).to_have_count(n)
    shown = page.eval_on_selector_all("#trick .trick-card", "els => els.map(e => e.dataset.card)")
    assert shown == record["hands"][0]["tricks"][1]["cards"]
    page.click("#r-prev")
    expect(page.locator("#round-line")).to_contain_text("trick 1 of")
    # The end of hand 1: the banner sits below the felt, clear of every trick card.
    page.click("#r-last")  # hand 2's deal
    page.click("#r-card-prev")  # the last card of hand 1
    banner = page.locator("#hand-end")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("End of hand 1")
    box = banner.bounding_box()
    for card in page.locator("#trick .trick-card").all():
        c = card.bounding_box()
        assert (
            c["y"] + c["height"] <= box["y"]
            or c["y"] >= box["y"] + box["height"]
            or (c["x"] + c["width"] <= box["x"] or c["x"] >= box["x"] + box["width"])
        ), "the end-of-hand banner covers the trick"
    expect(page.locator("#replay-final")).to_have_count(0)
    # The last step: now the result.
    page.keyboard.press("End")
    expect(page.locator("#replay-final")).to_be_visible()
    winners = [record["players"][s]["name"] for s in record["winners"]]
    for name in winners:
        expect(page.locator("#replay-final")).to_contain_text(name)
    # Vegetables, not letters, in the replay's trick.
    expect(page.locator("#trick .suit-art").first).to_be_attached()


def test_replay_screenshots(open_page: Callable[..., Any], finished: dict[str, Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for name, (w, h) in VIEWPORTS.items():
        page = open_page(f"/replay/{finished['table_id']}", viewport={"width": w, "height": h})
        expect(page.locator("#round-line")).to_contain_text("Hand 1")
        page.click("#r-card-next")
        page.screenshot(path=str(ARTIFACTS / f"replay-passes-{name}.png"))
        page.click("#r-next")
        page.click("#r-card-next")
        page.click("#r-card-next")
        page.screenshot(path=str(ARTIFACTS / f"replay-{name}.png"))
        page.click("#r-last")
        page.click("#r-card-prev")
        page.screenshot(path=str(ARTIFACTS / f"replay-hand-end-{name}.png"))
