"""Illegal clicks are stopped in the page and explained in a player's words (issue 14, item 4):
a greyed card says which suit to follow, a click out of turn says whom to wait for; neither is
sent to the server, and no message names "seat 0"."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import DIMMED, HAND, LEGAL, click_card, play_one, quick_play, wait_my_turn


def sent_moves(frames: list[str]) -> list[str]:
    return [f for f in frames if isinstance(f, str) and '"play"' in f]


def test_greyed_card_says_which_suit_to_follow(open_page: Callable[..., Any]) -> None:
    page = quick_play(open_page)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(f)))
    page.reload()  # the page's websocket, opened again, is watched from here on
    page.wait_for_selector(HAND)
    for _ in range(13):
        wait_my_turn(page)
        if page.locator(DIMMED).count():
            break
        assert play_one(page)
    else:
        raise AssertionError("never had a card that could not be played")
    before = len(sent_moves(frames))
    led = page.evaluate(
        "() => { const s = document.querySelector('#status').textContent;"
        " const m = s.match(/— (.+) led/); return m ? m[1] : ''; }"
    )
    assert led
    click_card(page, DIMMED)
    toast = page.locator("#toasts .toast").last
    expect(toast).to_contain_text(f"You must follow {led}")
    page.wait_for_timeout(300)
    assert len(sent_moves(frames)) == before, "the greyed card was sent to the server"


def test_click_out_of_turn_says_whom_to_wait_for(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={
            "name": "Ann",
            "players": 4,
            "seats": [{"kind": "human"}, {"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * 2,
        },
    ).json()
    tid = made["table_id"]
    httpx.post(f"{base_url}/api/tables/{tid}/join", json={"name": "Bob"})
    httpx.post(
        f"{base_url}/api/tables/{tid}/start", headers={"Authorization": f"Bearer {made['token']}"}
    )
    page = open_page(None)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(f)))
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    page.wait_for_selector(HAND)
    # Bob never plays: play Ann's turns until the game waits for him.
    end = time.monotonic() + 60
    while "Waiting for Bob" not in page.inner_text("#status"):
        assert time.monotonic() < end, "never Bob's turn"
        if page.locator(LEGAL).count():
            play_one(page)
        else:
            page.wait_for_timeout(100)
    before = len(sent_moves(frames))
    click_card(page, HAND)
    expect(page.locator("#toasts .toast").last).to_contain_text("Wait for Bob to play")
    page.wait_for_timeout(300)
    assert len(sent_moves(frames)) == before, "a card played out of turn was sent"
    shown = page.inner_text("body")
    assert "seat 0" not in shown.lower() and "Seat 0" not in shown
    assert all("seat 0" not in json.dumps(f).lower() for f in frames)
