"""Motion and sound at the table (issue 14, item 10): cards fly to the trick unless the system
asks for reduced motion; a soft tone for your turn and each trick won, off until switched on in
Settings, and remembered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from .test_browser import HAND, quick_play, wait_my_turn

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

# The most animations running at once on the trick's cards within two seconds.
TRICK_ANIMATIONS = """() => new Promise((done) => {
  let most = 0;
  const end = performance.now() + 2500;
  const look = () => {
    const n = document.getAnimations().filter((a) => a.effect && a.effect.target &&
      a.effect.target.closest && a.effect.target.closest('#trick')).length;
    most = Math.max(most, n);
    if (performance.now() < end) requestAnimationFrame(look); else done(most);
  };
  look();
})"""


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
        page.wait_for_function("window.__tones > 0", timeout=20_000)
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
        try:
            page = quick_play(lambda path, c=ctx, **kw: open_page(path, context=c))
            wait_my_turn(page)
            page.locator("#hand .card.legal").first.click(position={"x": 8, "y": 26})
            counts[motion] = page.evaluate(TRICK_ANIMATIONS)
        finally:
            ctx.close()
    assert counts["no-preference"] > 0, "no card flew to the trick"
    assert counts["reduce"] == 0, "cards moved although the system asks for reduced motion"
