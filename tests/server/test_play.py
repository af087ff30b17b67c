"""Whole games over websockets against a real server: humans, bots, spectators, bad messages,
hidden cards, timers and bots taking over."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from salad.engine import Game
from salad.events import PASS, PLAY, TRUMP
from salad.formats.records import game_from_record, verify_record
from salad.formats.rules import load_ruleset

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}
BASIC = {"kind": "bot", "bot": "basic"}


async def play_randomly(
    sock: Any, rng: random.Random, timeout: float = 30, wrong_every: int = 0
) -> dict[str, Any]:
    """Play a random legal move whenever this seat is to move, and press Next hand whenever a
    hand's summary waits for this seat; the final state. ``wrong_every``: a careless client,
    whose every so many turns start with a move that is not a card (its ``error`` is then
    expected)."""
    sent_for = -1
    nexted = -1
    turns = 0
    while True:
        m = await sock.recv(timeout)
        if wrong_every and m["type"] == "error":
            continue
        assert m["type"] == "state", m
        view = m["view"]
        if view is None:
            continue
        if view["phase"] == "over":
            return dict(m)
        end = m.get("hand_end")
        if end and end["waiting"]:  # a hand's summary is up: no move is taken until it goes
            if m["you"] in end["waiting"] and end["hand"] != nexted:
                nexted = end["hand"]
                await sock.send({"type": "next"})
            continue
        if view["to_move"] == m["you"] and view["legal"] and m["moves"] != sent_for:
            sent_for = m["moves"]
            turns += 1
            if wrong_every and turns % wrong_every == 0:
                await sock.send({"type": "play", "move": "nothing"})
            await sock.send({"type": "play", "move": rng.choice(view["legal"])})


async def watch(sock: Any, timeout: float = 30) -> dict[str, Any]:
    while True:
        m = await sock.recv(timeout)
        assert m["type"] == "state", m
        if m["view"] is not None and m["view"]["phase"] == "over":
            return dict(m)


def moves_of(record: dict[str, Any]) -> tuple[Game, list[int]]:
    """A fresh game of the record's ruleset and seed, and every move of the record in order."""
    done = game_from_record(record)
    moves = []
    size = done.deck.size
    for entry in done.log:
        tag = entry[0]
        if tag in (PLAY, PASS):
            moves.append(int(entry[2]))  # type: ignore[call-overload]
        elif tag == TRUMP and int(entry[2]) >= 0:  # type: ignore[call-overload]
            moves.append(2 * size + int(entry[3]))  # type: ignore[call-overload]
    rs = load_ruleset(record["ruleset"]["preset"], record["ruleset"]["settings"] or None)
    return Game(rs, len(record["players"]), seed=int(record["seed"])), moves


