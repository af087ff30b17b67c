"""The websocket against a hostile (or careless) client, on a real server process: seat tokens
never reach the log, a deeply nested message is one ``error``, and a client that never reads
is dropped before it costs the server its memory."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from salad.server.incoming import MESSAGE_LIMIT
from salad.server.logmask import mask
from salad.server.protocol import complete_state
from salad.server.ratelimit import DEFAULT_RATES, ENV
from salad.server.tables.connection import BEHIND, OUTBOX_BYTES, Conn
from salad.server.tables.wire import STATE_PREFIX

from .conftest import Server, Socket
from .test_play import BASIC, HUMAN, RANDOM, play_randomly, watch


async def hello(server: Server, table_id: str, token: str, name: str) -> Socket:
    """A seat's websocket that sends its token in the first message, not in the URL."""
    raw = await websockets.connect(f"{server.ws_base}/ws/tables/{table_id}", max_size=2**22)
    await raw.send(json.dumps({"type": "hello", "token": token}))
    sock = Socket(raw, name)
    while (await sock.recv())["you"] == -1:  # the spectator's state, until the hello is read
        pass
    return sock


def test_no_log_line_holds_a_token(start_server: Callable[..., Server], ws: Any) -> None:
    """A whole game, one seat sending its token in a hello, one in the URL (the first
    version's way, still taken), a spectator and a wrong token: no line of the log holds a
    token, yet the log does show the websockets."""
    server = start_server()
    tid, tokens = server.table([HUMAN, RANDOM, HUMAN, BASIC], seed=5)
    host, guest = tokens[0], tokens[2]
    assert host and guest

    async def run() -> None:
        a = await hello(server, tid, host, "host")
        b = await ws(server, tid, guest, "guest")  # ?token=
        spec = await ws(server, tid, None, "spectator")
        assert a.state and a.state["you"] == 0 and a.state["view"]["cards"]
        finals = await asyncio.gather(
            play_randomly(a, random.Random(1)), play_randomly(b, random.Random(2)), watch(spec)
        )
        assert [f["view"]["phase"] for f in finals] == ["over"] * 3
        bad = await websockets.connect(f"{server.ws_base}/ws/tables/{tid}")
        await bad.send(json.dumps({"type": "hello", "token": "not-" + host}))
        while (answer := json.loads(await bad.recv()))["type"] == "state":  # the spectator's
            pass
        assert "wrong token" in answer["message"]
        await bad.wait_closed()
        assert bad.close_code == 4401
        for s in (a, b, spec):
            await s.ws.close()

    asyncio.run(asyncio.wait_for(run(), 90))
    server.stop()
    log = server.log_path.read_text()
    assert "/ws/tables/" in log and "token=***" in log, log[-2000:]
    for token in (host, guest):
        assert token not in log
        assert token[:8] not in log


def test_mask() -> None:
    assert mask("GET /ws/tables/a?token=abc HTTP/1.1") == "GET /ws/tables/a?token=*** HTTP/1.1"
    assert mask("/ws/tables/a?x=1&TOKEN=abc&y=2") == "/ws/tables/a?x=1&TOKEN=***&y=2"
    assert mask("no secret here") == "no secret here"


def test_the_longest_message_is_read_and_a_larger_frame_is_refused(server: Server, ws: Any) -> None:
    """A message of the most characters a client may send, each of the widest in UTF-8,
    is read and answered; a frame larger than that is refused (1009) before it is read."""
    tid, _ = server.table([HUMAN, HUMAN, HUMAN, HUMAN], start=False)

    async def run() -> None:
        sock = await ws(server, tid, None)
        await sock.recv()
        head = '{"type":"ping","pad":"'
        widest = head + "\U0001f955" * (MESSAGE_LIMIT - len(head) - 2) + '"}'
        assert len(widest) == MESSAGE_LIMIT
        await sock.send(widest)
        assert (await sock.recv(5)) == {"type": "pong"}
        await sock.ws.send("x" * (4 * MESSAGE_LIMIT + 1))
        with contextlib.suppress(websockets.ConnectionClosed):
            await sock.ws.recv()
        assert sock.ws.close_code == 1009

    asyncio.run(asyncio.wait_for(run(), 30))


