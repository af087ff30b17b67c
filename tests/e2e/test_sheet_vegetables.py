"""End-to-end: the score sheet draws Skip the Salad's suits as vegetables (issue 14, item 5).

Wherever the /sheet page or the table's Scores dialog names a suit or a card of a suit that has
a drawing (the deck's ``art``), it shows the drawing of js/cards.js, never the suit's letter
("(KO)"); a deck without drawings (Canadian Salad) reads as before. Screenshots of both at the
three viewports go to ``tests/e2e/artifacts/``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from salad import load_ruleset
from salad.sheet import ScoreSheet

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"1280x800": (1280, 800), "390x844": (390, 844), "844x390": (844, 390)}
NAMES = ["Annabelle", "Bartholomew", "Cyrus", "Dorothea"]
SVG_TEXTS = "els => els.flatMap(e => [...e.querySelectorAll('svg text')].map(t => t.textContent))"


def start(page: Any, preset: str) -> ScoreSheet:
    """A sheet of ``preset`` for four, with its first three hands entered (as the model
    scores them); the model, for the expected texts."""
    page.select_option("#s-preset", preset)
    for i, name in enumerate(NAMES):
        page.get_by_label(f"Name of player {i + 1}").fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    model = ScoreSheet(load_ruleset(preset), NAMES)
    for index in range(3):
        expect(page.locator("#entry-title")).to_contain_text(f"Hand {index + 1} of 6")
        field = model.fields(index)[0]
        share, rest = divmod(field.total, len(NAMES))
        counts = [share + (1 if s < rest else 0) for s in range(len(NAMES))]
        for s, count in enumerate(counts):
            page.locator(f"#e-0-{s}").fill(str(count))
        page.get_by_role("button", name="Enter the hand").click()
        model.enter({field.id: counts})
    expect(page.locator("#entry-title")).to_contain_text("Hand 4 of 6")
    return model


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_skip_the_salad_sheet_draws_vegetables(open_page: Callable[..., Any], size: str) -> None:
    w, h = VIEWPORTS[size]
    page = open_page("/sheet", viewport={"width": w, "height": h})
    model = start(page, "skip-the-salad")
    deck = model.rules.deck
    card = next(f for f in model.fields(3) if f.code)  # the round's one card ("KO")
    suit = deck.suits[deck.suit_of[card.mask.bit_length() - 1]]
    # The round being entered, its question and its row of the sheet draw the card's suit.
    for where in ("#entry-title", "#entry-fields legend", "#sheet-table tr[data-hand='4'] th"):
        drawing = page.locator(f"{where} .card-mark .suit-art[data-art='{suit.art}']")
        expect(drawing).to_have_count(1)
    # The round of a suit (hand 2 here) shows that suit's drawing in its row.
    tomato = model.fields(1)[0]
    tomato_suit = deck.suits[deck.suit_of[tomato.mask.bit_length() - 1]]
    row = page.locator("#sheet-table tr[data-hand='2'] th .suit-mark .suit-art")
    expect(row).to_have_attribute("data-art", tomato_suit.art)
    # No suit letter anywhere: not the card's code in words, not a letter drawn in a suit's place.
    text = page.locator("#game").inner_text()
    assert f"({card.code})" not in text, text
    letters = {s.letter for s in deck.suits}
    drawn = page.eval_on_selector_all("#game .suit-mark, #game .card-mark", SVG_TEXTS)
    assert not letters & set(drawn), drawn
    # A screen reader hears the card's name, not its code.
    legend = page.get_by_role("radio", name=f"{card.label}: {NAMES[0]}", exact=True)
    expect(legend).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= w
    shoot(page, f"sheet-skip-the-salad-{size}")


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_canadian_sheet_is_unchanged(open_page: Callable[..., Any], size: str) -> None:
    w, h = VIEWPORTS[size]
    page = open_page("/sheet", viewport={"width": w, "height": h})
    model = start(page, "canadian")
    card = next(f for f in model.fields(3) if f.code)
    expect(page.locator("#entry-fields legend")).to_contain_text(card.title)
    expect(page.locator("#game .suit-mark, #game .card-mark")).to_have_count(0)
    # Four players at every size: the whole sheet, Fix buttons included, without a sideways
    # scroll.
    fix = page.locator("#sheet-table [data-fix='2']").bounding_box()
    assert fix is not None and fix["x"] + fix["width"] <= w
    expect(page.locator(".sheet-more")).to_have_count(0)
    shoot(page, f"sheet-canadian-{size}")


def test_scores_dialog_draws_vegetables(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/quickplay", json={"name": "Veg", "rules": "skip-the-salad"}
    ).json()
    page = open_page(f"/table/{made['table_id']}#token={made['token']}")
    page.wait_for_selector("#hand .card")
    page.locator("#btn-scores").click()
    body = page.locator("#scores-body")
    expect(body.locator(".suit-mark .suit-art[data-art='tomato']")).to_have_count(1)
    expect(body.locator(".card-mark .suit-art[data-art='onion']")).to_have_count(1)
    assert "(KO)" not in body.inner_text()
