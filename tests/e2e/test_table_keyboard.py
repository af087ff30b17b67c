"""A whole game by keyboard alone, followed as a screen reader does (issue 14, item 13): arrows
and Enter play every card, Enter presses Next hand, and the aria-live region says each card
played and each trick won by the player's name."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import HAND, LEGAL

TWO_HANDS = 'preset = "canadian"\nhands = ["no-tricks", "no-queens"]\n'


def test_whole_game_by_keyboard(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Kim",
            "rules_toml": TWO_HANDS,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
        },
    ).json()
    tid = made["table_id"]
    httpx.post(
        f"{base_url}/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    page.wait_for_selector(HAND)
    # Every announcement, as a screen reader hears it (each may last only a moment).
    page.evaluate(
        """() => {
        const region = document.getElementById('announce');
        window.__said = [];
        new MutationObserver(() => {
          const text = region.textContent;
          if (text) window.__said.push(text);
        }).observe(region, {childList: true, characterData: true, subtree: true});
      }"""
    )
    nexts = played = 0
    end = time.monotonic() + 150
    while not page.locator("#game-over").count():
        assert time.monotonic() < end, "the game did not end"
        if page.locator("#btn-next-hand").count():
            # The button has the focus: Enter presses it.
            page.wait_for_function("() => document.activeElement.id === 'btn-next-hand'")
            page.keyboard.press("Enter")
            expect(page.locator("#btn-next-hand")).to_have_count(0)
            nexts += 1
            continue
        if page.locator(LEGAL).count():
            before = page.locator(HAND).count()
            page.keyboard.press("ArrowRight")
            if page.evaluate("document.activeElement.classList.contains('legal')"):
                page.keyboard.press("Enter")
                try:
                    page.wait_for_function(
                        f"() => document.querySelectorAll('{HAND}').length < {before}"
                        " || document.getElementById('btn-next-hand')"
                        " || document.getElementById('game-over')",
                        timeout=15000,
                    )
                    played += 1
                except Exception:
                    pass
            continue
        page.wait_for_timeout(80)
    assert nexts == 1 and played >= 2 * 17 - 1
    everything = " ".join(page.evaluate("window.__said"))
    assert "Kim" not in everything or "You play" in everything
    assert "You play" in everything and "Random bot 2 plays" in everything
    assert "takes the trick" in everything or "You take the trick" in everything
    assert "Hand 1 is over" in everything
    expect(page.locator("#game-over")).to_be_visible()
