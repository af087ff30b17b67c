"""While the table's websocket is down, the page says so and offers no card (a move could not
be sent: it used to show "Your lead" and the playable cards, and a click only got "the move was
not sent"); once it is back, the turn is offered again and a card plays. The connection is cut
and held off by Playwright's websocket routing, between the page and the real server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from .test_browser import ARTIFACTS, HAND, LEGAL, click_card, hand, wait_hand_changed, wait_my_turn


def test_no_card_is_offered_while_the_page_reconnects(open_page: Callable[..., Any]) -> None:
    page = open_page("/")
    cut = {"on": False, "refused": 0}
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        if cut["on"]:  # the server cannot be reached: the page tries again later
            cut["refused"] += 1
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws/tables/**", route)
    page.fill("#quick-name", "Quinn")
    page.click("#btn-quick")
    page.wait_for_url("**/table/**")
    wait_my_turn(page)
    expect(page.locator("#conn-banner")).to_be_hidden()

    cut["on"] = True
    sockets[-1].close()
    expect(page.locator("#conn-banner")).to_be_visible()
    expect(page.locator("#status")).to_contain_text("Reconnecting to the server")
    expect(page.locator(LEGAL)).to_have_count(0)
    assert page.locator(HAND).count() > 0  # the hand is still shown, only not offered
    page.wait_for_timeout(1000)  # let a retry or two be refused
    assert cut["refused"] >= 1
    expect(page.locator(LEGAL)).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-reconnecting-1280x800.png"))

    cut["on"] = False
    expect(page.locator(LEGAL).first).to_be_visible(timeout=15_000)
    expect(page.locator("#conn-banner")).to_be_hidden()
    before = hand(page)
    click_card(page, LEGAL)
    if page.locator("[data-wild='high']").count():
        page.click("[data-wild='high']")
    wait_hand_changed(page, before)
