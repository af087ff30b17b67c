"""The pause after a hand (issue 14, item 1): every connected human seat sees the hand's summary,
penalty by penalty, until it presses Next hand; a reconnecting client gets the same summary; a
seat that leaves or a turn timer that runs out ends the wait; a table of bots does not wait."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from .test_play import HUMAN, RANDOM, watch


async def play_to_hand_end(socks: list[Any], rng: random.Random) -> dict[str, Any]:
    """The seats play random legal moves until a hand's summary waits for them; the state
    that says so, as the first seat got it.

    Each socket is read on its own: the seats do not get the same number of messages (one that
    connected earlier got the bots' first moves, which happen at once, one by one), and reading
    them in turns waited on the one that had nothing more while the other held its turn.
    """
    sent: set[int] = set()

    async def drive(sock: Any) -> None:
        while True:
            m = await sock.recv()
            if m["type"] != "state" or m["view"] is None:
                continue
            if m.get("hand_end") and m["hand_end"]["waiting"]:
                return
            view = m["view"]
            if view["to_move"] == m["you"] and view["legal"] and m["moves"] not in sent:
                sent.add(m["moves"])
                await sock.send({"type": "play", "move": rng.choice(view["legal"])})

    await asyncio.gather(*(drive(sock) for sock in socks))
    return dict(await socks[0].until(lambda x: bool(x["hand_end"])))


def check_summary(end: dict[str, Any], state: dict[str, Any]) -> None:
    """The summary adds up: each seat's penalties (and moon) are its hand points, which are the
    score sheet's row; the totals are the sheet's totals."""
    players = state["view"]["players"]
    assert end["hand"] == 1 and end["round"] == state["table"]["hands"][0]["round"]
    ids = [p["id"] for p in end["penalties"]]
    assert ids and all(p["name"] for p in end["penalties"])
    assert all((p["each"] is None) == (p["id"] == "moon") for p in end["penalties"])
    assert all(p["each"] is None or p["each"] > 0 for p in end["penalties"])
    for s in range(players):
        seat = end["seats"][s]
        assert sum(seat[i] for i in ids if i in seat) + seat["moon"] == end["points"][s]
    assert end["points"] == state["hand_rounds"][0]["points"] == state["view"]["hand_points"][0]
    assert end["totals"] == state["view"]["totals"]
    assert len(end["standings"]) == players and min(end["standings"]) == 1


def test_next_hand_waits_for_every_connected_human(server: Any, ws: Any) -> None:
    tid, tokens = server.table([HUMAN, HUMAN, RANDOM, RANDOM], seed=7)

    async def run() -> None:
        a = await ws(server, tid, tokens[0], "host")
        b = await ws(server, tid, tokens[1], "guest")
        state = await play_to_hand_end([a, b], random.Random(2))
        end = state["hand_end"]
        assert end["waiting"] == [0, 1]
        check_summary(end, state)
        moves = state["moves"]
        # Nothing moves while the summary is up: no bot plays, a move is refused in words.
        to_move = state["view"]["to_move"]
        mover = {0: a, 1: b}.get(to_move)
        if mover is not None:
            legal = mover.state["view"]["legal"]
            await mover.send({"type": "play", "move": legal[0]})
            m = await mover.recv()
            assert m["type"] == "error" and "Next hand" in m["message"], m
        assert all(m["moves"] == moves for m in await a.quiet(0.5) if m["type"] == "state")
        # A client that reconnects gets the same summary.
        again = await ws(server, tid, tokens[1], "again")
        first = await again.recv()
        assert first["hand_end"] == end
        await again.ws.close()
        # Host presses Next hand: still waiting for the guest.
        await a.send({"type": "next"})
        m = await a.until(lambda x: x["hand_end"] is not None and x["hand_end"]["waiting"] == [1])
        assert m["moves"] == moves
        # Pressed again (a double click, a client that repeats it): nobody is sent anything.
        await b.until(lambda x: x["hand_end"] is not None and x["hand_end"]["waiting"] == [1])
        for _ in range(20):
            await a.send({"type": "next"})
        heard = await asyncio.gather(a.quiet(0.5), b.quiet(0.5))
        assert heard == [[], []], [[x["type"] for x in h] for h in heard]
        await b.send({"type": "next"})
        m = await a.until(lambda x: x["hand_end"] is None)
        assert m["view"]["hand"] == 2 and m["moves"] == moves
        if to_move not in (0, 1):  # a bot leads the next hand: it plays now
            await a.until(lambda x: x["moves"] > moves)
        await a.ws.close()
        await b.ws.close()

    asyncio.run(run())


def test_a_seat_that_leaves_is_not_waited_for(server: Any, ws: Any) -> None:
    """Once away for the takeover time: a reload within it finds the same summary."""
    tid, tokens = server.table([HUMAN, HUMAN, RANDOM], seed=3, bot_takeover=1.0)

    async def run() -> None:
        a = await ws(server, tid, tokens[0], "host")
        b = await ws(server, tid, tokens[1], "guest")
        state = await play_to_hand_end([a, b], random.Random(5))
        assert state["hand_end"]["waiting"] == [0, 1]
        await a.send({"type": "next"})
        await a.until(lambda x: x["hand_end"] is not None and x["hand_end"]["waiting"] == [1])
        await b.ws.close()
        await a.until(lambda x: not x["table"]["seats"][1]["connected"])
        left = time.monotonic()
        back = await ws(server, tid, tokens[1], "back")
        assert (await back.recv())["hand_end"]["waiting"] == [1]
        await back.ws.close()
        await a.until(lambda x: x["hand_end"] is None, timeout=10)
        assert time.monotonic() - left >= 0.9
        await a.ws.close()

    asyncio.run(run())


def test_the_turn_timer_ends_the_wait(server: Any, ws: Any) -> None:
    tid, tokens = server.table([HUMAN, RANDOM, RANDOM], turn_timer=1.0, seed=4)

    async def run() -> None:
        a = await ws(server, tid, tokens[0], "host")
        state = await play_to_hand_end([a], random.Random(6))
        deadline = state["deadline"]
        assert deadline is not None and deadline - time.time() <= 1.1
        await a.until(lambda x: x["hand_end"] is None, timeout=10)
        assert time.time() >= deadline - 0.05
        await a.ws.close()

    asyncio.run(run())


def test_bots_do_not_wait(server: Any, ws: Any) -> None:
    """The host never connects and a bot takes the seat over: the game plays through without
    a pause; the spectator sees the last hand's summary at game over."""
    tid, _ = server.table([HUMAN, RANDOM, RANDOM], bot_takeover=0.1, seed=9, rules="canadian")

    async def run() -> None:
        spec = await ws(server, tid, None, "spectator")
        final = await watch(spec, timeout=60)
        seen = [m.get("hand_end") for m in states(spec)]
        assert all(not e or not e["waiting"] for e in seen)
        end = final["hand_end"]
        assert end is not None and end["waiting"] == []
        assert end["hand"] == len(final["hand_rounds"])
        assert end["points"] == final["view"]["running"] == final["hand_rounds"][-1]["points"]
        await spec.ws.close()

    asyncio.run(run())


def states(sock: Any) -> list[dict[str, Any]]:
    """Every state message a socket has received."""
    return [json.loads(t) for t in sock.messages if t.startswith('{"type":"state"')]
