"""End-to-end: the score sheet on a phone (issue 14, item 3, the sheet's part).

At 390x844 every player's column of the sheet is on screen (no silent sideways scroll), with
four and with six players; screenshots of the sheet at the three viewports go to
``tests/e2e/artifacts/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from salad import load_ruleset

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"1280x800": (1280, 800), "390x844": (390, 844), "844x390": (844, 390)}
NAMES = ["Annabelle", "Bartholomew", "Cyrus", "Dorothea", "Evangeline", "Fitzgerald"]


def start(page: Any, names: list[str]) -> None:
    expect(page.locator("#setup")).to_be_visible()
    if len(names) != 4:
        page.get_by_label("Players").fill(str(len(names)))
    for i, name in enumerate(names):
        page.get_by_label(f"Name of player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator("#entry-title")).to_contain_text("Hand 1 of 6")


def enter_tricks(page: Any, counts: list[int]) -> None:
    for i, count in enumerate(counts):
        page.locator(f"#e-0-{i}").fill(str(count))
    page.get_by_role("button", name="Enter the hand").click()
    expect(page.locator("#entry-title")).to_contain_text("Hand 2 of 6")


def columns_on_screen(page: Any, players: int, width: int) -> None:
    """Every player's cell of the totals row lies inside the viewport, and nothing of the page
    scrolls sideways."""
    cells = page.locator("#sheet-table tfoot tr.totals td")
    for i in range(players):
        box = cells.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (
            f"column {i + 1} is off screen: {box}"
        )
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("players", [4, 6])
def test_phone_sheet_shows_every_column(open_page: Callable[..., Any], players: int) -> None:
    page = open_page("/sheet", viewport={"width": 390, "height": 844})
    names = NAMES[:players]
    start(page, names)
    tricks = load_ruleset("canadian").deck_for(players).cards_each
    counts = [tricks // players + (1 if i < tricks % players else 0) for i in range(players)]
    enter_tricks(page, counts)
    columns_on_screen(page, players, 390)


def test_sheet_screenshots(open_page: Callable[..., Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for name, (w, h) in VIEWPORTS.items():
        page = open_page("/sheet", viewport={"width": w, "height": h})
        start(page, NAMES[:4])
        enter_tricks(page, [4, 3, 3, 3])
        page.locator("#sheet-table").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"sheet-{name}.png"), full_page=True)
