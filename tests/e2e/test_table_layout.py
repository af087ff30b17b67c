"""The table fits every screen (issue 14, item 3): at 1280x800, 390x844 and 844x390, with 3, 4, 6
and 8 players, no seat plate overlaps another plate, a trick card or the hand; no trick card
overlaps the hand; names and the round's name are not cut; everything is inside the window; a
card of the hand can be tapped on a strip at least 44 px wide on a touch screen. Screenshots of
each go to tests/e2e/artifacts/ (looked at by a person)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from .test_browser import HAND, LEGAL, play_one

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844), "landscape": (844, 390)}

BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return {l: r.left, r: r.right, t: r.top, b: r.bottom,
            what: e.dataset.seat || e.id || e.className}; };
  const cards = [...document.querySelectorAll('#hand .card')];
  let hand = null;
  if (cards.length) {
    const bs = cards.map(box);
    hand = {l: Math.min(...bs.map(b => b.l)), r: Math.max(...bs.map(b => b.r)),
            t: Math.min(...bs.map(b => b.t)), b: Math.max(...bs.map(b => b.b)), what: 'hand'};
  }
  const cut = [...document.querySelectorAll(
      '#seats .seat .name, #round-line .round-name, #side .sheet tbody th, #trick .who')]
    .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent);
  return {plates: [...document.querySelectorAll('#seats .seat')].map(box),
          trick: [...document.querySelectorAll('#trick .trick-card')].map(box),
          hand, cut, vw: innerWidth, vh: innerHeight,
          sideways: document.documentElement.scrollWidth > innerWidth};
}"""


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (
        min(a["r"], b["r"]) - max(a["l"], b["l"]) > 1
        and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 1
    )


def inside(a: dict[str, Any], width: float, height: float) -> bool:
    return a["l"] >= -1 and a["t"] >= -1 and a["r"] <= width + 1 and a["b"] <= height + 1


def problems(found: dict[str, Any]) -> list[str]:
    out = []
    plates, trick, hand = found["plates"], found["trick"], found["hand"]
    for i, a in enumerate(plates):
        for b in plates[i + 1 :]:
            if overlap(a, b):
                out.append(f"plates {a['what']} and {b['what']} overlap")
        for c in trick:
            if overlap(a, c):
                out.append(f"plate {a['what']} covers the trick card of seat {c['what']}")
        if hand and overlap(a, hand):
            out.append(f"plate {a['what']} covers the hand")
    for c in trick:
        if hand and overlap(c, hand):
            out.append(f"the trick card of seat {c['what']} covers the hand")
    for a in [*plates, *trick, *([hand] if hand else [])]:
        if not inside(a, found["vw"], found["vh"]):
            out.append(f"{a['what']} is outside the window")
    out += [f"cut: {text!r}" for text in found["cut"]]
    if found["sideways"]:
        out.append("the page scrolls sideways")
    return out


def table_with_trick(open_page: Callable[..., Any], base_url: str, players: int) -> Any:
    """A table of ``players`` (the host and bots), at the host's turn with cards on the table."""
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Alexandra",
            "players": players,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * (players - 1),
        },
    ).json()
    tid = made["table_id"]
    httpx.post(
        f"{base_url}/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    page.wait_for_selector(HAND)
    end = time.monotonic() + 60
    while True:
        assert time.monotonic() < end, "never the host's turn with cards on the table"
        if page.locator(LEGAL).count():
            if page.locator("#trick .trick-card").count() >= min(players - 1, 3):
                return page
            play_one(page)
        elif not play_one(page):  # it presses Next hand when the hand ended first
            page.wait_for_timeout(100)


@pytest.mark.parametrize("players", [3, 4, 6, 8])
def test_table_fits_every_screen(
    open_page: Callable[..., Any], base_url: str, players: int
) -> None:
    page = table_with_trick(open_page, base_url, players)
    ARTIFACTS.mkdir(exist_ok=True)
    found_problems = []
    for name, (w, h) in VIEWPORTS.items():
        page.set_viewport_size({"width": w, "height": h})
        for _ in range(3):  # a bot's card may be landing (an animation): look again
            page.wait_for_timeout(350)
            found = page.evaluate(BOXES)
            seen = problems(found)
            if not seen:
                break
        page.screenshot(path=str(ARTIFACTS / f"table-{players}p-{name}.png"))
        assert found["plates"] and found["hand"], name
        found_problems += [f"{name}: {p}" for p in seen]
    assert not found_problems, "\n".join(found_problems)


def test_hand_cards_are_wide_enough_to_tap(browser: Any, base_url: str) -> None:
    """On a touch screen every card of a full hand shows a strip at least 44 px wide."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    ctx.add_init_script("localStorage.setItem('salad.pref.pause', 'false')")
    try:
        made = httpx.post(
            f"{base_url}/api/tables",
            json={
                "name": "Tap",
                "players": 3,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
            },
        ).json()
        tid = made["table_id"]
        httpx.post(
            f"{base_url}/api/tables/{tid}/start",
            headers={"Authorization": f"Bearer {made['token']}"},
        )
        page = ctx.new_page()
        page.goto(f"{base_url}/table/{tid}#token={made['token']}")
        page.wait_for_selector(HAND)
        strips = page.evaluate(
            """() => { const cards = [...document.querySelectorAll('#hand .card')];
              return cards.map((c, i) => { const r = c.getBoundingClientRect();
                const next = cards[i + 1];
                const right = next ? Math.min(r.right, next.getBoundingClientRect().left) : r.right;
                return right - r.left; }); }"""
        )
        assert len(strips) >= 13
        assert min(strips) >= 44, strips
        # Every card can be reached: the hand scrolls sideways within itself, not the page.
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table-touch-hand.png"))
    finally:
        ctx.close()
