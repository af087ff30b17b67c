"""End-to-end: the home page's quick play choices (issue 14, item 7).

"Play against bots" offers the server's presets, the number of players and the bot level;
the choice is remembered for next time and still starts in one click; an open seat in the
lobby offers the same bot level by default. Screenshots of home at the three viewports.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"1280x800": (1280, 800), "390x844": (390, 844), "844x390": (844, 390)}


def test_quick_play_choices_are_offered_remembered_and_one_click(
    open_page: Callable[..., Any], base_url: str
) -> None:
    page = open_page("/")
    rules = page.locator("#quick-rules option")
    expect(rules).to_have_count(len(httpx.get(f"{base_url}/api/options").json()["presets"]))
    titles = rules.all_inner_texts()
    assert {"Canadian Salad", "Fruit Salad", "Skip the Salad"} <= set(titles)
    page.select_option("#quick-rules", "skip-the-salad")
    page.select_option("#quick-players", "5")
    page.select_option("#quick-bot", "advanced")
    expect(page.locator("#quick-hint")).to_contain_text("4 advanced bots, a game of Skip the Salad")
    page.fill("#quick-name", "Quinn")
    page.click("#btn-quick")
    page.wait_for_url("**/table/**")
    table_id = page.url.rsplit("/", 1)[-1].split("#")[0]
    lobby = httpx.get(f"{base_url}/api/tables/{table_id}").json()
    assert lobby["rules"] == "skip-the-salad"
    assert len(lobby["seats"]) == 5
    assert {s["bot"] for s in lobby["seats"][1:]} == {"advanced"}
    # Next time (same browser): the same choices, already selected.
    page.goto(f"{base_url}/")
    expect(page.locator("#quick-rules")).to_have_value("skip-the-salad")
    expect(page.locator("#quick-players")).to_have_value("5")
    expect(page.locator("#quick-bot")).to_have_value("advanced")
    # The "Create a table" form's bot seats start at that level too.
    expect(page.locator("#c-seats [data-bot]").first).to_have_value("advanced")
    # A rules file is explained in place (no path of the source tree), and the swap-in rounds
    # say what each does, in the ruleset's words.
    expect(page.locator("#c-file-what")).to_contain_text("text file")
    assert "docs/" not in page.inner_text("#create")
    page.select_option("#c-preset", "skip-the-salad")
    said = httpx.get(f"{base_url}/api/options").json()
    notes = page.locator("#c-swap-notes")
    for swap in said["swaps"]["skip-the-salad"]:
        expect(notes).to_contain_text(
            f"{swap['name']}: {said['swap_text']['skip-the-salad'][swap['id']]}"
        )
    # The host's lobby in this browser: an open seat offers that bot level first (not the
    # first of the list, "random").
    made = httpx.post(f"{base_url}/api/tables", json={"name": "Quinn", "players": 3}).json()
    page.goto(f"{base_url}/table/{made['table_id']}#token={made['token']}")
    expect(page.locator("[data-botsel='1']")).to_have_value("advanced")


def test_lobby_bot_level_without_a_kept_choice(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(f"{base_url}/api/tables", json={"name": "Ann", "players": 3}).json()
    page = open_page(f"/table/{made['table_id']}#token={made['token']}")
    # Basic, as everywhere else (issue 33), not the first of the list.
    bots = httpx.get(f"{base_url}/api/options").json()["bots"]
    assert "basic" in bots and bots[0] != "basic", bots
    expect(page.locator("[data-botsel='1']")).to_have_value("basic")


def test_home_screenshots(open_page: Callable[..., Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for name, (w, h) in VIEWPORTS.items():
        page = open_page("/", viewport={"width": w, "height": h})
        expect(page.locator("#quick-rules option").first).to_be_attached()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= w, f"home scrolls sideways at {name}: {width} px"
        page.screenshot(path=str(ARTIFACTS / f"home-{name}.png"), full_page=False)
