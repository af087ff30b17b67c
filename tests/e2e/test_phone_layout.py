"""The end of a game on every screen (issue 33): the results of an eight-seat game (every
standing and every action) are in sight at 1280x800, 390x844, 844x390, 375x667 and 360x780
with nothing to scroll, and the replay on a phone shows every seat's hand. One finished game
(bots only, one hand) serves both. Screenshots go to tests/e2e/artifacts/ (looked at by a
person)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .reviewing import finished_game
from .test_browser import ONE_HAND
from .test_table_layout import PHONES, VIEWPORTS

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
SEATS = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 7

RESULTS = """() => {
  const inside = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= -1 && r.left >= -1 && r.bottom <= innerHeight + 1
      && r.right <= innerWidth + 1; };
  const over = document.querySelector('#game-over');
  const out = [];
  document.querySelectorAll('#game-over .standings li, #game-over .btn').forEach((e) => {
    if (!inside(e)) out.push(`out of sight: ${e.textContent.trim()}`);
  });
  for (let e = over; e && e !== document.body; e = e.parentElement)
    if (e.scrollHeight > e.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(e).overflowY))
      out.push(`${e.id || e.className} scrolls`);
  return out;
}"""


@pytest.fixture(scope="module")
def finished(base_url: str) -> tuple[str, str, dict[str, Any]]:
    """An eight-seat game of one hand, over (the host's seat played by a bot)."""
    return finished_game(base_url, SEATS, ONE_HAND.decode())


def test_results_and_replay_fit_every_screen(
    open_page: Callable[..., Any], base_url: str, finished: tuple[str, str, dict[str, Any]]
) -> None:
    tid, token, record = finished
    ARTIFACTS.mkdir(exist_ok=True)
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={token}")
    expect(page.locator("#game-over .standings li")).to_have_count(8)
    found: list[str] = []
    for name, (w, h) in {**VIEWPORTS, **PHONES}.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        found += [f"results {name}: {p}" for p in page.evaluate(RESULTS)]
        page.screenshot(path=str(ARTIFACTS / f"results-8p-{name}.png"))

    # The replay on a phone: each seat's cards, by name, under the felt.
    page.goto(f"{base_url}/replay/{tid}")
    for name in ("phone", "landscape"):
        w, h = VIEWPORTS[name]
        page.set_viewport_size({"width": w, "height": h})
        hands = page.locator("#replay-hands-list li")
        expect(hands).to_have_count(8)
        for i, player in enumerate(record["players"]):
            expect(hands.nth(i)).to_contain_text(player["name"])
            expect(hands.nth(i)).to_be_in_viewport()
        page.screenshot(path=str(ARTIFACTS / f"replay-8p-{name}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(page.locator("#replay-hands-list")).to_be_hidden()
    expect(page.locator("#seats .replay-hands")).to_have_count(8)
    assert not found, "\n".join(found)
