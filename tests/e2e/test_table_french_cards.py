"""Cards in French on a French table page (issue 35): the faces show V D R for Jack Queen
King, the cards are named in French ("Dame de pique"), and a card is typed with the French
codes (valeur puis couleur: DP, 10C), while the codes the page sends stay English."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import HAND, LEGAL, wait_my_turn

RANKS = {"T": "10", "J": "V", "Q": "D", "K": "R"}
SUITS = {"C": "T", "D": "K", "H": "C", "S": "P"}
NAMES = {"C": "de trèfle", "D": "de carreau", "H": "de cœur", "S": "de pique"}

WORDS = {"2": "deux", "3": "trois", "4": "quatre", "5": "cinq", "6": "six", "7": "sept"}
WORDS |= {"8": "huit", "9": "neuf", "T": "dix", "J": "valet", "Q": "dame", "K": "roi", "A": "as"}

# Every announcement, as a screen reader hears it (each may last only a moment).
HEAR = """() => {
  const region = document.getElementById('announce');
  window.__said = [];
  new MutationObserver(() => window.__said.push(region.textContent))
    .observe(region, {childList: true, subtree: true, characterData: true});
}"""

# The rank drawn in the top-left corner of each card of the hand.
FACES = """els => els.map(b => b.querySelector('svg text').textContent)"""


def french(code: str) -> str:
    """A card's code as a French screen types it (docs/fr/glossaire.md)."""
    return RANKS.get(code[:-1], code[:-1]) + SUITS[code[-1]]


def french_name(code: str) -> str:
    """A card's name in a French sentence: "dame de pique"."""
    return f"{WORDS[code[:-1]]} {NAMES[code[-1]]}"


def test_french_faces_names_and_typing(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/quickplay", json={"name": "Élise", "players": 4, "bot": "basic"}
    ).json()
    path, token = made["url"].split("#")
    page = open_page(None)
    page.goto(f"{base_url}{path}?lang=fr#{token}")
    page.wait_for_selector(HAND)
    codes = page.eval_on_selector_all("#hand .card", "els => els.map(b => b.dataset.code)")
    faces = page.eval_on_selector_all("#hand .card", FACES)
    assert all(c[-1] in SUITS for c in codes), codes  # the data: English codes
    assert not {"J", "Q", "K", "T"} & set(faces), faces
    assert faces == [RANKS.get(c[:-1], c[:-1]) for c in codes]
    first = page.locator("#hand .card").first
    expect(first).to_contain_text(NAMES[codes[0][-1]])

    wait_my_turn(page)
    code = str(page.locator(LEGAL).first.get_attribute("data-code"))
    page.keyboard.type(french(code))
    focused = page.evaluate("() => document.activeElement.dataset.code")
    assert focused == code, (code, french(code), focused)

    # Enter plays it; a screen reader hears it in French, the card named in lower case.
    page.evaluate(HEAR)
    page.keyboard.press("Enter")
    mine = f"Tu joues\u00a0: {french_name(code)}"
    page.wait_for_function("want => window.__said.some(s => s.includes(want))", arg=mine)

    # The chat in French.
    page.click("#btn-chat")
    expect(page.locator("#chat-panel h2")).to_have_text("Clavardage")
    expect(page.locator('[data-emote="gg"]')).to_contain_text("Bien joué")
