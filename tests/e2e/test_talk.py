"""Table talk and help against bots in the browser (issue 14, items 9 and 11): a chat line shows
beside the speaker's seat and in the chat panel, as text even when it is markup; the chat can be
muted (remembered after a reload, which shows the table's recent lines again); a hint
highlights the expert's card and says why; the card is played and then undone."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import HAND, click_card, hand, wait_hand_changed, wait_my_turn

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844), "landscape": (844, 390)}


def box(page: Any, selector: str) -> dict[str, float]:
    return page.eval_on_selector(
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }",
    )


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"talk-{name}.png"
    page.screenshot(path=str(path))
    assert path.stat().st_size > 10_000


def test_chat_mute_hint_play_and_undo_at_a_table_of_bots(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(
        f"{base_url}/api/quickplay", json={"name": "Quinn", "players": 4, "bot": "basic"}
    ).json()
    page = open_page(None)
    page.goto(base_url + made["url"])
    page.wait_for_selector(HAND)
    wait_my_turn(page)

    # A chat line: beside the seat, and in the panel.
    page.click("#btn-chat")
    page.fill("#chat-input", "good luck all")
    page.press("#chat-input", "Enter")
    bubble = page.locator('.chat-bubble[data-seat="0"]')
    expect(bubble).to_contain_text("good luck all")
    expect(page.locator("#chat-log")).to_contain_text("Quinn (you): good luck all")
    b, p = box(page, '.chat-bubble[data-seat="0"]'), box(page, '#seats .seat[data-seat="0"]')
    assert b["left"] < p["right"] and b["right"] > p["left"], "the bubble is not by the plate"
    assert -2 <= p["top"] - b["bottom"] <= 30 or -2 <= b["top"] - p["bottom"] <= 30

    # A line that is markup stays text.
    markup = '<img src=x onerror="owned=1"><b>bold</b>'
    page.fill("#chat-input", markup)
    page.press("#chat-input", "Enter")
    expect(page.locator("#chat-log")).to_contain_text(markup)
    expect(bubble).to_contain_text(markup)
    assert page.locator("#chat-log li span *, .chat-bubble *").count() == 0, "markup ran"
    assert page.evaluate("window.owned") is None
    page.click('[data-emote="gg"]')
    expect(bubble).to_contain_text("👏")
    # Drawn as SVG, by no emoji font: the emoji is the picture's description, not a glyph.
    expect(bubble.locator("svg.emote-pic")).to_have_count(1)
    assert "👏" not in page.evaluate(
        "() => [...document.querySelector('.chat-bubble').childNodes]"
        ".filter(n => n.nodeType === 3).map(n => n.textContent).join('')"
    )

    # A hint: the expert's card is highlighted, and the status line says why.
    expect(page.locator("#btn-hint")).to_be_visible()
    page.click("#btn-hint")
    hinted = page.locator("#hand .card.hinted")
    expect(hinted).to_have_count(1, timeout=30_000)
    expect(hinted).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator("#status .hint-why")).to_contain_text("Hint: ")
    for name, (w, h) in VIEWPORTS.items():
        page.set_viewport_size({"width": w, "height": h})
        page.click('[data-emote="nice"]')  # a bubble placed for this size
        expect(bubble).to_contain_text("Nice")
        shoot(page, f"{name}-chat")
        page.click("#chat-close")
        expect(hinted).to_have_count(1)
        expect(page.locator("#btn-hint")).to_be_in_viewport()
        shoot(page, f"{name}-hint")
        if name != "landscape":
            page.click("#btn-chat")
    page.set_viewport_size({"width": 1280, "height": 800})

    # Play the hinted card, then undo: the hand is as it was.
    before = hand(page)
    card = hinted.get_attribute("data-code")
    click_card(page, "#hand .card.hinted")
    if page.locator("[data-wild='high']").count():
        page.click("[data-wild='high']")
    wait_hand_changed(page, before)
    assert card not in hand(page) or hand(page).count(card) < before.count(str(card))
    expect(page.locator("#btn-undo")).to_be_visible()
    page.click("#btn-undo")
    expect(page.locator("#toasts")).to_contain_text("You took back")
    page.wait_for_function(
        "before => JSON.stringify([...document.querySelectorAll('#hand .card')]"
        ".map(e => e.dataset.code)) === JSON.stringify(before)",
        arg=before,
        timeout=10_000,
    )
    expect(page.locator("#hand .card.hinted")).to_have_count(0)

    # Mute: no bubbles, remembered after a reload; unmuted, the recent lines are back.
    page.click("#btn-chat")
    page.click("#chat-mute")
    expect(page.locator(".chat-muted-note")).to_be_visible()
    expect(page.locator(".chat-bubble")).to_have_count(0)
    page.click('[data-emote="wow"]')
    page.wait_for_timeout(700)
    expect(page.locator(".chat-bubble")).to_have_count(0)
    page.reload()
    page.wait_for_selector(HAND)
    page.click("#btn-chat")
    expect(page.locator("#chat-mute")).to_have_attribute("aria-pressed", "true")
    page.click("#chat-mute")
    expect(page.locator("#chat-log")).to_contain_text("good luck all")
    expect(page.locator("#chat-log")).to_contain_text("😮")


def test_spectators_read_as_text_and_write_once_the_host_allows(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(
        f"{base_url}/api/quickplay", json={"name": "Host", "players": 3, "bot": "random"}
    ).json()
    host = open_page(None)
    host.goto(base_url + made["url"])
    host.wait_for_selector(HAND)
    watcher = open_page(f"/watch/{made['table_id']}", viewport={"width": 390, "height": 844})
    watcher.wait_for_selector("#seats .seat")
    watcher.click("#btn-chat")
    expect(watcher.locator(".chat-note")).to_contain_text("Spectators can read the chat")
    expect(watcher.locator("#chat-input")).to_have_count(0)

    markup = "<script>owned=1</script><i>hi</i> & co"
    host.click("#btn-chat")
    host.fill("#chat-input", markup)
    host.press("#chat-input", "Enter")
    expect(watcher.locator("#chat-log")).to_contain_text(f"Host: {markup}")
    expect(watcher.locator('.chat-bubble[data-seat="0"]')).to_contain_text(markup)
    assert watcher.locator("#chat-log li span *, .chat-bubble *").count() == 0
    assert watcher.evaluate("window.owned") is None

    host.check("#chat-spectators")
    expect(watcher.locator("#chat-input")).to_be_visible()
    watcher.fill("#chat-input", "thanks!")
    watcher.press("#chat-input", "Enter")
    expect(host.locator("#chat-log")).to_contain_text("Spectator: thanks!")
    shoot(watcher, "spectator-phone")
