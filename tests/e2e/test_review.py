"""End-to-end: a finished game's review in the replay page (js/review.js) against a real server.

A game plays itself out (every seat away, taken over by a bot at once); the page's "Review"
starts the server's review, its progress bar runs to the end, and stepping through the
decisions reaches a blunder, with the numbers the library computes for the same record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from salad.lab.review import ReviewOptions, review_record

from .reviewing import finished_game, reviewing_server

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
WORLDS = 6
SEATS = [{"kind": "human"}] + [{"kind": "bot", "bot": "basic"}] * 3


@pytest.fixture(scope="module")
def review_url(start_server: Callable[..., AbstractContextManager[str]]) -> Iterator[str]:
    """A server of its own that reviews with few worlds (a quick review)."""
    with reviewing_server(start_server, WORLDS) as url:
        yield url


def test_review_a_finished_game_and_step_to_a_blunder(
    open_page: Callable[..., Any], review_url: str
) -> None:
    for _ in range(4):
        tid, token, record = finished_game(review_url, SEATS)
        reviews = [
            review_record(record, [s], ReviewOptions(worlds=WORLDS)).seats[0] for s in range(4)
        ]
        seat = next((r for r in reviews if any(d.label == "blunder" for d in r.decisions)), None)
        if seat is not None:
            break
    assert seat is not None, "no blunder in four games"
    page = open_page(None)
    page.context.add_init_script(f"localStorage.setItem('salad.token.{tid}', '{token}')")
    page.goto(f"{review_url}/replay/{tid}?game=1")
    page.click("#btn-review")
    page.select_option("#review-seat", str(seat.seat))
    page.click("#review-go")
    expect(page.locator("#review-progress")).to_be_visible()
    expect(page.locator(".review-summary")).to_be_visible(timeout=90_000)
    summary = page.locator(".review-summary").inner_text()
    assert f"{seat.lost:.1f} lost to choices" in summary  # the library's numbers, same worlds
    # Its words and signs are explained: forced by the deal, the worlds, the ±.
    legend = page.locator(".review-legend")
    legend.locator("summary").click()
    for term in ("Forced by the deal", f"{WORLDS} worlds", "±"):
        expect(legend.locator("dt", has_text=term)).to_be_visible()
    expect(page.locator(".review-chart")).to_be_visible()
    # Step from the first decision to a blunder with "Next mistake".
    page.click("#review-prev")
    for _ in range(len(seat.decisions)):
        if page.get_attribute("#review-decision", "data-label") == "blunder":
            break
        page.click("#review-next-costly")
    assert page.get_attribute("#review-decision", "data-label") == "blunder"
    at = int(page.inner_text("#review-at").split()[1]) - 1
    decision = seat.decisions[at]
    assert decision.label == "blunder"
    text = page.inner_text("#review-decision")
    # Named as a player reads them ("Q♠"); the move itself rides on each caption.
    moves = page.eval_on_selector_all(
        "#review-decision figcaption", "els => els.map(e => e.dataset.move)"
    )
    assert moves == [decision.chosen, decision.best]
    assert "Played " in text and "Best " in text and f"Played {decision.chosen}\n" not in text
    assert f"{decision.cost:.1f}" in text
    ARTIFACTS.mkdir(exist_ok=True)
    for name, size in (("desktop", (1280, 800)), ("phone", (390, 844)), ("phone-wide", (844, 390))):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        shot = ARTIFACTS / f"review-blunder-{name}.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
    # A second look is the stored review, at once; "Show in replay" goes to the trick.
    page.set_viewport_size({"width": 1280, "height": 800})
    if decision.kind == "play":
        page.click("#review-show")
        expect(page.locator("#dlg-review")).not_to_be_visible()
        expect(page.locator("#round-line")).to_contain_text(f"trick {decision.trick} of")


def test_the_results_screen_reviews_your_own_seat(
    open_page: Callable[..., Any], review_url: str
) -> None:
    tid, token, record = finished_game(review_url, SEATS)
    page = open_page(None)
    page.goto(f"{review_url}/table/{tid}#token={token}")
    expect(page.locator("#game-over")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "review-results-screen.png"))
    page.click("#btn-review-game")
    page.wait_for_url(f"**/replay/{tid}?game=1&review=0")
    expect(page.locator(".review-summary")).to_be_visible(timeout=90_000)
    want = review_record(record, [0], ReviewOptions(worlds=WORLDS)).seats[0]
    assert f"{want.lost:.1f} lost to choices" in page.inner_text(".review-summary")
