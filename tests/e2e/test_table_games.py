"""End-to-end: the table page's games list (js/table/games.js, issue 17's "Review" on the games
list of a table) against a real server.

A one-hand game plays itself out (the host's seat away, taken over by a bot at once); on the
table page the "Games" tool lists it with its totals and its Replay, Review and record; the host
starts a rematch, which waits for the host's own moves (the page is connected): the list shows
both games, the second in progress without Review (and a spectator's list has no Review at
all); the first game's Review opens the replay page's review (js/review.js) of the host's seat,
whose progress bar runs until the review shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .reviewing import finished_game, reviewing_server

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ONE_HAND = 'preset = "canadian"\nhands = ["no-tricks"]\n'
SEATS = [{"kind": "human"}] + [{"kind": "bot", "bot": "basic"}] * 2
SIZES = (("desktop", (1280, 800)), ("phone", (390, 844)), ("phone-wide", (844, 390)))
# The replay page's review, as it runs: the progress bar's last reading (js/review.js).
WATCH_PROGRESS = """
new MutationObserver(() => {
  const bar = document.getElementById('review-progress');
  if (bar) window.__progress = [bar.ariaValueNow, bar.ariaValueMax];
}).observe(document, {childList: true, subtree: true});
"""


@pytest.fixture(scope="module")
def games_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    """A server of its own that reviews with few worlds (a quick review)."""
    with reviewing_server(start_server, 4) as url:
        yield url


def _shots(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for size_name, (w, h) in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        shot = ARTIFACTS / f"table-games-{name}-{size_name}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        # The list fits the width: no sideways scrolling in the dialog.
        wide = page.evaluate(
            """() => { const d = document.getElementById('dlg-games');
              const right = d.getBoundingClientRect().right;
              return [d.scrollWidth - d.clientWidth, ...[...d.querySelectorAll('*')]
                .filter((e) => e.getBoundingClientRect().right > right)
                .map((e) => `${e.tagName}.${e.className}`)]; }"""
        )
        assert wide[0] <= 1, f"wider than the dialog at {size_name}: {wide}"
    page.set_viewport_size({"width": 1280, "height": 800})


def test_the_games_list_replays_and_reviews_a_finished_game(
    open_page: Callable[..., Any], games_url: str, axe: Callable[..., list[str]]
) -> None:
    tid, token, record = finished_game(games_url, SEATS, ONE_HAND)
    names = [p["name"] for p in record["players"]]
    page = open_page(None)
    page.goto(f"{games_url}/table/{tid}#token={token}")
    expect(page.locator("#game-over")).to_be_visible()

    # Keyboard: the Games tool is a button in the top bar; Enter opens the list.
    page.focus("#btn-games")
    page.keyboard.press("Enter")
    dialog = page.locator("#dlg-games")
    expect(dialog).to_be_visible()
    first = page.locator('#games-list [data-game="1"]')
    expect(first).to_have_attribute("data-status", "over")
    text = first.inner_text()
    winners = [names[i] if i else f"{names[i]} (you)" for i in record["winners"]]
    assert all(w in text for w in winners) and ("won" in text or "win" in text), text
    totals = first.locator(".games-totals li").all_inner_texts()
    assert sorted(totals) == sorted(
        f"{name}{' (you)' if i == 0 else ''} {t}"
        for i, (name, t) in enumerate(zip(names, record["totals"], strict=True))
    )
    assert first.locator("[data-replay]").get_attribute("href") == f"/replay/{tid}?game=1"
    assert first.locator("[data-review]").get_attribute("href") == f"/replay/{tid}?game=1&review=0"
    assert first.locator("[data-download]").get_attribute("href") == (
        f"/api/tables/{tid}/record?game=1"
    )
    # Tab moves through the game's links; Escape closes the dialog.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#dlg-games') !== null")
    assert axe(page) == []
    _shots(page, "over")
    page.keyboard.press("Escape")
    expect(dialog).not_to_be_visible()

    # A rematch waits for the host, who is here: game 2 is in progress, listed without Review.
    page.click("#btn-rematch")
    expect(page.locator("#game-over")).to_have_count(0)
    page.click("#btn-games")
    second = page.locator('#games-list [data-game="2"]')
    expect(second).to_have_attribute("data-status", "playing")
    expect(second).to_contain_text("In progress")
    expect(second.locator("[data-review]")).to_have_count(0)
    expect(second.locator("[data-replay]")).to_have_count(0)
    expect(page.locator("#games-list > li")).to_have_count(2)
    expect(page.locator('#games-list [data-game="1"] [data-review]')).to_have_count(1)
    assert axe(page) == []
    _shots(page, "rematch")

    # A spectator sees the same list, with Replay and the record but no Review (no seat).
    # Games pressed before the table's first state has come (its connection held back): the
    # list waits for it (it said "no table yet", seen on a loaded run).
    watcher = open_page(None)
    held: list[Any] = []
    watcher.route_web_socket("**/ws/tables/**", lambda ws: held.append(ws))
    watcher.goto(f"{games_url}/watch/{tid}")
    watcher.click("#btn-games")
    expect(watcher.locator("#games-body")).to_contain_text("Loading")
    watcher.wait_for_timeout(500)  # the list came from the server by now; the state has not
    expect(watcher.locator("#games-body")).to_contain_text("Loading")
    held[0].connect_to_server()
    expect(watcher.locator("#games-list > li")).to_have_count(2, timeout=20_000)
    expect(watcher.locator('[data-game="1"] [data-replay]')).to_have_count(1)
    expect(watcher.locator('[data-game="1"] [data-download]')).to_have_count(1)
    expect(watcher.locator("#games-list [data-review]")).to_have_count(0)
    expect(watcher.locator('[data-game="1"]')).not_to_contain_text("(you)")

    # The first game's Review: the replay page's review of the host's seat runs and shows.
    page.context.add_init_script(WATCH_PROGRESS)
    page.click('#games-list [data-game="1"] [data-review]')
    page.wait_for_url(f"**/replay/{tid}?game=1&review=0")
    expect(page.locator(".review-summary")).to_be_visible(timeout=90_000)
    assert page.evaluate("window.__progress") is not None, "no progress bar was shown"
    assert "lost to choices" in page.inner_text(".review-summary")
    assert names[0] in page.inner_text(".review-summary")
    page.screenshot(path=str(ARTIFACTS / "table-games-review.png"))
