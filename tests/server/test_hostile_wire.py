"""The websocket against a hostile (or careless) client, on a real server process: seat tokens
never reach the log, a deeply nested message is one ``error``, and a client that never reads
is dropped before it costs the server its memory."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import websockets

from salad.server.logmask import mask

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

    asyncio.run(run())
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

    asyncio.run(run())