def test_deeply_nested_message_is_one_error(server: Server, ws: Any) -> None:
    """A message nested deeper than JSON's reader goes is answered with one ``error`` line;
    the connection stays open and still plays (before or after a hello)."""
    tid, tokens = server.table([HUMAN, HUMAN, HUMAN, HUMAN])

    async def run() -> None:
        sock = await ws(server, tid, tokens[0])
        await sock.until(lambda m: m["view"] is not None)
        for deep in ("[" * 2000 + "]" * 2000, '{"":' * 400 + "[" * 700 + "]" * 700 + "}" * 400):
            await sock.send(deep)
            answer = await sock.recv(5)
            assert answer["type"] == "error" and "nested too deeply" in answer["message"]
            assert "\n" not in answer["message"]
        await sock.send({"type": "ping"})
        assert (await sock.recv(5)) == {"type": "pong"}
        # The same as a spectator's first message (where a hello may come).
        spec = await ws(server, tid, None)
        await spec.recv()
        await spec.send("[" * 2000 + "]" * 2000)
        assert "nested too deeply" in (await spec.recv(5))["message"]
        await spec.send({"type": "ping"})
        assert (await spec.recv(5)) == {"type": "pong"}
        await sock.ws.close()
        await spec.ws.close()

    asyncio.run(asyncio.wait_for(run(), 90))


GAMES = 7
"""Games a spectator sleeps through: more than the sockets' buffers between it and the
server hold (about 4 MB on Linux's loopback)."""


async def sluggish(server: Server, table_id: str, token: str | None = None) -> Any:
    """A websocket that reads nothing until asked: a tiny receive buffer, and the client
    library stops reading the socket after one message it was not asked for."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", server.port))
    url = f"{server.ws_base}/ws/tables/{table_id}"
    ws = await websockets.connect(url, sock=raw, max_queue=1, max_size=2**22)
    if token:
        await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


async def read_all(ws: Any, quiet: float = 1.0) -> list[dict[str, Any]]:
    """Every message until none comes for ``quiet`` seconds or the connection closes."""
    out = []
    try:
        while True:
            out.append(json.loads(await asyncio.wait_for(ws.recv(), quiet)))
    except (TimeoutError, websockets.ConnectionClosed):
        return out


def test_a_spectator_that_never_reads_gets_the_latest_state(server: Server, ws: Any) -> None:
    """A spectator that reads nothing while games are played (more than the sockets' buffers
    hold) is not sent every state: when it reads at last, it finds far fewer states than
    moves, the last being the end of the last game, and completed from one another as a
    client does, they are that game's true end."""
    rounds = ["no-tricks", "no-hearts", "no-queens", "no-king-of-spades", "no-last-trick"]
    rules = f"preset = 'canadian'\nhands = {json.dumps(rounds * 4 + ['salad'])}\n"
    tid, tokens = server.table([HUMAN, RANDOM, RANDOM], seed=3, rules_toml=rules)
    host_token = tokens[0]

    async def run() -> None:
        slow = await sluggish(server, tid)
        host = await ws(server, tid, host_token, "host")
        moves = 0
        for game in range(GAMES):
            if game:
                path = f"/api/tables/{tid}/rematch"
                await asyncio.to_thread(server.ok, "POST", path, None, host_token)
            final = await play_randomly(host, random.Random(game))
            moves += final["moves"]
        sent = sum(map(len, host.messages))
        assert sent > 6_000_000, sent  # more than the kernel's buffers take
        await asyncio.sleep(0.5)
        got = await read_all(slow)
        states = [m for m in got if m["type"] == "state"]
        assert len(states) == len(got)
        last: dict[str, Any] | None = None
        for state in states:
            last = complete_state(state, last)
        assert last is not None and last["view"]["phase"] == "over"
        assert last["table"]["game_number"] == GAMES and last["table"]["status"] == "over"
        assert last["view"]["totals"] == final["view"]["totals"]
        assert last["view"]["tricks"] == final["view"]["tricks"]
        assert last["winners"] == final["winners"]
        assert last["hand_rounds"] == final["hand_rounds"]
        assert len(states) < moves // 2, (len(states), moves)
        await slow.close()
        await host.ws.close()

    asyncio.run(asyncio.wait_for(run(), 90))


SENT = 2500
"""Bad messages a client that never reads sends: their errors are 10 MB."""


def test_a_client_too_far_behind_is_dropped(server: Server, ws: Any) -> None:
    """A seat that sends but never reads (here: bad messages, each answered with an error
    that repeats it, more than the sockets' buffers hold) is dropped: its seat
    shows away at once, though it reads nothing, and when it reads at last it finds an
    error and the close code that tells it to reconnect; reconnecting, it gets its state.
    (The test servers run without rate limits, that of refused messages included: see the
    next test.)"""
    tid, tokens = server.table([HUMAN, HUMAN, HUMAN], start=False)
    host = tokens[0]
    assert host

    def connected() -> bool:
        return bool(server.ok("GET", f"/api/tables/{tid}")["seats"][0]["connected"])

    async def run() -> None:
        slow = await sluggish(server, tid, host)
        await asyncio.sleep(0.3)
        assert await asyncio.to_thread(connected)
        bad = json.dumps({"type": "x" * 4000})

        async def flood() -> None:
            for _ in range(SENT):
                await slow.send(bad)

        # In a task: once the server drops the connection it reads no more either.
        sender = asyncio.create_task(flood())
        for _ in range(50):
            if not await asyncio.to_thread(connected):
                break
            await asyncio.sleep(0.1)
        assert not await asyncio.to_thread(connected)
        got = await read_all(slow, quiet=20)  # until the server closes it, however loaded
        sender.cancel()
        assert got[-1] == {"type": "error", "message": "too far behind; reconnect"}
        assert len(got) < SENT
        assert slow.close_code == BEHIND
        again = await hello(server, tid, host, "host")
        assert again.state and again.state["you"] == 0 and "table" in again.state
        await again.ws.close()

    asyncio.run(asyncio.wait_for(run(), 90))


