"""End-to-end: "How to play" (issue 14, item 6) and the toppings in the lobby (item 5).

The page is generated from the ruleset in play: a preset's (``/howto?preset=...``) or a table's
own, toppings included (``/table/{id}/howto``); it is linked from home, the lobby and the table.
Screenshots of the page at the three viewports go to ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"1280x800": (1280, 800), "390x844": (390, 844), "844x390": (844, 390)}
JARGON = re.compile(r"rank of|any suit|per card")


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_howto_of_a_preset(open_page: Callable[..., Any]) -> None:
    page = open_page("/howto")
    expect(page.locator("#howto-title")).to_have_text("How to play Canadian Salad")
    hands = page.locator("#howto-hands")
    expect(hands).to_contain_text("Each heart you take costs 10.")
    expect(hands).to_contain_text("Taking the King of Spades costs 100.")
    expect(page.locator("#howto-removals")).to_contain_text("3 players: take out Two of Clubs")
    expect(page.locator("#howto-lines")).to_contain_text("175")
    expect(page.locator("#howto-trick .howto-card svg")).to_have_count(4)
    assert not JARGON.search(page.locator("main").inner_text())
    # Another preset and player count: the words follow.
    page.select_option("#howto-preset", "skip-the-salad")
    expect(page.locator("#howto-title")).to_have_text("How to play Skip the Salad")
    expect(hands).to_contain_text("Each tomato you take costs 10.")
    page.select_option("#howto-players", "3")
    expect(page.locator("#howto-objective")).to_contain_text("3 players")
    assert "preset=skip-the-salad" in page.url and "players=3" in page.url


def test_howto_screenshots(open_page: Callable[..., Any]) -> None:
    for name, (w, h) in VIEWPORTS.items():
        page = open_page("/howto?preset=canadian&players=4", viewport={"width": w, "height": h})
        expect(page.locator("#howto-lines")).to_contain_text("175")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= w, f"the page scrolls sideways at {name}: {width} px"
        shoot(page, f"howto-{name}")


def test_home_links_to_howto(open_page: Callable[..., Any]) -> None:
    page = open_page("/")
    link = page.locator("#link-howto")
    expect(link).to_be_visible()
    link.click()
    expect(page.locator("#howto-title")).to_contain_text("How to play")


def test_lobby_shows_toppings_and_links_to_the_tables_howto(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={"name": "Ann", "rules": "skip-the-salad", "toppings": ["spicy-pepper", "cornucopia"]},
    ).json()
    page = open_page(f"/table/{made['table_id']}#token={made['token']}")
    toppings = page.locator("#lobby-toppings")
    expect(toppings).to_contain_text("Spicy Pepper")
    expect(toppings).to_contain_text("Carrots are trump in round one")
    expect(toppings).to_contain_text("Cornucopia")
    shoot(page, "lobby-1280x800")
    for name, (w, h) in VIEWPORTS.items():
        if name != "1280x800":
            small = open_page(
                f"/table/{made['table_id']}#token={made['token']}",
                viewport={"width": w, "height": h},
            )
            expect(small.locator("#lobby-toppings")).to_contain_text("Spicy Pepper")
            shoot(small, f"lobby-{name}")
    page.locator("#lobby-howto").click()
    expect(page.locator("#howto-title")).to_have_text("How to play Skip the Salad")
    expect(page.locator("#howto-toppings")).to_contain_text("Spicy Pepper")
    expect(page.locator("#howto-choose")).to_be_hidden()
    expect(page.locator("#howto-back")).to_have_attribute("href", f"/table/{made['table_id']}")
    # The table page's own link goes there too.
    page.goto(f"{base_url}/table/{made['table_id']}")
    expect(page.locator("#link-howto")).to_have_attribute(
        "href", f"/table/{made['table_id']}/howto"
    )