def check_no_hidden_cards(record: dict[str, Any], sockets: list[Any]) -> int:
    """Replay the game; for every message a seat (or spectator) got, no card still held by
    another seat appears in it (outside the public lobby). Returns the messages checked."""
    game, moves = moves_of(record)
    deck = game.deck
    codes = deck.codes
    copies = {c: codes.count(c) for c in codes}
    # Cards held by each seat, and cards each seat has chosen to pass, after k moves.
    held: list[list[set[str]]] = []
    passed: list[list[set[str]]] = []
    cards: list[list[list[str]]] = []

    def snapshot() -> None:
        cards.append([sorted(codes[c] for c in _cards(game.hand(s))) for s in range(game.players)])
        held.append([set(c) for c in cards[-1]])
        passed.append([{codes[c] for c in _cards(game.passed[s])} for s in range(game.players)])

    snapshot()
    for move in moves:
        game.play(move)
        snapshot()
    played_tricks = [
        [[(t["leader"] + i) % game.players, c] for i, c in enumerate(t["cards"])]
        for hand in record["hands"]
        for t in hand["tricks"]
    ]
    checked = 0
    for sock in sockets:
        for text in sock.messages:
            message = json.loads(text)
            if message["type"] != "state" or message["view"] is None:
                continue
            k, you = message["moves"], message["you"]
            message.pop("table", None)
            # The last finished trick is public; it may be from the previous hand, whose cards
            # are dealt again: check it is a trick played, and search the rest.
            last = message.pop("last_trick", None)
            assert last is None or last["cards"] in played_tricks
            body = json.dumps(message)
            mine = held[k][you] | passed[k][you] if you >= 0 else set()
            for seat in range(game.players):
                if seat == you:
                    continue
                for code in held[k][seat] - mine:
                    if copies[code] > 1:
                        continue  # a copy of it may have been played: not hidden information
                    for shown in (f'"{code}"', f'"{code}+"'):
                        assert shown not in body, (
                            f"{sock.name} (seat {you}) after {k} moves sees {code} of seat {seat}"
                        )
            if you >= 0:
                assert sorted(message["view"]["cards"]) == cards[k][you]
            checked += 1
    return checked


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def test_whole_game_humans_bots_spectator(server: Any, ws: Any) -> None:
    """Two humans, two bots (random and basic) and a spectator play a whole game; the record
    replays; a rematch keeps the seats and tokens."""
    tid, tokens = server.table([HUMAN, RANDOM, HUMAN, BASIC], seed=11)

    async def run() -> list[Any]:
        a = await ws(server, tid, tokens[0], "host")
        b = await ws(server, tid, tokens[2], "guest")
        spec = await ws(server, tid, None, "spectator")
        finals = await asyncio.gather(
            play_randomly(a, random.Random(1)),
            play_randomly(b, random.Random(2)),
            watch(spec),
        )
        for final in finals:
            assert final["view"]["phase"] == "over"
            assert final["table"]["status"] == "over"
            assert final["winners"] and len(final["hand_rounds"]) == 6
        assert finals[0]["you"] == 0 and finals[1]["you"] == 2 and finals[2]["you"] == -1
        assert finals[2]["view"]["cards"] == []
        assert finals[0]["view"]["totals"] == finals[2]["view"]["totals"]
        for s in (a, b, spec):
            await s.ws.close()
        return [a, b, spec]

    socks = asyncio.run(run())
    for sock in socks:
        # The lobby comes with the first state and when it changes, not with every move.
        with_table = ['"table":' in text for text in sock.messages]
        assert with_table[0] and 2 <= sum(with_table) < 10, sum(with_table)
    record = server.ok("GET", f"/api/tables/{tid}/record")
    # A table with a guest never deals from the host's seed: it is mixed with a server secret
    # (issue: the host can know every hand); the record holds the seed that dealt.
    assert record["format"] == "salad-record/2" and record["seed"] != "11"
    assert [p["name"] for p in record["players"]] == ["Host", "Random bot 2", "P2", "Basic bot 4"]
    assert record["players"][3]["bot"] == "basic"
    totals = verify_record(record)
    assert server.ok("GET", f"/api/tables/{tid}/record?game=1") == record
    assert check_no_hidden_cards(record, socks) > 300
    games = server.ok("GET", f"/api/tables/{tid}/games")
    (game,) = games
    assert {k: game[k] for k in ("game_number", "status", "totals", "winners")} == {
        "game_number": 1,
        "status": "over",
        "totals": totals,
        "winners": record["winners"],
    }
    assert game["players"] == [p["name"] for p in record["players"]]
    assert game["finished_at"] >= game["started_at"] > 1.7e9

    # Rematch: same seats and tokens, game 2 starts at once.
    assert server.post(f"/api/tables/{tid}/rematch", token=tokens[2]).status_code == 403
    lobby = server.ok("POST", f"/api/tables/{tid}/rematch", token=tokens[0])
    assert lobby["status"] == "playing" and lobby["game_number"] == 2
    assert server.http.get(f"/api/tables/{tid}/record?game=2").status_code == 409
    assert server.http.get(f"/api/tables/{tid}/record?game=3").status_code == 404
    assert server.ok("GET", f"/api/tables/{tid}/record?game=1") == record

    async def second() -> None:
        a = await ws(server, tid, tokens[0])
        b = await ws(server, tid, tokens[2])
        finals = await asyncio.gather(
            play_randomly(a, random.Random(3)), play_randomly(b, random.Random(4))
        )
        assert finals[0]["table"]["game_number"] == 2
        for s in (a, b):
            await s.ws.close()

    asyncio.run(second())
    games = server.ok("GET", f"/api/tables/{tid}/games")
    assert [g["status"] for g in games] == ["over", "over"]
    verify_record(server.ok("GET", f"/api/tables/{tid}/record?game=2"))


