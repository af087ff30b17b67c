"""The table's pace in the browser (issue #33): a page chooses its cards to pass while a seat
before it in the engine's order has not (everyone passes at once), its choice hidden from that
seat; the pace chosen on the home page is the table's and is kept for the next table, and the
host changes it in the lobby and in the settings."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_pickers import (
    HAND,
    LEGAL,
    RECEIVED,
    SeatSocket,
    click_card,
    create,
    lobby,
    seat_page,
    start,
)


def choosing(state: dict[str, Any]) -> list[int] | None:
    """The seats still choosing their cards to pass, as a state says (None out of a pass)."""
    passing = state.get("passing")
    return None if passing is None else list(passing["choosing"])


PASSING = 'preset = "canadian"\nhands = ["no-hearts"]\npassing = 3\n'


def test_a_page_passes_before_its_turn_and_the_cards_go_round_once_all_chose(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = create(
        base_url,
        rules_toml=PASSING,
        seats=[{"kind": "human"}, {"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 2,
    )
    tid = made["table_id"]
    joined = httpx.post(f"{base_url}/api/tables/{tid}/join", json={"name": "Bea"}, timeout=10)
    tokens = {0: made["token"], 1: joined.json()["token"]}
    start(base_url, made)
    probe = SeatSocket(base_url, tid, tokens[0])
    first = probe.until(lambda m: m["view"] is not None)["view"]["to_move"]
    probe.close()
    # The human later in the engine's order takes the page; the earlier one, a websocket.
    late, early = sorted((0, 1), key=lambda s: (s - first) % 4, reverse=True)
    other = SeatSocket(base_url, tid, tokens[early])
    try:
        page = seat_page(open_page, base_url, tid, tokens[late])
        page.wait_for_selector(LEGAL)
        expect(page.locator("#status")).to_contain_text("choose the cards to pass")
        assert other.until(lambda m: early in (choosing(m) or []))["view"]["passed"] == []
        for _ in range(3):
            click_card(page, f"{LEGAL}:not(.selected)")
        chosen = page.eval_on_selector_all(
            "#hand .card.selected", "els => els.map(e => e.dataset.code)"
        )
        page.click("#btn-pass")
        # Held until the seat before it chooses: the page shows it chosen and waits for it.
        expect(page.locator("#hand .card.passed")).to_have_count(3)
        name = "Bea" if early == 1 else "Ada"
        expect(page.locator("#center")).to_contain_text(f"Waiting for {name} to pass")
        waiting = other.until(lambda m: choosing(m) == [early])
        assert waiting["view"]["phase"] == "pass"
        seen = json.dumps([other.state["view"], other.state["passing"]])
        assert not [card for card in chosen if f'"{card}"' in seen], "a choice was seen"
        for card in waiting["passing"]["legal"][:3]:
            other.play(card)
        other.until(lambda m: m["view"]["phase"] == "play")
        expect(page.locator(RECEIVED)).to_have_count(3)
        expect(page.locator("#btn-pass")).to_have_count(0)
        assert not set(chosen) & set(
            page.eval_on_selector_all(
                f"{HAND}:not(.received)", "els => els.map(e => e.dataset.code)"
            )
        )
    finally:
        other.close()


def test_the_pace_chosen_at_home_is_the_tables_and_the_host_changes_it(
    open_page: Callable[..., Any], base_url: str
) -> None:
    page = open_page("/")
    expect(page.locator("#quick-pace")).to_have_value("normal")
    page.select_option("#c-pace", "fast")  # either select: both say the same, and it is kept
    expect(page.locator("#quick-pace")).to_have_value("fast")
    assert page.evaluate("localStorage.getItem('salad.pref.pace')") == '"fast"'
    page.fill("#c-name", "Ada")
    page.click("#btn-create")
    page.wait_for_selector("#pace-select")
    tid = page.url.split("/table/")[1].split("#")[0]
    assert lobby(base_url, tid)["pace"] == "fast"
    expect(page.locator("#pace-select")).to_have_value("fast")
    page.select_option("#pace-select", "slow")
    expect(page.locator("#lobby-pace")).to_be_visible()
    for _ in range(50):
        if lobby(base_url, tid)["pace"] == "slow":
            break
        page.wait_for_timeout(100)
    assert lobby(base_url, tid)["pace"] == "slow"
    assert page.evaluate("localStorage.getItem('salad.pref.pace')") == '"slow"'
    # The settings change it too, at any time of a game: the host's select there.
    page.click("#btn-settings")
    expect(page.locator("#settings-pace-select")).to_have_value("slow")
    page.select_option("#settings-pace-select", "normal")
    for _ in range(50):
        if lobby(base_url, tid)["pace"] == "normal":
            break
        page.wait_for_timeout(100)
    assert lobby(base_url, tid)["pace"] == "normal"
    page.keyboard.press("Escape")
    page.goto(f"{base_url}/")
    expect(page.locator("#c-pace")).to_have_value("normal")  # the next table starts at it
