"""The end of a hand in the browser (issue 14, item 1): the last trick stays on the felt, won;
the hand's summary (each seat's points by penalty, the totals and places) stays until the player
presses Next hand, comes back the same after a reload, and agrees with the plates and the sheet.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import HAND, LEGAL, click_card, hand, table_id, wait_hand_changed

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844), "landscape": (844, 390)}


LOSE_NEXT = """
window.__sockets = [];
window.__loseNext = false;
window.WebSocket = class extends window.WebSocket {
  constructor(...args) { super(...args); window.__sockets.push(this); }
  send(data) {
    if (window.__loseNext && String(data).includes('"next"')) { window.__loseNext = false; return; }
    super.send(data);
  }
};
"""
"""A page whose websockets are listed in ``window.__sockets`` and which loses its next
"next" message while ``window.__loseNext`` is set."""


def play_to_summary(page: Any, timeout: float = 120) -> None:
    """Play the first legal card on each turn until the hand's summary is up."""
    end = time.monotonic() + timeout
    while not page.locator("#hand-summary").count():
        assert time.monotonic() < end, "the hand never ended"
        if page.locator(LEGAL).count():
            before = hand(page)
            try:
                click_card(page, LEGAL)
                wait_hand_changed(page, before)
            except Exception:  # re-rendered under the click: look again
                pass
        else:
            time.sleep(0.1)


def numbers(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.textContent.trim())")


def test_hand_summary_waits_for_next_hand(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Ann",
            "players": 4,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        },
    ).json()
    tid = made["table_id"]
    httpx.post(
        f"{base_url}/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    page.wait_for_selector(HAND)
    assert table_id(page) == tid
    lobby = httpx.get(f"{base_url}/api/tables/{tid}").json()
    play_to_summary(page)

    summary = page.locator("#hand-summary")
    expect(summary).to_be_visible()
    expect(summary.locator("h2")).to_contain_text(lobby["hands"][0]["round"])
    # The columns are the round's penalties, as the ruleset names them, each with its cost
    # ("Tricks, 10 each": a cell's 80 is 8 tricks), as the lobby says it.
    heads = numbers(page, "#hand-summary thead th")
    costs = numbers(page, "#hand-summary thead th .each")
    lines = [lobby["penalty_lines"][i] for i in lobby["hands"][0]["penalties"]]
    wanted = [p.split(":")[0] for p in lines]
    assert [h.removesuffix(c) for h, c in zip(heads[1:], costs, strict=False)] == wanted
    said = [p.rpartition(" costs ")[2].split()[0] for p in lines]
    assert costs == [f"{c} each" for c in said]
    # The header and the plates still show the hand just played until Next hand: its name and
    # number, no cards in hand; the penalty columns are points, as the caption says.
    expect(page.locator("#round-line")).to_contain_text(f"Hand 1/{len(lobby['hands'])}")
    expect(page.locator("#round-line")).to_contain_text(lobby["hands"][0]["round"])
    expect(page.locator("#seats .mini-backs span")).to_have_count(0)
    expect(page.locator("#side table.sheet tbody tr.current")).to_have_count(0)
    caption = summary.locator("caption")
    expect(caption).to_have_text("Points of hand 1, penalty by penalty")
    shown = caption.bounding_box()
    assert shown is not None and shown["height"] > 8, "the caption is for screen readers only"
    # The last trick stays on the felt, its winner's card marked.
    expect(page.locator("#trick .trick-card")).to_have_count(4)
    expect(page.locator("#trick .trick-card.won")).to_have_count(1)
    # No card to play meanwhile: the next hand's cards come with Next hand.
    expect(page.locator(HAND)).to_have_count(0)

    # The hand's points: the summary, the plates' "+N" and the score sheet agree.
    points = numbers(page, "#hand-summary tbody td.hand-pts")
    plates = page.eval_on_selector_all(
        "#seats .seat",
        "els => els.sort((a, b) => a.dataset.seat - b.dataset.seat)"
        ".map(e => e.querySelector('.pen').textContent.replace('+', '').trim())",
    )
    assert plates == points
    page.click("#btn-scores")
    row = numbers(page, "#dlg-scores table.sheet tbody tr:first-child td")
    page.keyboard.press("Escape")
    assert row[: len(points)] == points
    assert sum(int(p) for p in points) > 0

    # Screenshots of the summary at the three sizes (looked at by a person).
    ARTIFACTS.mkdir(exist_ok=True)
    for name, (w, h) in VIEWPORTS.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(200)
        page.screenshot(path=str(ARTIFACTS / f"hand-summary-{name}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})

    # A reload shows the same summary: it is the server's, not the page's.
    text = summary.inner_text()
    page.add_init_script(LOSE_NEXT)
    page.reload()
    expect(page.locator("#hand-summary")).to_be_visible()
    assert page.locator("#hand-summary").inner_text() == text

    # A Next hand that never reached the server (its connection, or the server, went away):
    # once the page has reconnected, the server still waits for this seat, and the page offers
    # Next hand again instead of waiting for good.
    page.evaluate("window.__loseNext = true")
    page.locator("#btn-next-hand").click()
    expect(page.locator("#btn-next-hand")).to_be_hidden()
    page.evaluate("window.__sockets.at(-1).close()")
    expect(page.locator("#btn-next-hand")).to_be_visible()
    expect(page.locator("#hand-summary")).to_be_visible()

    # Next hand (by keyboard: the button has the focus): the new hand is dealt.
    page.locator("#btn-next-hand").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#hand-summary")).to_have_count(0)
    expect(page.locator(HAND)).to_have_count(13)
    expect(page.locator("#round-line")).to_contain_text(lobby["hands"][1]["round"])