def test_no_message_holds_another_seats_cards(server: Any, ws: Any) -> None:
    """Every message of whole games, for every seat and a spectator: canadian with four humans,
    and Skip the Salad with every topping (passing, trumps, wilds) with humans and bots."""
    cases = [
        ("canadian", [HUMAN, HUMAN, HUMAN, HUMAN], None),
        ("skip-the-salad", [HUMAN, BASIC, HUMAN, RANDOM, HUMAN], "all"),
    ]
    for rules, seats, toppings in cases:
        options: dict[str, Any] = {"rules": rules, "seed": 5}
        if toppings:
            options["toppings"] = toppings
        tid, tokens = server.table(seats, **options)

        async def run(tid: str = tid, tokens: list[str | None] = tokens) -> list[Any]:
            socks = [await ws(server, tid, tok, f"seat {i}") for i, tok in enumerate(tokens) if tok]
            spec = await ws(server, tid, None, "spectator")
            await asyncio.gather(
                *(play_randomly(s, random.Random(i)) for i, s in enumerate(socks)), watch(spec)
            )
            for s in [*socks, spec]:
                await s.ws.close()
            return [*socks, spec]

        socks = asyncio.run(run())
        record = server.ok("GET", f"/api/tables/{tid}/record")
        verify_record(record)
        checked = check_no_hidden_cards(record, socks)
        assert checked > 5 * 300, (rules, checked)


async def expect_error(sock: Any, others: list[Any], words: str) -> None:
    """The next message ``sock`` gets is one error saying ``words`` (had anything changed, a
    state would come first); ``others`` are checked for silence at the end of the test."""
    m = await sock.recv(10)
    assert m["type"] == "error", m
    assert words in m["message"], m["message"]
    assert "\n" not in m["message"]


async def silent(socks: list[Any], seconds: float = 0.3) -> None:
    heard = await asyncio.gather(*(s.quiet(seconds) for s in socks))
    for s, extra in zip(socks, heard, strict=True):
        assert extra == [], f"{s.name} got {extra} after refused messages"


