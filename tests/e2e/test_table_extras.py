"""What the table teaches and tells (issue 14, items 5, 12 and 13): the toppings in play by name
with what each does, passed cards marked until the pass is done, the trick's leader marked, a
legend for the plates' numbers, and every card played and trick won said in the page's
``aria-live`` region by the player's name."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from salad import Game, load_ruleset

from .test_browser import HAND, LEGAL, click_card, play_one

SETTINGS = {"toppings": "all"}


def seed_host_not_dealer() -> int:
    """A seed whose first dealer is not seat 0, so a bot passes after the host."""
    rs = load_ruleset("skip-the-salad", SETTINGS)
    for seed in range(1, 200):
        if Game(rs, 4, seed=seed).dealer not in (0, 3):
            return seed
    raise AssertionError("no such seed")


@pytest.fixture(scope="module")
def base_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    """A server whose bots play at the server's own pace (not the session server's quick one):
    the passed cards stay marked while a bot after the host has not passed yet."""
    with start_server() as url:
        yield url


def test_toppings_passes_leader_legend_and_announcements(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Ann",
            "players": 4,
            "rules": "skip-the-salad",
            **SETTINGS,
            "seed": seed_host_not_dealer(),
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        },
    ).json()
    tid = made["table_id"]
    httpx.post(
        f"{base_url}/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    lobby = httpx.get(f"{base_url}/api/tables/{tid}").json()
    assert lobby["marker"] and lobby["topping_text"]
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    page.wait_for_selector(HAND)

    # The toppings in play, by name with what each does (the server's words).
    items = page.locator("#toppings li")
    expect(items).to_have_count(len(lobby["topping_text"]))
    for i, text in enumerate(lobby["topping_text"]):
        expect(items.nth(i)).to_have_text(text)
    expect(page.locator("#plate-legend")).to_contain_text("points this hand")
    # A phone has no side panel: the names stay in sight under the status line.
    page.set_viewport_size({"width": 390, "height": 844})
    strip = page.locator("#toppings-strip")
    expect(strip).to_be_visible()
    for text in lobby["topping_text"]:
        expect(strip).to_contain_text(text.split(": ")[0])
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(strip).to_be_hidden()

    # The pass: the chosen cards stay marked as passed until everyone has passed.
    page.wait_for_selector(LEGAL, timeout=20_000)
    need = int(lobby["passing"])
    for _ in range(need):
        click_card(page, f"{LEGAL}:not(.selected)")
    page.click("#btn-pass")
    expect(page.locator("#hand .card.passed")).to_have_count(need)
    expect(page.locator("#hand .card.passed")).to_have_count(0, timeout=20_000)

    # The trick marks who led it; the page says each card played, by name.
    end = time.monotonic() + 60
    while page.locator("#trick .trick-card").count() == 0:
        assert time.monotonic() < end
        if not play_one(page):
            page.wait_for_timeout(100)
    expect(page.locator("#trick .trick-card.leader")).to_have_count(1)
    expect(page.locator("#trick .trick-card.leader .led-mark")).to_have_text("led")
    names = [s["name"] for s in lobby["seats"]]
    announce = page.locator("#announce")
    expect(announce).to_contain_text("plays")
    while "the trick" not in (announce.text_content() or ""):
        assert time.monotonic() < end, "no trick was ever announced"
        if not play_one(page):
            page.wait_for_timeout(100)
    said = announce.text_content() or ""
    assert any(n in said for n in names) or "You take" in said
    assert "seat" not in said.lower()
