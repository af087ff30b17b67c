"""End-to-end: Skip the Salad's suits drawn as vegetables (issue 14, item 5).

The deck data says which suit has a drawing (``art``); js/cards.js draws it as inline SVG in
the hand, the trick and the example of "How to play" (and in the replay: test_pages_replay),
never the suit's letter.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from .test_browser import play_until

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

SUIT_LETTERS = (
    """els => els.flatMap(e => [...e.querySelectorAll('text')].map(t => t.textContent))"""
)


SEE_ART_IN_TRICK = """() => {
  const trick = document.getElementById('trick');
  const look = () => { if (trick.querySelector('.suit-art')) window.__artInTrick = true; };
  window.__artInTrick = false;
  look();
  new MutationObserver(look).observe(trick, { childList: true, subtree: true });
}"""


def test_vegetables_in_hand_and_trick(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/quickplay", json={"name": "You", "rules": "skip-the-salad"}
    ).json()
    page = open_page(f"/table/{made['table_id']}#token={made['token']}")
    page.wait_for_selector("#hand .card")
    # A player named "You" is "You" once, not "You (you)".
    expect(page.locator("#seats .seat.me .name")).to_have_text("You")
    # The keyboard hint's example is a card of this deck, and it names the suits' letters.
    deck = httpx.get(f"{base_url}/api/tables/{made['table_id']}").json()["deck"]
    page.click("#btn-settings")
    hint = page.locator("#key-example")
    for suit in deck["suits"]:
        expect(hint).to_contain_text(f"{suit['letter']} {suit['name']}")
    example = page.inner_text("#key-example kbd")
    assert example[-1] in {s["letter"] for s in deck["suits"]}, example
    assert example[:-1] in {r["label"] for r in deck["ranks"]}, example
    page.keyboard.press("Escape")
    arts = page.eval_on_selector_all("#hand .card .suit-art", "els => els.map(e => e.dataset.art)")
    assert set(arts) <= {"carrot", "broccoli", "tomato", "onion"} and arts
    # No card face shows a suit letter (R B T O) as its suit.
    texts = page.eval_on_selector_all("#hand .card", SUIT_LETTERS)
    assert not {"R", "B", "T", "O"} & set(texts), texts
    # The bots' cards lie in the trick until this seat plays; if it leads, its own card goes
    # there, and the trick may fill and go to its winner in a moment: any card drawn in it is
    # noted as it happens, rather than polled for afterwards. This seat plays until one is
    # seen, as a player would: its first legal card may be a Wild, which waits for High or
    # Low (and has no suit to draw), and a click can land as the hand re-renders.
    page.evaluate(SEE_ART_IN_TRICK)
    try:
        play_until([page], lambda: bool(page.evaluate("window.__artInTrick")), timeout=30)
    except AssertionError:
        trick = page.evaluate("document.getElementById('trick').outerHTML.slice(0, 2000)")
        pytest.fail(f"no vegetable drawn in the trick; it holds: {trick}")
    # The picture once the card has landed (not in flight over a seat's plate).
    page.wait_for_function("() => document.getAnimations().length === 0")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "vegetables-table-1280x800.png"))


def test_vegetables_in_howto(open_page: Callable[..., Any]) -> None:
    page = open_page("/howto?preset=skip-the-salad&players=4")
    expect(page.locator("#howto-trick .suit-art[data-art='tomato']")).to_have_count(8)
    page.locator("#howto-example-box").screenshot(path=str(ARTIFACTS / "vegetables-howto.png"))