def test_bad_messages_change_nothing(server: Any, ws: Any) -> None:
    tid, tokens = server.table([HUMAN, HUMAN, RANDOM, RANDOM], seed=3)
    lobby = server.ok("GET", f"/api/tables/{tid}")

    async def run() -> None:
        a = await ws(server, tid, tokens[0], "seat 0")
        b = await ws(server, tid, tokens[1], "seat 1")
        spec = await ws(server, tid, None, "spectator")
        socks = {0: a, 1: b}
        # Play until a human is to move in the middle of a trick (a suit has been led).
        rng = random.Random(9)
        while True:
            state = await a.until(lambda m: m["view"]["to_move"] in (0, 1))
            mover = state["view"]["to_move"]
            state = await socks[mover].until(lambda m, k=state["moves"]: m["moves"] == k)
            await socks[1 - mover].until(lambda m, k=state["moves"]: m["moves"] == k)
            view = state["view"]
            if view["trick"] and len(view["legal"]) < len(view["cards"]):
                break
            await socks[mover].send({"type": "play", "move": rng.choice(view["legal"])})
            await a.until(lambda m, k=state["moves"]: m["moves"] > k)
        await spec.until(lambda m, k=state["moves"]: m["moves"] == k)
        await asyncio.sleep(0.2)
        for s in (a, b, spec):
            await s.quiet(0.1)
        x, y = socks[mover], socks[1 - mover]
        moves = state["moves"]
        x_state = x.state
        assert x_state is not None
        mine = x_state["view"]["cards"]
        legal = x_state["view"]["legal"]
        everyone = [a, b, spec]
        others = [s for s in everyone if s is not x]
        y_cards = y.state["view"]["cards"] if y.state else []

        await y.send({"type": "play", "move": y_cards[0]})
        name = ["Host", "P1"][mover]  # people are named, never "seat 0"
        await expect_error(y, [x, spec], f"Wait for {name} to play: it is {name}'s turn")
        await spec.send({"type": "play", "move": mine[0]})
        await expect_error(spec, [a, b], "spectators cannot play")
        bad: list[tuple[Any, str]] = [
            ("not json", "not JSON"),
            ("[1, 2]", "JSON object"),
            ('"play"', "JSON object"),
            ({"type": "dance"}, "unknown message type"),
            ({"kind": "play"}, "unknown message type"),
            ({"type": "play"}, '"move"'),
            ({"type": "play", "move": 12}, '"move"'),
            ({"type": "play", "move": ["QS"]}, '"move"'),
            ({"type": "play", "move": "ZZ"}, "unknown card"),
            ({"type": "play", "move": ""}, "cannot play"),
            ({"type": "play", "move": "Q\nS"}, "not a card"),
            ({"type": "play", "move": "x" * 40}, "not a card"),
            ({"type": "play", "move": "trump:H"}, "cannot play"),
            ("x" * 5000, "too long"),
        ]
        not_mine = [c for c in y_cards if c not in mine]
        if not_mine:
            bad.append(({"type": "play", "move": not_mine[0]}, "you do not hold it"))
        illegal = [c for c in mine if c not in legal]
        if illegal:
            led = x_state["view"]["led_suit"]
            suit = next(s["name"] for s in lobby["deck"]["suits"] if s["letter"] == led)
            bad.append(({"type": "play", "move": illegal[0]}, f"you must follow {suit}"))
        for message, words in bad:
            await x.send(message)
            await expect_error(x, others, words)
        await x.ws.send(b"\x00\x01binary")
        await expect_error(x, others, "binary")
        await x.send({"type": "ping"})
        assert await x.recv() == {"type": "pong"}
        await silent(everyone)

        # Nothing changed: a new spectator sees exactly what the old one saw.
        fresh = await ws(server, tid, None, "fresh")
        seen = await fresh.recv()
        assert seen["moves"] == moves
        assert seen["view"] == spec.state["view"]
        assert server.ok("GET", f"/api/tables/{tid}")["status"] == lobby["status"] == "playing"

        # And the legal move still goes through, to everyone.
        await x.send({"type": "play", "move": legal[0]})
        for s in [*everyone, fresh]:
            m = await s.until(lambda m: m["moves"] > moves)
            assert m["moves"] == moves + 1
        for s in [*everyone, fresh]:
            await s.ws.close()

    asyncio.run(run())


def test_bad_connections(server: Any, ws: Any) -> None:
    tid, tokens = server.table([HUMAN, RANDOM, RANDOM])

    async def run() -> None:
        for table_id, token, code, words in (
            (tid, "not-the-token", 4401, "wrong token"),
            ("nosuchtable", None, 4404, "no table"),
            ("bad!id", tokens[0], 4404, "no table"),
        ):
            sock = await ws(server, table_id, token)
            m = await sock.recv()
            assert m["type"] == "error" and words in m["message"]
            try:
                await asyncio.wait_for(sock.ws.recv(), 5)
                raise AssertionError("the socket stayed open")
            except Exception as exc:  # ConnectionClosed
                assert getattr(exc, "rcvd", None) is not None
                assert exc.rcvd.code == code  # type: ignore[attr-defined]

    asyncio.run(run())


