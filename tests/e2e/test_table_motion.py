"""Motion and sound at the table (issue 14, item 10): cards fly to the trick unless the system
asks for reduced motion; a soft tone for your turn and each trick won, off until switched on in
Settings, and remembered."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .test_browser import HAND, LEGAL, click_card, hand, quick_play, wait_hand_changed, wait_my_turn

# Web Audio stands in: count the tones the page makes instead of playing them.
FAKE_AUDIO = """
window.__tones = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { window.__tones++; return {type: '', frequency: {value: 0},
    connect: (x) => x, start() {}, stop() {}}; }
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}},
    connect: (x) => x}; }
};
"""

# Count the animations started on the trick's cards: a card flying in or a trick swept away. A
# count of calls, not a look at what runs at one moment, so a busy machine cannot miss a
# 260 ms flight between the state's arrival and the look.
COUNT_TRICK_ANIMATIONS = """
window.__trickAnimations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.closest && this.closest('#trick')) window.__trickAnimations++;
  return animate.apply(this, args);
};
"""


def play_a_card(page: Any) -> None:
    """Play this page's first legal card and wait until the state that took it from the hand
    is shown (click again if the hand re-rendered under the click)."""
    for _ in range(5):
        wait_my_turn(page)
        before = hand(page)
        click_card(page, LEGAL)
        try:
            wait_hand_changed(page, before)
            return
        except PlaywrightError:
            continue
    raise AssertionError("no card was played in five tries")


def test_sound_off_until_switched_on_and_remembered(
    browser: Any, open_page: Callable[..., Any]
) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.add_init_script(FAKE_AUDIO)
    ctx.add_init_script("localStorage.setItem('salad.pref.pause', 'false')")
    try:
        page = quick_play(lambda path, **kw: open_page(path, context=ctx))
        wait_my_turn(page)
        assert page.evaluate("window.__tones") == 0, "a sound before sounds were switched on"
        page.click("#btn-settings")
        expect(page.locator("#opt-sound")).not_to_be_checked()
        page.check("#opt-sound")
        page.keyboard.press("Escape")
        assert page.evaluate("localStorage.getItem('salad.pref.sound')") == "true"
        assert page.evaluate("window.__tones") > 0  # a sample when switched on
        # Your turn and each trick won: a tone.
        page.evaluate("window.__tones = 0")
        page.locator("#hand .card.legal").first.click(position={"x": 8, "y": 26})
        page.wait_for_function("() => window.__tones > 0", timeout=20_000)
        # Remembered.
        page.reload()
        page.wait_for_selector(HAND)
        page.click("#btn-settings")
        expect(page.locator("#opt-sound")).to_be_checked()
    finally:
        ctx.close()


def test_cards_fly_unless_reduced_motion(browser: Any, open_page: Callable[..., Any]) -> None:
    counts = {}
    for motion in ("no-preference", "reduce"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
        ctx.add_init_script("localStorage.setItem('salad.pref.pause', 'false')")
        ctx.add_init_script(COUNT_TRICK_ANIMATIONS)
        try:
            page = quick_play(lambda path, c=ctx, **kw: open_page(path, context=c))
            play_a_card(page)
            if motion == "no-preference":
                with contextlib.suppress(PlaywrightError):  # the assert below says what
                    page.wait_for_function("() => window.__trickAnimations > 0", timeout=5000)
            else:
                page.wait_for_timeout(1000)  # the bots' next cards come in as well
            counts[motion] = page.evaluate("window.__trickAnimations")
        finally:
            ctx.close()
    assert counts["no-preference"] > 0, "no card flew to the trick"
    assert counts["reduce"] == 0, "cards moved although the system asks for reduced motion"
