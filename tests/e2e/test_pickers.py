"""End-to-end: the table page's pickers and timers, clicked through in a real browser.

The passing picker, the trump picker, the high/low choice of a Wild, the turn timer's countdown
and a bot taking over an away seat. Each table is made through the API with a fixed seed (found
here with the engine, so that the wanted hand is dealt), and the server's side of every step is
read from its websocket (``view``, ``deadline``, ``moves``) or its lobby (``GET /api/tables``).

The session's server has fast bots (``BOT_DELAY`` of conftest.py), so that a hand of bots takes
a fraction of a second.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx
from playwright.sync_api import expect
from websockets.sync.client import ClientConnection, connect

from salad import Game, load_ruleset
from salad.ruleset import Ruleset
from salad.server.protocol import complete_state

HAND = "#hand .card"
LEGAL = "#hand .card.legal"
SELECTED = "#hand .card.selected"
RECEIVED = "#hand .card.received"


# -- helpers ----------------------------------------------------------------------------------


class SeatSocket:
    """A websocket on a table (a seat with its token, or a spectator), read synchronously.

    A thread-based client: no asyncio loop, so it lives alongside Playwright's sync API.
    """

    def __init__(self, base_url: str, table_id: str, token: str | None = None) -> None:
        url = base_url.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        if token:
            url += f"?token={token}"
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(url, open_timeout=10, max_size=None, proxy=None)
        )
        self.table: dict[str, Any] | None = None
        self.state: dict[str, Any] = {}

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next ``state`` message (what it left out filled in from the last one)."""
        end = time.monotonic() + timeout
        while True:
            msg = json.loads(self.ws.recv(timeout=max(0.01, end - time.monotonic())))
            if msg["type"] == "error":
                raise AssertionError(f"the server refused a move: {msg['message']}")
            if msg["type"] != "state":
                continue
            self.state = complete_state(msg, self.state or None)
            self.table = msg["table"]
            return msg

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        if self.state and pred(self.state):
            return self.state
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the server never got there; last state: {self.state}")
            try:
                msg = self.recv(left)
            except TimeoutError:
                continue
            if pred(msg):
                return msg

    def quiet(self, seconds: float) -> list[dict[str, Any]]:
        """Every state message that arrives within ``seconds``."""
        got = []
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                got.append(self.recv(left))
            except TimeoutError:
                break
        return got

    def play(self, move: str) -> None:
        self.ws.send(json.dumps({"type": "play", "move": move}))

    def close(self) -> None:
        self._stack.close()


def find_seed(rules: Ruleset, players: int, wanted: Callable[[Game], bool]) -> int:
    """The first seed whose game (as the server deals it) is ``wanted``."""
    for seed in range(1000):
        if wanted(Game(rules, players, seed=seed)):
            return seed
    raise AssertionError("no seed deals the wanted game")