def test_turn_timer_and_bot_takeover(server: Any, ws: Any) -> None:
    # Turn timer: the host stays connected and idle; a bot plays each of its moves on time.
    tid, tokens = server.table([HUMAN, RANDOM, RANDOM], turn_timer=0.6, seed=2)

    async def timer() -> None:
        a = await ws(server, tid, tokens[0])
        state = await a.until(lambda m: m["view"]["to_move"] == 0)
        deadline = state["deadline"]
        assert deadline is not None and deadline - time.time() <= 0.7
        moves = state["moves"]
        after = await a.until(lambda m: m["moves"] > moves)
        # The bot moved when the timer ran out, not before (the clock is the server's, on the
        # same machine), and not long after.
        assert deadline - 0.05 <= time.time() < deadline + 5
        assert len(after["view"]["cards"]) == len(state["view"]["cards"]) - 1
        await a.ws.close()

    asyncio.run(timer())

    # Takeover: seat 1 joined but never connects; after 0.4 s away a bot plays for it, and hands
    # the seat back when it connects.
    tid, tokens = server.table([HUMAN, HUMAN, RANDOM, RANDOM], bot_takeover=0.4, seed=4)

    async def takeover() -> None:
        a = await ws(server, tid, tokens[0], "host")
        rng = random.Random(5)
        sent_for = -1
        while True:
            m = await a.recv()
            view = m["view"]
            if m["table"]["seats"][1]["takeover"]:
                break
            if view["to_move"] == 0 and m["moves"] != sent_for:
                sent_for = m["moves"]
                await a.send({"type": "play", "move": rng.choice(view["legal"])})
        assert not m["table"]["seats"][1]["connected"]
        b = await ws(server, tid, tokens[1], "back")
        back = await b.recv()
        assert back["you"] == 1
        assert back["table"]["seats"][1] == {
            "seat": 1,
            "kind": "human",
            "name": "P1",
            "bot": None,
            "connected": True,
            "takeover": False,
        }
        # Play on until seat 1 is to move: then nothing happens until it plays. (From the state
        # that shows seat 1 back: one before it may still have a bot's move for seat 1 to come.)
        await a.until(lambda m: m["table"]["seats"][1]["connected"])
        rngb = random.Random(6)
        while True:
            m = await a.until(lambda m: m["view"]["to_move"] in (0, 1))
            if m["view"]["to_move"] == 1:
                break
            if m["moves"] != sent_for:
                sent_for = m["moves"]
                await a.send({"type": "play", "move": rng.choice(m["view"]["legal"])})
            await a.until(lambda m, k=m["moves"]: m["moves"] > k)
        await b.until(lambda x, k=m["moves"]: x["moves"] == k)
        assert await a.quiet(1.0) == []
        await b.send({"type": "play", "move": rngb.choice(b.state["view"]["legal"])})
        await a.until(lambda x, k=m["moves"]: x["moves"] > k)
        await a.ws.close()
        await b.ws.close()

    asyncio.run(takeover())


def test_spectator_and_seat_views_differ_only_in_own_cards(server: Any, ws: Any) -> None:
    tid, tokens = server.table([HUMAN, HUMAN, HUMAN], seed=8)

    async def run() -> None:
        socks = [await ws(server, tid, t) for t in tokens]
        spec = await ws(server, tid, None)
        states = [await s.recv() for s in socks]
        watched = await spec.recv()
        for seat, state in enumerate(states):
            assert state["you"] == seat and len(state["view"]["cards"]) == 17
            own = {"seat", "cards", "legal", "passed", "received"}
            assert {k: v for k, v in state["view"].items() if k not in own} == {
                k: v for k, v in watched["view"].items() if k not in own
            }
            assert state["table"]["seats"][seat]["connected"] or seat == len(tokens) - 1
        assert watched["view"]["cards"] == [] and watched["you"] == -1
        for s in [*socks, spec]:
            await s.ws.close()

    asyncio.run(run())
