"""End-to-end: the browser client against a real `salad serve` (see conftest.py).

The tests never name a card: they read the hand, the legal cards and the trick from the page
(``data-code`` on the hand's cards, ``data-card`` on played ones), as a player reads the table.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 375, "height": 667}
# A one-hand game, to reach the end quickly.
ONE_HAND = b'preset = "canadian"\nhands = ["no-queens"]\n'

HAND = "#hand .card"
LEGAL = "#hand .card.legal"
DIMMED = "#hand .card.dimmed"


# -- helpers ---------------------------------------------------------------------------------


def hand(page: Any) -> list[str]:
    return page.eval_on_selector_all(HAND, "els => els.map(e => e.dataset.code)")


def legal(page: Any) -> list[str]:
    return page.eval_on_selector_all(LEGAL, "els => els.map(e => e.dataset.code)")


def trick(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#trick .trick-card", "els => els.map(e => e.dataset.seat + ':' + e.dataset.card)"
    )


def wait_hand_changed(page: Any, before: list[str]) -> None:
    """Wait until the hand is no longer ``before`` (a card went, or a new hand was dealt)."""
    page.wait_for_function(
        "before => JSON.stringify([...document.querySelectorAll('#hand .card')]"
        ".map(e => e.dataset.code)) !== JSON.stringify(before)",
        arg=before,
        timeout=5000,
    )


def click_card(page: Any, selector: str) -> None:
    """Click a card where a player would: its left edge, which overlapping never hides."""
    page.locator(selector).first.click(position={"x": 8, "y": 26}, timeout=5000)


def play_one(page: Any) -> bool:
    """Play the first legal card when it is this page's turn (press Next hand when a hand's
    summary waits for it); True when a card went or the button was pressed."""
    try:
        if page.locator("#btn-next-hand").count():
            page.click("#btn-next-hand", timeout=2000)
            return True
        if page.locator("[data-wild='high']").count():
            page.click("[data-wild='high']", timeout=2000)
            return True
        if page.locator(LEGAL).count() == 0:
            return False
        before = hand(page)
        click_card(page, LEGAL)
        if page.locator("[data-wild='high']").count():
            page.click("[data-wild='high']", timeout=2000)
        wait_hand_changed(page, before)
        return True
    except Exception:  # the page re-rendered under the click: look again
        return False


def play_until(pages: list[Any], done: Callable[[], bool], timeout: float = 120) -> None:
    """Each page plays its turns (first legal card) until ``done()``, checked before every move."""
    end = time.monotonic() + timeout
    while True:
        moved = False
        for page in pages:
            if done():
                return
            moved = play_one(page) or moved
        assert time.monotonic() < end, "the game did not get there in time"
        if not moved:
            time.sleep(0.15)


def table_id(page: Any) -> str:
    return page.url.split("?")[0].split("#")[0].rstrip("/").rsplit("/", 1)[1]


def my_turn(page: Any) -> bool:
    return page.locator(LEGAL).count() > 0


def wait_my_turn(page: Any, timeout: float = 30) -> None:
    """Wait until this page may play (pressing Next hand on the way, at the end of a hand)."""
    end = time.monotonic() + timeout
    while True:
        left = max(0.1, end - time.monotonic())
        page.wait_for_selector(f"{LEGAL}, #btn-next-hand", timeout=left * 1000)
        if page.locator(LEGAL).count():
            return
        page.click("#btn-next-hand", timeout=2000)


def quick_play(open_page: Callable[..., Any], **kw: Any) -> Any:
    page = open_page("/", **kw)
    page.fill("#quick-name", "Quinn")
    page.click("#btn-quick")
    page.wait_for_url("**/table/**")
    page.wait_for_selector(HAND)
    return page


# -- tests -----------------------------------------------------------------------------------


def test_quick_play_keyboard_illegal_click_and_panels(
    open_page: Callable[..., Any], base_url: str
) -> None:
    page = quick_play(open_page)
    tid = table_id(page)
    lobby = httpx.get(f"{base_url}/api/tables/{tid}").json()
    assert lobby["status"] == "playing"
    assert lobby["seats"][0]["name"] == "Quinn"
    # The round and its penalty in one line, from what the server sent.
    expect(page.locator("#round-line")).to_contain_text(lobby["hands"][0]["round"])
    assert page.evaluate(f"localStorage.getItem('salad.token.{tid}')")

    # An illegal click is refused by the server and the message shown; the hand stays. The
    # deal is random: a hand can go by without a card that may not be played (always leading,
    # or void, or holding only the suit led), so up to three hands are played to meet one.
    refused = False
    for _ in range(3 * 13):
        wait_my_turn(page)
        if page.locator(DIMMED).count():
            before = hand(page)
            click_card(page, DIMMED)
            expect(page.locator("#toasts .toast-error")).to_be_visible()
            assert hand(page) == before
            refused = True
            break
        assert play_one(page)
    assert refused, "never had a card that could not be played"

    # Keyboard: arrows pick a playable card, Enter plays it.
    wait_my_turn(page)
    before = hand(page)
    page.locator("#round-line").focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.code")
    assert focused in legal(page)
    page.keyboard.press("Enter")
    wait_hand_changed(page, before)

    # Typing a card then Enter plays it.
    wait_my_turn(page)
    before = hand(page)
    card = legal(page)[-1]
    page.keyboard.type(card)
    expect(page.locator("#status .typed")).to_have_text(card.upper())
    page.keyboard.press("Enter")
    wait_hand_changed(page, before)

    # The last trick on demand, and the score sheet with its chart.
    page.click("#btn-last")
    expect(page.locator("#dlg-last .last-trick figure")).to_have_count(lobby["players"])
    page.keyboard.press("Escape")
    page.click("#btn-scores")
    expect(page.locator("#dlg-scores table.sheet")).to_be_visible()
    expect(page.locator("#dlg-scores figure.chart svg")).to_be_visible()
    rows = page.locator("#dlg-scores table.sheet tbody tr")
    expect(rows).to_have_count(len(lobby["hands"]))
    page.keyboard.press("Escape")

    # Four-colour suits change how the suits are drawn (the rules list every suit).
    def colours() -> list[str]:
        page.click("#round-line")
        fills = page.eval_on_selector_all(
            "#dlg-rules .suit-icon path", "els => els.map(e => e.getAttribute('fill'))"
        )
        page.keyboard.press("Escape")
        return fills

    two = colours()
    assert len(set(two)) == 2
    page.click("#btn-settings")
    page.check("#opt-four")
    page.keyboard.press("Escape")
    four = colours()
    assert len(four) == len(two) and len(set(four)) > len(set(two))


def test_friend_joins_plays_a_hand_reloads_and_is_watched(
    open_page: Callable[..., Any], base_url: str
) -> None:
    # The host creates a table from a rules file: seat 2 open for a friend, bots in 3 and 4.
    host = open_page("/")
    host.fill("#c-name", "Alice")
    host.set_input_files(
        "#c-file", files=[{"name": "one.toml", "mimeType": "text/plain", "buffer": ONE_HAND}]
    )
    host.fill("#c-players", "4")
    host.dispatch_event("#c-players", "input")
    host.locator("#c-seats [data-kind]").nth(0).select_option("open")
    host.locator("#c-seats [data-kind]").nth(1).select_option("bot")
    host.locator("#c-seats [data-kind]").nth(2).select_option("bot")
    host.click("#btn-create")
    host.wait_for_url("**/table/**")
    expect(host.locator("#lobby")).to_be_visible()
    expect(host.locator("#btn-start")).to_be_disabled()
    invite = host.input_value("#invite-link")
    tid = table_id(host)
    assert invite.endswith(f"/join/{tid}")

    # A friend opens the invite link on a phone and takes the seat with a display name.
    friend = open_page(None, viewport=PHONE)
    friend.goto(invite)
    friend.fill("#j-name", "Bob")
    friend.click("#btn-join")
    friend.wait_for_url(f"**/table/{tid}")
    expect(host.locator("#lobby")).to_contain_text("Bob")
    expect(friend.locator("#lobby")).to_contain_text("Waiting for Alice")

    # A spectator comes in by the watch link and records every message it is sent.
    frames: list[str] = []
    watcher = open_page(None)
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    watcher.goto(f"{base_url}/watch/{tid}")
    expect(watcher.locator("#lobby")).to_be_visible()

    host.click("#btn-start")
    host.wait_for_selector(HAND)
    friend.wait_for_selector(HAND)
    watcher.wait_for_selector("#seats .seat")
    names = host.eval_on_selector_all("#seats .seat .name", "els => els.map(e => e.textContent)")
    assert any("Bob" in n for n in names) and any("Alice (you)" in n for n in names)

    # Play until Alice is to move with cards on the table, then reload: same seat, same trick.
    play_until(
        [friend, host],
        lambda: my_turn(host) and len(trick(host)) > 0 and len(hand(host)) < 13,
    )
    before_hand, before_trick = hand(host), trick(host)
    host.reload()
    host.wait_for_selector(LEGAL)
    assert hand(host) == before_hand
    assert trick(host) == before_trick
    expect(host.locator(".seat.me")).to_contain_text("Alice (you)")

    # Alice leaves while it is her turn: Bob's table shows her away; reopening brings her back.
    context = host.context
    host.close()
    expect(friend.locator(".seat", has_text="Alice").locator(".chip-away")).to_be_visible()
    host = open_page(f"/table/{tid}", context=context)
    host.wait_for_selector(LEGAL)
    assert hand(host) == before_hand
    expect(friend.locator(".seat", has_text="Alice").locator(".chip-away")).to_have_count(0)

    # The spectator never holds a hand: no hand on the page, no unplayed card in it.
    assert watcher.locator(HAND).count() == 0
    expect(watcher.locator("#status")).to_contain_text("Watching")
    shown = watcher.eval_on_selector_all(
        "[data-card], [data-code]", "els => els.map(e => e.dataset.card || e.dataset.code)"
    )
    assert shown, "the spectator sees the cards on the table"
    held = set(hand(host)) | set(hand(friend))
    assert not held & set(shown)
    html = watcher.content()
    for code in held:
        assert f'data-card="{code}"' not in html and f'data-code="{code}"' not in html

    # Play the hand out by clicking: the end of the game with the winner(s).
    play_until([host, friend], lambda: host.locator("#game-over").count() > 0, timeout=150)
    for page in (host, friend, watcher):
        expect(page.locator("#game-over")).to_be_visible()
    record = host.request.get(base_url + host.get_attribute("#btn-download", "href")).json()
    assert record["format"] == "salad-record/2"
    assert [p["name"] for p in record["players"]][:2] == ["Alice", "Bob"]
    winners = [record["players"][s]["name"] for s in record["winners"]]
    expect(host.locator("#game-over")).to_contain_text("You" if "Alice" in winners else winners[0])
    expect(friend.locator("#game-over .standings li.win")).to_have_count(len(winners))

    # Everything the spectator was sent was the spectator's view: never a card of a hand.
    states = [json.loads(f) for f in frames if isinstance(f, str) and '"state"' in f]
    assert states
    for msg in states:
        assert msg["you"] == -1
        if msg.get("view"):
            assert msg["view"]["cards"] == [] and msg["view"]["legal"] == []

    # The replay steps through the game trick by trick.
    replay = open_page(host.get_attribute("a[href^='/replay/']", "href"))
    expect(replay.locator("#round-line")).to_contain_text(record["hands"][0]["round"])
    assert replay.locator("#trick .trick-card").count() == 0
    replay.click("#r-next")
    expect(replay.locator("#trick .trick-card")).to_have_count(4)
    first = record["hands"][0]["tricks"][0]["cards"]
    shown = replay.eval_on_selector_all("#trick .trick-card", "els => els.map(e => e.dataset.card)")
    assert shown == first
    replay.keyboard.press("End")
    expect(replay.locator("#status")).to_contain_text("took the trick")

    # A rematch with the same seats.
    host.click("#btn-rematch")
    host.wait_for_selector(HAND)
    friend.wait_for_selector(HAND)
    expect(host.locator("#game-over")).to_have_count(0)
    lobby = httpx.get(f"{base_url}/api/tables/{tid}").json()
    assert lobby["game_number"] == 2
    assert [s["name"] for s in lobby["seats"]][:2] == ["Alice", "Bob"]


def test_lobby_bots_remove_seat_and_start(open_page: Callable[..., Any], base_url: str) -> None:
    made = httpx.post(
        f"{base_url}/api/tables",
        json={"name": "Hana", "players": 5, "seats": [{"kind": "human"}] + [{"kind": "open"}] * 4},
    ).json()
    tid = made["table_id"]
    page = open_page(None)
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    expect(page.locator("#lobby .lobby-seats li")).to_have_count(5)
    assert "token" not in page.url
    expect(page.locator("#btn-start")).to_be_disabled()
    page.click("[data-remove='4']")
    expect(page.locator("#lobby .lobby-seats li")).to_have_count(4)
    expect(page.locator("#lobby .open")).to_have_count(3)
    for left in (2, 1, 0):  # one seat at a time: each click waits for the last one's lobby
        page.locator("[data-lobby-seat]:has(.open) [data-fill]").first.click()
        expect(page.locator("#lobby .open")).to_have_count(left)
    expect(page.locator("#btn-start")).to_be_enabled()
    page.click("#btn-start")
    page.wait_for_selector(HAND)
    lobby = httpx.get(f"{base_url}/api/tables/{tid}").json()
    assert lobby["status"] == "playing" and len(lobby["seats"]) == 4
    assert [s["kind"] for s in lobby["seats"]] == ["human", "bot", "bot", "bot"]


def test_server_errors_are_shown(open_page: Callable[..., Any], base_url: str) -> None:
    page = open_page("/join/no-such-table")
    expect(page.locator("#join-info")).not_to_have_text("Loading the table…")
    expect(page.locator("#btn-join")).to_be_disabled()
    # A name the server refuses comes back as its message.
    page = open_page("/")
    page.fill("#c-name", "Ola")
    page.set_input_files(
        "#c-file",
        files=[{"name": "bad.toml", "mimeType": "text/plain", "buffer": b"hands = 3\n"}],
    )
    page.click("#btn-create")
    expect(page.locator("#toasts .toast-error")).to_be_visible()
    assert "/table/" not in page.url


def test_phone_layout(open_page: Callable[..., Any]) -> None:
    page = quick_play(open_page, viewport=PHONE)
    wait_my_turn(page)
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "phone-table.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways"

    def boxes(selector: str) -> list[list[float]]:
        return page.eval_on_selector_all(
            selector,
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.right, r.top, r.bottom]; })",
        )

    for left, right, top, bottom in boxes("#hand .card, #seats .seat, .topbar .tool"):
        assert left >= -1 and right <= PHONE["width"] + 1
        assert top >= -1 and bottom <= PHONE["height"] + 1
    # Every card shows at least its corner: a strip wide enough to tap.
    lefts = sorted(b[0] for b in boxes(HAND))
    assert min(b - a for a, b in zip(lefts, lefts[1:], strict=False)) >= 14
    page.click("#btn-scores")
    expect(page.locator("#dlg-scores table.sheet")).to_be_visible()


REDRAW = "window.dispatchEvent(new Event('resize'))"  # the page is drawn again, all of it


def test_a_click_across_a_redraw_still_plays(open_page: Callable[..., Any]) -> None:
    """A message that changes nothing in the hand (a seat's presence, a chat line) draws the
    page again; the hand's buttons stay the same ones, so a card pressed as it arrives and
    released after it is still played (replaced under the pointer, the click was lost)."""
    page = quick_play(open_page)
    wait_my_turn(page)
    page.evaluate("window.__card = document.querySelector('#hand .card.legal')")
    page.evaluate(REDRAW)
    assert page.evaluate("window.__card.isConnected"), "an unchanged hand was drawn anew"
    before = hand(page)
    box = page.locator(LEGAL).first.bounding_box()
    assert box
    page.mouse.move(box["x"] + 8, box["y"] + 26)
    page.mouse.down()
    page.evaluate(REDRAW)
    page.mouse.up()
    if page.locator("[data-wild='high']").count():  # a Wild asks High or Low first
        page.click("[data-wild='high']")
    wait_hand_changed(page, before)


def test_names_are_shown_as_typed_never_as_markup(
    open_page: Callable[..., Any], base_url: str
) -> None:
    """A player's name is text wherever the page shows it: a name that is markup is neither
    parsed nor run (the client's ``html`` template escapes every value)."""
    name = '<img src=x onerror="owned=1"><b>'
    made = httpx.post(
        f"{base_url}/api/tables",
        json={"name": name, "players": 4, "seats": [{"kind": "human"}] + [{"kind": "open"}] * 3},
    ).json()
    page = open_page(None)
    page.goto(f"{base_url}/table/{made['table_id']}#token={made['token']}")
    seat = page.locator("#lobby .lobby-seats li").first
    expect(seat).to_contain_text(name)
    assert seat.locator("img, b").count() == 0, "a name became markup"
    watcher = open_page(f"/join/{made['table_id']}")
    expect(watcher.locator("#join-info")).to_contain_text(name)
    assert watcher.locator("#join-info img, #join-info b").count() == 0
    assert page.evaluate("window.owned") is None
    assert watcher.evaluate("window.owned") is None