def create(base_url: str, **body: Any) -> dict[str, Any]:
    answer = httpx.post(f"{base_url}/api/tables", json={"name": "Ada", **body}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def start(base_url: str, made: dict[str, Any]) -> None:
    answer = httpx.post(
        f"{base_url}/api/tables/{made['table_id']}/start",
        headers={"Authorization": f"Bearer {made['token']}"},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text


def lobby(base_url: str, table_id: str) -> dict[str, Any]:
    return httpx.get(f"{base_url}/api/tables/{table_id}", timeout=10).json()


def seat_page(open_page: Callable[..., Any], base_url: str, table_id: str, token: str) -> Any:
    """A page in its own browser context (another person) holding one seat."""
    page = open_page(None)
    page.goto(f"{base_url}/table/{table_id}#token={token}")
    return page


def hand(page: Any) -> list[str]:
    return page.eval_on_selector_all(HAND, "els => els.map(e => e.dataset.code)")


def codes(page: Any, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.code)")


def click_card(page: Any, selector: str) -> None:
    """Click a card where a player would: its left edge, which overlapping never hides."""
    page.locator(selector).first.click(position={"x": 8, "y": 26}, timeout=5000)


def seat_plate(page: Any, seat: int) -> Any:
    return page.locator(f"#seats .seat[data-seat='{seat}']")


# Every card shown in the trick, as "seat:card:TEXT" (the card's face, upper-cased), recorded by
# the page itself: bots answer within a fraction of a second, faster than a test could look.
RECORD_TRICK = """() => {
  window.__trickSeen = [];
  const note = () => {
    for (const el of document.querySelectorAll('#trick .trick-card')) {
      const item = `${el.dataset.seat}:${el.dataset.card}:${el.textContent.toUpperCase()}`;
      if (!window.__trickSeen.includes(item)) window.__trickSeen.push(item);
    }
  };
  new MutationObserver(note).observe(document.getElementById('trick'),
    {childList: true, subtree: true});
  note();
}"""


def trick_seen(page: Any) -> list[str]:
    return page.evaluate("window.__trickSeen")


# Every text the centre of the table shows (a passing note may last only as long as a bot takes).
RECORD_CENTER = """() => {
  window.__centerSeen = [];
  const centre = document.getElementById('center');
  new MutationObserver(() => window.__centerSeen.push(centre.textContent)).observe(centre,
    {childList: true, subtree: true, characterData: true});
}"""


# Counts every time the page shows a countdown without its number (the chip on the plate of the
# seat to move, and "(N s left)" after "Your turn"): the page draws them whenever it re-renders.
RECORD_BLANK_TIMERS = """() => {
  window.__blankTimers = 0;
  window.__timersSeen = 0;
  const note = () => {
    const chips = [...document.querySelectorAll('#seats [data-timer]')];
    const mine = document.querySelector('#seats .seat.me [data-timer]');
    if (mine) chips.push(document.querySelector('[data-timer-mine]'));
    for (const el of chips) {
      window.__timersSeen++;
      if (!el || !el.textContent.trim()) window.__blankTimers++;
    }
  };
  const watch = {childList: true, subtree: true, characterData: true};
  new MutationObserver(note).observe(document.getElementById('seats'), watch);
  new MutationObserver(note).observe(document.getElementById('status'), watch);
}"""


# -- passing ----------------------------------------------------------------------------------


def test_pass_picker_choose_confirm_and_received_cards(
    open_page: Callable[..., Any], base_url: str
) -> None:
    # Skip the Salad with Pass the Veggies: two cards to the right before every hand. The seed
    # makes seat 3 the dealer, so seat 0 (this page) passes first, and deals it two Wilds (four
    # identical cards in the deck, all with the code W).
    rules = load_ruleset("skip-the-salad", {"toppings": ["pass-the-veggies"]})
    assert rules.passing == 2
    seed = find_seed(
        rules, 4, lambda g: g.dealer == 3 and g.view(0).to_dict()["cards"].count("W") >= 2
    )
    made = create(
        base_url,
        rules="skip-the-salad",
        toppings=["pass-the-veggies"],
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        seed=seed,
    )
    tid = made["table_id"]
    info = lobby(base_url, tid)
    assert info["passing"] == 2 and info["pass_direction"] == "right"
    start(base_url, made)
    me = SeatSocket(base_url, tid, made["token"])
    try:
        first = me.until(lambda m: m["view"] is not None)
        assert first["view"]["phase"] == "pass" and first["view"]["to_move"] == 0

        page = seat_page(open_page, base_url, tid, made["token"])
        page.wait_for_selector(LEGAL)
        expect(page.locator("#status")).to_contain_text("choose the cards to pass")
        expect(page.locator("#center h2")).to_have_text("Pass 2 cards to the right")
        button = page.locator("#btn-pass")
        expect(button).to_be_disabled()
        dealt = hand(page)
        assert sorted(dealt) == sorted(first["view"]["cards"])
        assert sorted(codes(page, LEGAL)) == sorted(dealt)  # every card may be passed
        a, b, c = [code for code in dealt if not code.startswith("W")][:3]

        def card(code: str, copy: int = 0) -> str:
            return f"#hand .card[data-code='{code}'] >> nth={copy}"

        click_card(page, card(a))
        expect(page.locator(SELECTED)).to_have_count(1)
        expect(button).to_be_disabled()
        expect(button).to_have_text("Pass 1 card")
        click_card(page, card(b))
        expect(button).to_be_enabled()
        expect(button).to_have_text("Pass 2 cards")
        expect(page.locator("#center .hint b")).to_have_text(re.compile(r"^\S+ \S+$"))
        # A third card replaces the first one chosen; clicking a chosen card puts it back.
        click_card(page, card(c))
        expect(page.locator(SELECTED)).to_have_count(2)
        assert sorted(codes(page, SELECTED)) == sorted([b, c])
        click_card(page, card(c))
        click_card(page, card(b))
        expect(page.locator(SELECTED)).to_have_count(0)
        expect(button).to_be_disabled()

        # Both Wilds: two cards with the same code, each chosen by its own click.
        click_card(page, card("W", 0))
        click_card(page, card("W", 1))
        expect(page.locator(SELECTED)).to_have_count(2)
        assert codes(page, SELECTED) == ["W", "W"]
        expect(button).to_be_enabled()
        expect(page.locator("#center .hint b")).to_have_text("W W")  # not declared: no ▲ ▼
        click_card(page, card("W", 1))
        expect(page.locator(SELECTED)).to_have_count(1)
        click_card(page, card("W", 1))
        expect(page.locator(SELECTED)).to_have_count(2)
        # Choosing is the page's business: nothing went to the server yet.
        assert me.quiet(0.3) == [] and me.state["moves"] == 0

        # The same player passes one Wild from another device: the page keeps one chosen, and
        # asks for one card more.
        me.play("W")
        assert me.until(lambda m: m["moves"] == 1)["view"]["passed"] == ["W"]
        expect(page.locator("#center h2")).to_have_text("Pass 1 card to the right")
        expect(page.locator(SELECTED)).to_have_count(1)
        assert codes(page, SELECTED) == ["W"]
        expect(button).to_be_enabled()
        expect(button).to_have_text("Pass 1 card")

        page.evaluate(RECORD_CENTER)
        button.click()
        passed = me.until(lambda m: len(m["view"]["passed"]) == 2)
        assert passed["view"]["passed"] == ["W", "W"]
        # The page confirms what went while the others choose.
        page.wait_for_function(
            "() => window.__centerSeen.some(t => /You pass W W\\. Waiting for .+ to pass/.test(t))"
        )
        # The bots pass in turn, the cards are exchanged and the play begins.
        played = me.until(lambda m: m["view"]["phase"] == "play")
        view = played["view"]
        received = view["received"]
        assert len(received) == 2
        assert Counter(view["cards"]) == Counter(dealt) - Counter(["W", "W"]) + Counter(received)
        # The page shows the new hand, the received cards marked, and no pass picker any more.
        page.wait_for_selector(RECEIVED)
        assert sorted(hand(page)) == sorted(view["cards"])
        assert sorted(codes(page, RECEIVED)) == sorted(received)
        expect(page.locator("#btn-pass")).to_have_count(0)
        expect(page.locator(SELECTED)).to_have_count(0)
    finally:
        me.close()


# -- trump ------------------------------------------------------------------------------------


def test_trump_picker_only_for_last_place_and_trump_shown(
    open_page: Callable[..., Any], base_url: str
) -> None:
    # Spicy Pepper: Carrots are trump in hand 1; before hand 2 the player in last place picks.
    # Every seat is a person here, played over the websocket, so hand 1 takes no time at all.
    made = create(
        base_url,
        rules="skip-the-salad",
        toppings=["spicy-pepper"],
        seats=[{"kind": "human"}] + [{"kind": "open"}] * 3,
        seed=11,
    )
    tid = made["table_id"]
    tokens = [made["token"]]
    for name in ("Bea", "Cy", "Dot"):
        joined = httpx.post(f"{base_url}/api/tables/{tid}/join", json={"name": name}).json()
        tokens.append(joined["token"])
    start(base_url, made)
    socks = [SeatSocket(base_url, tid, t) for t in tokens]
    try:
        host = seat_page(open_page, base_url, tid, tokens[0])
        host.wait_for_selector(HAND)
        expect(host.locator("#round-line .trump")).to_contain_text("Carrots")
        # The vegetables are drawn (SVG), never letters, in the hand (issue 14, item 5).
        for card in host.locator(HAND).all():
            code = str(card.get_attribute("data-code"))
            if code != "W":
                expect(card.locator(".suit-art").first).to_be_attached()
        assert socks[0].until(lambda m: m["view"] is not None)["view"]["trump"] == "R"

        # Hand 1: each seat plays its first legal card, until the trump phase of hand 2.
        moves = 0
        while True:
            states = [s.until(lambda m, k=moves: m["moves"] >= k) for s in socks]
            view = states[0]["view"]
            if view["phase"] != "play":
                break
            mover = view["to_move"]
            socks[mover].play(states[mover]["view"]["legal"][0])
            moves += 1
        assert view["phase"] == "trump" and view["hand"] == 2 and view["trump"] is None
        chooser = view["to_move"]
        # The chooser is in last place (ties: the one nearest the dealer's left).
        order = [(view["dealer"] + 1 + i) % 4 for i in range(4)]
        assert chooser == max(order, key=lambda s: view["totals"][s])
        suits = [f"trump:{s['letter']}" for s in states[0]["table"]["deck"]["suits"]]
        assert sorted(states[chooser]["view"]["legal"]) == sorted(suits)
        # The hand's summary waits for every seat to press Next hand (issue 14).
        assert states[0]["hand_end"]["waiting"] == [0, 1, 2, 3]
        for sock in socks:
            sock.ws.send(json.dumps({"type": "next"}))
        socks[0].until(lambda m: m["hand_end"] is None)

        other = 1 if chooser == 0 else 0
        pages = {0: host}
        for seat in (chooser, other):
            if seat not in pages:
                pages[seat] = seat_page(open_page, base_url, tid, tokens[seat])
        picker, watcher = pages[chooser], pages[other]

        # Only the chooser gets the picker: one button per suit of the deck.
        expect(picker.locator("#center h2")).to_have_text("Pick the trump suit")
        # ... and says why this player picks, in the words of the ruleset's topping (item 5).
        expect(picker.locator("#trump-why")).to_have_text("You are in last place: Spicy Pepper.")
        expect(picker.locator("#status")).to_contain_text("pick the trump suit")
        buttons = picker.eval_on_selector_all(
            "[data-trump]", "els => els.map(e => e.dataset.trump)"
        )
        assert sorted(buttons) == sorted(suits)
        expect(picker.locator(LEGAL)).to_have_count(0)
        expect(watcher.locator("#center")).to_contain_text("is choosing the trump suit")
        expect(watcher.locator("[data-trump]")).to_have_count(0)
        expect(watcher.locator("#round-line .trump")).to_have_count(0)

        picker.click("[data-trump='trump:O']")
        after = socks[0].until(lambda m: m["view"]["trump"] is not None)
        assert after["view"]["trump"] == "O" and after["view"]["phase"] == "play"
        for page in (picker, watcher):
            expect(page.locator("#round-line .trump")).to_contain_text("Onions")
            expect(page.locator("[data-trump]")).to_have_count(0)
    finally:
        for s in socks:
            s.close()


# -- wild cards -------------------------------------------------------------------------------


def card_of(view: dict[str, Any], seat: int) -> str | None:
    """What ``seat`` played in the current trick, or else in the last finished one."""
    for s, code in view["trick"]:
        if s == seat:
            return str(code)
    if view["tricks"]:
        last = view["tricks"][-1]
        return str(last["cards"][(seat - last["leader"]) % view["players"]])
    return None


def test_wild_high_low_choice_and_declared_card_shown(
    open_page: Callable[..., Any], base_url: str
) -> None:
    # Skip the Salad's four Wilds are declared high or low when played: a seed deals two to seat 0.
    rules = load_ruleset("skip-the-salad")
    seed = find_seed(rules, 4, lambda g: g.view(0).to_dict()["cards"].count("W") >= 2)
    made = create(
        base_url,
        rules="skip-the-salad",
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        seed=seed,
    )
    tid = made["table_id"]
    spectator = SeatSocket(base_url, tid)
    try:
        page = seat_page(open_page, base_url, tid, made["token"])
        expect(page.locator("#lobby")).to_be_visible()
        page.evaluate(RECORD_TRICK)
        start(base_url, made)
        page.wait_for_selector(LEGAL)
        cards = hand(page)
        assert cards.count("W") >= 2
        assert "W" in codes(page, LEGAL)  # a Wild may always be played
        moves = spectator.until(lambda m: m["view"] and m["view"]["to_move"] == 0)["moves"]

        # Clicking a Wild asks high or low; nothing is sent until the choice, and Cancel backs out.
        click_card(page, "#hand .card[data-code='W']")
        panel = page.locator("#center .panel")
        expect(panel.locator("h2")).to_have_text("Play the Wild")
        expect(panel.locator("[data-wild]")).to_have_count(3)
        assert spectator.quiet(0.3) == [] and hand(page) == cards
        page.click("[data-wild='cancel']")
        expect(page.locator("[data-wild]")).to_have_count(0)
        assert hand(page) == cards

        # High: the server gets W+, and the table shows the Wild played high.
        click_card(page, "#hand .card[data-code='W']")
        page.click("[data-wild='high']")
        played = spectator.until(lambda m, k=moves: m["moves"] > k)
        assert card_of(played["view"], 0) == "W+"
        page.wait_for_function("() => window.__trickSeen.some(s => s.startsWith('0:W+:'))")
        assert any(s.startswith("0:W+:") and "HIGH" in s for s in trick_seen(page))
        page.wait_for_function(
            "n => document.querySelectorAll('#hand .card').length === n", arg=len(cards) - 1
        )
        assert hand(page).count("W") == cards.count("W") - 1

        # Low, on the next turn: the server gets a plain W, shown as a Wild played low.
        page.wait_for_selector(LEGAL)
        cards = hand(page)
        moves = spectator.until(lambda m: m["view"]["to_move"] == 0)["moves"]
        click_card(page, "#hand .card[data-code='W']")
        expect(page.locator("[data-wild='low']")).to_be_visible()
        page.click("[data-wild='low']")
        played = spectator.until(lambda m, k=moves: m["moves"] > k)
        assert card_of(played["view"], 0) == "W"
        page.wait_for_function("() => window.__trickSeen.some(s => s.startsWith('0:W:'))")
        assert any(s.startswith("0:W:") and "LOW" in s for s in trick_seen(page))
        page.wait_for_function(
            "n => document.querySelectorAll('#hand .card').length === n", arg=len(cards) - 1
        )
    finally:
        spectator.close()


# -- the turn timer ---------------------------------------------------------------------------


def test_turn_timer_counts_down_and_a_bot_moves_on_time(
    open_page: Callable[..., Any], base_url: str
) -> None:
    timer = 3.0
    made = create(
        base_url,
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        turn_timer=timer,
        seed=5,
    )
    tid = made["table_id"]
    sent: list[str] = []
    page = open_page(None)
    page.on(
        "websocket",
        lambda ws: ws.on("framesent", lambda f: sent.append(f) if '"play"' in str(f) else None),
    )
    page.goto(f"{base_url}/table/{tid}#token={made['token']}")
    expect(page.locator("#lobby")).to_contain_text("turn timer 3 s")
    spectator = SeatSocket(base_url, tid)
    try:
        page.evaluate(RECORD_BLANK_TIMERS)
        page.click("#btn-start")
        page.wait_for_selector(LEGAL)
        mine = spectator.until(lambda m: m["view"] and m["view"]["to_move"] == 0)
        assert mine["deadline"] is not None
        assert 0 < mine["deadline"] - time.time() <= timer + 0.5
        cards = hand(page)

        # The seat to move shows the countdown; no other seat does.
        chip = seat_plate(page, 0).locator("[data-timer]")
        expect(chip).to_have_text(re.compile(r"^[0-3] s$"))
        expect(page.locator("#seats [data-timer]")).to_have_count(1)
        expect(page.locator("[data-timer-mine]")).to_have_text(re.compile(r"\(\d s left\)"))
        first = int(chip.inner_text().split()[0])
        page.wait_for_function(
            "n => parseInt(document.querySelector('#seats [data-timer]').textContent) < n",
            arg=first,
            timeout=3000,
        )

        # Nobody plays: when the time is up, a bot plays one card for seat 0.
        after = spectator.until(lambda m, k=mine["moves"]: m["moves"] > k, timeout=timer + 5)
        assert time.time() >= mine["deadline"] - 0.1
        view = after["view"]
        assert view["hand_sizes"][0] == len(cards) - 1
        assert any(s == 0 for s, _ in view["trick"]) or view["tricks"]
        page.wait_for_function(
            "n => document.querySelectorAll('#hand .card').length === n", arg=len(cards) - 1
        )
        assert sent == [], "the page sent a move"
        # The countdown was never drawn without its number (each state re-draws the seats).
        assert page.evaluate("window.__timersSeen") > 0
        assert page.evaluate("window.__blankTimers") == 0
        # A bot to move has no deadline (the page shows a countdown only with one).
        bots = spectator.until(lambda m: m["view"]["to_move"] != 0)
        assert bots["deadline"] is None
    finally:
        spectator.close()


# -- a bot for an away seat --------------------------------------------------------------------


def test_bot_takes_over_an_away_seat_and_hands_it_back(
    open_page: Callable[..., Any], base_url: str
) -> None:
    made = create(
        base_url,
        seats=[{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3,
        bot_takeover=0.5,
        seed=6,
    )
    tid = made["table_id"]
    watcher = open_page(f"/watch/{tid}")
    spectator = SeatSocket(base_url, tid)
    try:
        start(base_url, made)  # the host never opens the table: it is away
        watcher.wait_for_selector("#seats .seat")
        away = seat_plate(watcher, 0)
        expect(away.locator(".chip-away")).to_be_visible()
        # Seat 0 is away: after bot_takeover seconds a bot plays its cards.
        expect(away).to_contain_text("bot playing")
        taken = spectator.until(lambda m: m["view"] and m["view"]["hand_sizes"][0] <= 11)
        assert taken["table"]["seats"][0]["takeover"] is True
        info = lobby(base_url, tid)
        assert info["seats"][0]["takeover"] and not info["seats"][0]["connected"]

        # The host comes back: the seat is theirs again, and the game waits for them.
        host = seat_page(open_page, base_url, tid, made["token"])
        host.wait_for_selector(HAND)
        expect(away.locator(".chip-away")).to_have_count(0)
        expect(away).not_to_contain_text("bot playing")
        info = lobby(base_url, tid)
        assert info["seats"][0]["connected"] and not info["seats"][0]["takeover"]
        host.wait_for_selector(LEGAL, timeout=20_000)
        cards = hand(host)
        waiting = spectator.until(
            lambda m: m["view"]["to_move"] == 0 and m["view"]["hand_sizes"][0] == len(cards)
        )
        assert all(m["moves"] == waiting["moves"] for m in spectator.quiet(1.5))
        click_card(host, LEGAL)
        moved = spectator.until(lambda m, k=waiting["moves"]: m["moves"] > k)
        assert moved["view"]["hand_sizes"][0] == len(cards) - 1
        assert not moved["table"]["seats"][0]["takeover"]
    finally:
        spectator.close()


def test_seat_leaving_during_the_pause_on_a_trick_shows_away(
    open_page: Callable[..., Any], base_url: str
) -> None:
    # The page pauses on a finished trick (the default setting) and keeps the newest state for
    # afterwards. A state carries the lobby (`table`: who is connected) only when it changed, so
    # a seat that leaves during the pause, followed by a move, must still show as away.
    made = create(base_url, seats=[{"kind": "human"}] + [{"kind": "open"}] * 3, seed=3)
    tid = made["table_id"]
    tokens = [made["token"]]
    for name in ("Bea", "Cy", "Dot"):
        joined = httpx.post(f"{base_url}/api/tables/{tid}/join", json={"name": name}).json()
        tokens.append(joined["token"])
    start(base_url, made)
    socks = [SeatSocket(base_url, tid, t) for t in tokens]
    try:
        watcher = open_page(f"/watch/{tid}", pause=True)
        watcher.wait_for_selector("#seats .seat")
        expect(watcher.locator("#seats .seat")).to_have_count(4)
        expect(watcher.locator("#seats .chip-away")).to_have_count(0)

        # The first trick, played at once over the websockets.
        for moves in range(4):
            states = [s.until(lambda m, k=moves: m["moves"] >= k) for s in socks]
            mover = states[0]["view"]["to_move"]
            socks[mover].play(states[mover]["view"]["legal"][0])
        states = [s.until(lambda m: m["moves"] >= 4) for s in socks]
        winner = states[0]["view"]["to_move"]
        assert states[0]["last_trick"]["winner"] == winner
        # While the watcher shows the finished trick: a player leaves, then the winner leads.
        leaving = (winner + 1) % 4
        socks[leaving].close()
        end = time.monotonic() + 5
        while lobby(base_url, tid)["seats"][leaving]["connected"]:
            assert time.monotonic() < end, "the server never saw the seat leave"
            time.sleep(0.02)
        lead = states[winner]["view"]["legal"][0]
        socks[winner].play(lead)
        socks[winner].until(lambda m: m["moves"] == 5)

        # After the pause the watcher shows both: the lead, and the seat away.
        expect(watcher.locator(f"#trick .trick-card[data-seat='{winner}']")).to_have_count(1)
        expect(seat_plate(watcher, leaving).locator(".chip-away")).to_be_visible()
        expect(watcher.locator("#seats .chip-away")).to_have_count(1)
    finally:
        for s in socks:
            s.close()