def test_a_connection_whose_messages_keep_being_refused_is_closed(
    monkeypatch: pytest.MonkeyPatch, start_server: Callable[..., Server], ws: Any
) -> None:
    """A client whose messages draw error after error (broken, or flooding the server with
    answers to make) is closed 4429 after the limit's last error, and nothing it sent
    changed the game; the same seat connects again and plays, and a client that makes a
    few mistakes among its moves is never closed."""
    rate = DEFAULT_RATES["refused"]
    monkeypatch.setenv(ENV, f"refused={rate.count}/{rate.seconds:g}")  # tests run without
    server = start_server()
    tid, tokens = server.table([HUMAN, BASIC, BASIC, BASIC])

    async def run() -> None:
        sock = await ws(server, tid, tokens[0])
        first = await sock.until(lambda m: m["view"] is not None)
        for _ in range(rate.count * 3):
            try:
                await sock.send({"type": "play", "move": "nothing"})
            except websockets.ConnectionClosed:
                break
        got = await read_all(sock.ws, quiet=20)  # until the server closes it, however loaded
        errors = [m["message"] for m in got if m["type"] == "error"]
        # The limit's count at once, and the few its refill (3 a second) let through meanwhile.
        assert rate.count + 1 <= len(errors) <= rate.count + 10, len(errors)
        assert errors[-1] == (
            f"too many refused messages on this connection (at most {rate}): closed"
        )
        assert sock.ws.close_code == 4429
        # The seat connects again, as a careless client: a wrong move every fourth turn, among
        # good ones, to the game's end (with bots at once, a game of 78 turns takes seconds).
        again = await ws(server, tid, tokens[0])
        await play_randomly(again, random.Random(3), wrong_every=4)
        # What the seat held when it connected again: its cards as first seen (the bots may have
        # played meanwhile, when one of them leads: only this seat's moves were sent).
        state = next(m for m in again.states if m["view"] is not None)
        assert state["view"]["cards"] == first["view"]["cards"]
        if first["view"]["to_move"] == first["you"]:
            assert state["moves"] == first["moves"]  # the game waited for this seat
        wrong = [t for t in again.messages if json.loads(t)["type"] == "error"]
        assert again.ws.close_code is None and len(wrong) >= 15, len(wrong)  # 78 turns // 4
        await again.ws.close()

    asyncio.run(asyncio.wait_for(run(), 120))


class StuckSocket:
    """A websocket whose client reads nothing: every send waits forever."""

    def __init__(self) -> None:
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


def test_an_outbox_holds_one_state_and_is_capped_in_bytes() -> None:
    """States replace one another in the outbox (and the one waiting is whole); other
    messages pile up only to OUTBOX_BYTES, then the connection is dropped with BEHIND."""

    async def run() -> None:
        conn = Conn(StuckSocket(), 0)
        conn.push('{"type":"pong"}')  # the send waits: from now on the outbox fills
        kicked: list[bool] = []
        conn.on_kick = lambda: kicked.append(True)
        for n in range(100):
            conn.version, conn.tricks = n, (1, None)  # what building a state records
            conn.push(STATE_PREFIX + f',"moves":{n}' + "}")
        waiting = [m for m in conn.outbox if not isinstance(m, str | tuple)]
        assert len(waiting) == 1 and conn.waiting is not None
        assert conn.waiting.text.endswith('"moves":99}')
        assert conn.waiting.known == (99, (1, None))
        assert (conn.version, conn.tricks) == (-1, None)  # the next state is built whole
        big = json.dumps({"type": "error", "message": "x" * 100_000})
        for _ in range(OUTBOX_BYTES // 100_050 - 1):
            conn.push(big)
        assert not conn.closed and not kicked
        for _ in range(3):
            conn.push(big)
        assert conn.closed and kicked and conn.size == 0
        assert [m for m in conn.outbox if isinstance(m, tuple)] == [
            (BEHIND, "too far behind; reconnect")
        ]
        conn.stop()

    asyncio.run(run())
