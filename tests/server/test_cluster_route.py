"""A table's clients reach the node holding it (`--node-name`, the `salad-node` header, and
`?node=` in the websocket's URL for the balancer), instead of being relayed by another node;
and when that node dies, the name they carry costs nothing but a relay (real processes:
nodes on PostgreSQL and Redis, HAProxy in front)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
from typing import Any

import httpx
import pytest
import websockets

from salad.server.ratelimit import DEFAULT_RATES, ENV

from .conftest import Socket, connect
from .test_cluster import check_states, holder, start_via, table_on
from .test_play import play_randomly, watch

NODE = "salad-node"


def named(answer: Any) -> str | None:
    """The node an answer (HTTP, or a websocket's handshake) says holds the table."""
    headers = answer.headers if hasattr(answer, "headers") else answer.response.headers
    return headers.get(NODE)  # type: ignore[no-any-return]


def test_clients_that_name_the_node_reach_it_and_play(start_cluster: Any) -> None:
    nodes, proxy = start_cluster(3)
    table_id, tokens = table_on(nodes, 4)
    # Whichever node answers, directly or through the balancer, the answer names the holder.
    names = {named(n.http.get(f"/api/tables/{table_id}")) for n in nodes}
    names |= {named(proxy.http.get(f"/api/tables/{table_id}")) for _ in range(3)}
    assert len(names) == 1, names
    name = names.pop()
    assert name is not None
    assert [f"node{i}" for i in holder(nodes)] == [name]
    assert named(start_via(proxy, table_id, tokens[0])) == name

    async def play() -> list[Socket]:
        # Round robin, unnamed: three websockets in a row reach the three nodes; the holder's
        # handshake says its name, the two relayed ones say none.
        plain = [await connect(proxy, table_id, None) for _ in range(3)]
        assert sorted(str(named(s.ws)) for s in plain) == sorted([name, "None", "None"])
        for s in plain:
            await s.ws.close()
        # Named: every seat and a spectator reach the holder, and the game is the same.
        socks = [await connect(proxy, table_id, t, node=name) for t in tokens]
        spectator = await connect(proxy, table_id, None, node=name)
        assert [named(s.ws) for s in [*socks, spectator]] == [name] * 5
        rng = random.Random(3)
        await asyncio.gather(*(play_randomly(s, rng) for s in socks), watch(spectator))
        return [*socks, spectator]

    socks = asyncio.run(play())
    record = proxy.http.get(f"/api/tables/{table_id}/record").json()
    assert check_states(record, socks, [0, 1, 2, 3, -1]) > 5 * 52
    # A new table is held where it is made, and the answer that makes it says so; a refusal
    # names no node.
    for i, node in enumerate(nodes):
        made = node.http.post("/api/tables", json={"name": "Host"})
        quick = node.http.post("/api/quickplay", json={"name": "Solo", "players": 3})
        assert named(made) == named(quick) == f"node{i}", (made.headers, quick.headers)
    assert named(nodes[1].http.post("/api/tables", json={"players": 99})) is None


def test_a_name_whose_node_died_still_reaches_the_table(start_cluster: Any) -> None:
    nodes, proxy = start_cluster(3)
    table_id, tokens = table_on(nodes, 4)
    dead = named(start_via(proxy, table_id, tokens[0]))
    assert dead is not None
    nodes[int(dead.removeprefix("node"))].kill()

    async def reconnect() -> dict[str, Any]:
        # As the web client after a close: its seat's websocket, naming the node it knew.
        deadline = asyncio.get_running_loop().time() + 20
        while True:
            try:
                sock = await connect(proxy, table_id, tokens[1], node=dead)
                while True:
                    m = await sock.recv(10)
                    if m["type"] == "state" and m["view"] is not None:
                        return m
            except Exception:
                assert asyncio.get_running_loop().time() < deadline, "no state in 20 s"
                await asyncio.sleep(0.2)

    state = asyncio.run(reconnect())
    assert state["you"] == 1 and state["view"]["phase"] != "over"
    # The table's answers now name the node that took it over, the one that has it.
    now = named(proxy.http.get(f"/api/tables/{table_id}"))
    alive = {f"node{i}": n for i, n in enumerate(nodes) if f"node{i}" != dead}
    having = [k for k, n in alive.items() if n.ok("GET", "/healthz")["tables_in_memory"]]
    assert now is not None and now != dead
    assert having == [now]


def test_a_node_name_needs_a_cluster_and_a_plain_name() -> None:
    def serve(*args: str) -> list[str]:
        cmd = [sys.executable, "-m", "salad.cli", "serve", *args]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1
        return done.stderr.splitlines()

    assert serve("--node-name", "node1") == [
        "error: serve: --node-name names a node of a cluster: it needs --redis"
    ]
    assert serve("--node-name", "node 1", "--redis", "redis://127.0.0.1:1/0") == [
        "error: serve: --node-name 'node 1' is not a server name: use 1 to 64 letters, "
        "digits, '.', '_' or '-'"
    ]


def test_a_client_refused_again_and_again_through_a_relay_is_closed(
    monkeypatch: pytest.MonkeyPatch, start_cluster: Any
) -> None:
    """A spectator on a node that does not hold the table floods it with bad messages (each
    one a round trip to the holder and back): the holder's limit of refused messages closes
    it 4429, the relay passes the close on, and the game the seats play meanwhile ends."""
    rate = DEFAULT_RATES["refused"]
    monkeypatch.setenv(ENV, f"refused={rate.count}/{rate.seconds:g}")  # tests run without
    nodes, proxy = start_cluster(3)
    table_id, tokens = table_on(nodes, 4)
    start_via(proxy, table_id, tokens[0])
    (held,) = holder(nodes)
    other = nodes[(held + 1) % 3]

    async def run() -> None:
        flooder = await connect(other, table_id, None, name="flooder")
        await flooder.recv()
        seats = [await connect(nodes[held], table_id, t) for t in tokens]
        rng = random.Random(4)
        game = asyncio.gather(*(play_randomly(s, rng) for s in seats))
        errors: list[str] = []

        async def read() -> None:  # read as it comes: an unread queue stops the client reading
            with contextlib.suppress(websockets.ConnectionClosed):
                while True:
                    m = await flooder.recv(10)
                    if m["type"] == "error":
                        errors.append(m["message"])

        reader = asyncio.create_task(read())
        sent = 0
        with contextlib.suppress(websockets.ConnectionClosed):
            for sent in range(1, 20 * rate.count):  # noqa: B007  (read after the loop)
                await flooder.send({"type": "play", "move": "nothing"})
                await asyncio.sleep(0.001)
        await reader
        assert flooder.ws.close_code == 4429, flooder.ws.close_code
        assert errors[-1].startswith("too many refused messages"), errors[-3:]
        assert sent < 20 * rate.count - 1, "the flood was never closed"
        await game
        for s in seats:
            await s.ws.close()

    asyncio.run(asyncio.wait_for(run(), 90))


def test_a_client_meets_one_limit_through_every_node(
    monkeypatch: pytest.MonkeyPatch, start_cluster: Any
) -> None:
    """New tables from one address, asked of each node in turn: the limit counts them all
    (in Redis), not each node's own, and its 429 says so whichever node answers."""
    monkeypatch.setenv(ENV, "tables=4/60")  # tests run without limits
    nodes, proxy = start_cluster(3)
    codes = [nodes[i % 3].post("/api/tables", {"name": "Host"}).status_code for i in range(4)]
    assert codes == [200] * 4
    answers = [srv.post("/api/tables", {"name": "Host"}) for srv in nodes]
    with httpx.Client(base_url=proxy.base) as balanced:
        answers.append(balanced.post("/api/tables", json={"name": "Host"}))
    for refused in answers:
        assert refused.status_code == 429, refused.text
        said = "too many new tables from this address (at most 4 per 60 s): retry in "
        assert refused.json()["error"].startswith(said)
        assert 1 <= int(refused.headers["Retry-After"]) <= 15


def test_a_websocket_is_counted_once_where_it_connects(
    monkeypatch: pytest.MonkeyPatch, start_cluster: Any
) -> None:
    """The rate of new websockets from one address counts each once, on the node it reached:
    one relayed to the table's node, and one to a table that does not exist (which the node
    answers from a Redis look-up and a database read). Past the rate, the next is refused
    4429 before any of that."""
    monkeypatch.setenv(ENV, "sockets=4/60")  # tests run without limits
    nodes, _ = start_cluster(2)
    table_id, _tokens = table_on(nodes, 3)  # held by node0: node1 relays it
    assert holder(nodes) == [0]

    async def close_of(url: str) -> tuple[int | None, dict[str, Any]]:
        async with websockets.connect(url) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if first["type"] == "error":
                await asyncio.wait_for(ws.wait_closed(), 10)
        return ws.close_code, first

    async def run() -> list[tuple[int | None, dict[str, Any]]]:
        base = nodes[1].ws_base
        answers = [await close_of(f"{base}/ws/tables/{table_id}") for _ in range(2)]
        answers += [await close_of(f"{base}/ws/tables/nosuchtab") for _ in range(3)]
        return answers

    answers = asyncio.run(run())
    assert [first["type"] for _, first in answers[:2]] == ["state", "state"]  # relayed
    assert answers[2:4] == [(4404, {"type": "error", "message": "no table 'nosuchtab'"})] * 2
    code, refused = answers[4]
    assert code == 4429, answers[4]
    assert refused["message"].startswith("too many websocket connections from this address")
