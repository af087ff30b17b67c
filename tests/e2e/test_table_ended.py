"""A table page whose connection the server ends for good (a wrong token, a seat the host gave
to a bot, no such table) says why in place of the table and stops: it used to connect again
every 0.4 s for ever, stacking the same error, until the rate limit refused it too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from .test_browser import ARTIFACTS, HAND, wait_my_turn

PHONE = {"width": 390, "height": 844}


def opened_sockets(page: Any) -> list[str]:
    """The websockets the page opens from now on."""
    urls: list[str] = []
    page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def ended(page: Any, reason: str, watch: bool) -> None:
    panel = page.locator("#center .panel.ended")
    expect(panel).to_be_visible()
    # A table there is (to watch) was left; one there is not, or that cannot be opened, was
    # never reached.
    heading = "You are no longer connected to this table" if watch else "Cannot open this table"
    expect(panel.get_by_role("heading")).to_have_text(heading)
    expect(panel).to_contain_text(reason)
    expect(panel.get_by_role("link", name="Home")).to_have_attribute("href", "/")
    expect(panel.get_by_role("link", name="Watch this table")).to_have_count(int(watch))
    expect(page.locator("#conn-banner")).to_be_hidden()


def test_a_wrong_token_and_no_table_end_the_page(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = httpx.post(base_url + "/api/tables", json={"name": "Host", "players": 4}).json()
    page = open_page(None)
    urls = opened_sockets(page)
    page.goto(f"{base_url}/table/{made['table_id']}#token=not-a-token")
    ended(page, f"wrong token for table {made['table_id']}", watch=True)
    page.wait_for_timeout(2000)  # nothing more is tried
    assert len(urls) == 1, urls
    assert page.locator(".toast").count() == 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-ended-wrong-token-1280x800.png"))

    phone = open_page(None, viewport=PHONE)
    urls = opened_sockets(phone)
    phone.goto(f"{base_url}/table/nosuchtab#token=whatever")
    ended(phone, "no table 'nosuchtab'", watch=False)
    phone.wait_for_timeout(1000)
    assert len(urls) == 1, urls
    # One error state (not a toast of the same words beside the panel), no table tools.
    expect(phone.locator(".toast")).to_have_count(0)
    expect(phone.locator(".topbar .tools")).to_have_count(0)
    phone.screenshot(path=str(ARTIFACTS / "table-ended-no-table-390x844.png"))
    # Without a token (a link to a table that is gone): the same, one error and no tools.
    phone.goto(f"{base_url}/table/nosuchtab")
    expect(phone.locator("#center .panel")).to_contain_text("no table 'nosuchtab'")
    phone.wait_for_timeout(300)
    expect(phone.locator(".toast")).to_have_count(0)
    expect(phone.locator(".topbar .tools")).to_have_count(0)


def test_a_seat_given_to_a_bot_mid_game_ends_its_page(
    open_page: Callable[..., Any], base_url: str
) -> None:
    """The host gives a guest's seat to a bot during the game: the guest's page says so,
    offers to watch, and the bot plays on (the host's page goes on)."""
    made = httpx.post(
        base_url + "/api/tables",
        json={
            "name": "Host",
            "seats": [{"kind": "human"}, {"kind": "human"}]
            + [{"kind": "bot", "bot": "random"}] * 2,
        },
    ).json()
    tid, host_token = made["table_id"], made["token"]
    guest_token = httpx.post(f"{base_url}/api/tables/{tid}/join", json={"name": "Gus"}).json()[
        "token"
    ]
    auth = {"Authorization": f"Bearer {host_token}"}
    assert httpx.post(f"{base_url}/api/tables/{tid}/start", headers=auth).status_code == 200
    guest = open_page(f"/table/{tid}#token={guest_token}")
    expect(guest.locator("#hand .card").first).to_be_visible()
    urls = opened_sockets(guest)
    given = httpx.put(f"{base_url}/api/tables/{tid}/seats/1", json={"kind": "bot"}, headers=auth)
    assert given.status_code == 200, given.text
    ended(guest, "the host gave your seat to someone else", watch=True)
    expect(guest.locator(HAND)).to_have_count(0)  # the bot's cards now
    expect(guest.locator("#status")).to_have_text("Disconnected")
    guest.wait_for_timeout(1500)
    assert urls == []
    guest.screenshot(path=str(ARTIFACTS / "table-ended-seat-given-1280x800.png"))
    guest.get_by_role("link", name="Watch this table").click()
    guest.wait_for_url(f"**/watch/{tid}")
    expect(guest.locator("#status")).to_contain_text("Watching")
    host = open_page(f"/table/{tid}#token={host_token}")
    wait_my_turn(host)
