"""A table's clients reach the node holding it: the balancer routes by a hash of the table's
id, and a node that does not hold the table redirects to the one that does by its name
(`--node-name`: a 307 to `?node=NAME`, or a websocket closed 4307 with `node=NAME`); the
`salad-node` header names the holder; when that node dies, the name a client carries sends
it to whichever node has the table now (real processes: nodes on PostgreSQL and Redis,
HAProxy in front)."""

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

from salad.server.cluster.names import MAX_HOPS, REDIRECT
from salad.server.ratelimit import DEFAULT_RATES, ENV

from .cluster_clients import Following, ask, reach
from .conftest import connect
from .test_cluster import check_states, holder, start_via, table_on
from .test_play import play_randomly, watch

NODE = "salad-node"


def named(answer: Any) -> str | None:
    """The node an answer (HTTP, or a websocket's handshake) says holds the table."""
    headers = answer.headers if hasattr(answer, "headers") else answer.response.headers
    return headers.get(NODE)  # type: ignore[no-any-return]


def test_clients_that_name_the_node_reach_it_and_play(cluster: Any) -> None:
    nodes, proxy = cluster
    table_id, tokens = table_on(nodes, proxy, 4)
    # Whichever node is asked (redirected to the holder), or the balancer, the answer names
    # the holder.
    names = {named(ask(proxy, "GET", f"/api/tables/{table_id}", node=n)) for n in nodes}
    names |= {named(ask(proxy, "GET", f"/api/tables/{table_id}")) for _ in range(3)}
    assert len(names) == 1, names
    name = names.pop()
    assert name is not None
    assert [f"node{i}" for i in holder(nodes)] == [name]
    assert named(start_via(proxy, table_id, tokens[0])) == name

    async def play() -> list[Following]:
        # Unnamed: three websockets in a row go where the table's hash sends them, the same
        # node each time; each ends on the holder, whose handshake says its name.
        plain = [await reach(proxy, proxy, table_id, None) for _ in range(3)]
        for s in plain:
            await s.until(lambda m: m["view"] is None or m["moves"] >= 0)
        assert [named(s.ws) for s in plain] == [name] * 3
        assert len({len(s.redirects) for s in plain}) == 1
        for s in plain:
            await s.ws.close()
        # Named: every seat and a spectator reach the holder, and the game is the same.
        socks = [await reach(proxy, proxy, table_id, t, node=name) for t in tokens]
        spectator = await reach(proxy, proxy, table_id, None, node=name)
        assert [named(s.ws) for s in [*socks, spectator]] == [name] * 5
        rng = random.Random(3)
        await asyncio.gather(*(play_randomly(s, rng) for s in socks), watch(spectator))
        return [*socks, spectator]

    socks = asyncio.run(play())
    assert all(not s.redirects for s in socks)
    record = ask(proxy, "GET", f"/api/tables/{table_id}/record").json()
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
    table_id, tokens = table_on(nodes, proxy, 4)
    dead = named(start_via(proxy, table_id, tokens[0]))
    assert dead is not None
    nodes[int(dead.removeprefix("node"))].kill()

    async def reconnect() -> dict[str, Any]:
        # As the web client after a close: its seat's websocket, naming the node it knew.
        deadline = asyncio.get_running_loop().time() + 20
        while True:
            try:
                sock = await reach(proxy, proxy, table_id, tokens[1], node=dead)
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
    now = named(ask(proxy, "GET", f"/api/tables/{table_id}"))
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
    assert serve("--redis", "redis://127.0.0.1:1/0") == [
        "error: serve: --redis needs --node-name NAME, this node's server name in the load "
        "balancer: the other nodes send the requests for its tables there"
    ]
    assert serve("--node-name", "node 1", "--redis", "redis://127.0.0.1:1/0") == [
        "error: serve: --node-name 'node 1' is not a server name: use 1 to 64 letters, "
        "digits, '.', '_' or '-'"
    ]


def test_a_client_refused_again_and_again_after_a_redirect_is_closed(
    monkeypatch: pytest.MonkeyPatch, start_cluster: Any
) -> None:
    """A spectator that first reached a node that does not hold the table, redirected to the
    holder, floods it with bad messages: the holder's limit of refused messages closes it
    4429, and the game the seats play meanwhile ends."""
    rate = DEFAULT_RATES["refused"]
    monkeypatch.setenv(ENV, f"refused={rate.count}/{rate.seconds:g}")  # tests run without
    nodes, proxy = start_cluster(3)
    table_id, tokens = table_on(nodes, proxy, 4)
    start_via(proxy, table_id, tokens[0])
    (held,) = holder(nodes)
    other = nodes[(held + 1) % 3]

    async def run() -> None:
        flooder = await reach(other, proxy, table_id, None, name="flooder")
        await flooder.recv()
        assert flooder.redirects == [f"node{held}"]
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
    one redirected to the table's node, and one to a table that does not exist (which the node
    answers from a Redis look-up and a database read). Past the rate, the next is refused
    4429 before any of that."""
    monkeypatch.setenv(ENV, "sockets=4/60")  # tests run without limits
    nodes, proxy = start_cluster(2)
    table_id, _tokens = table_on(nodes, proxy, 3)  # held by node0: node1 redirects to it
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
    moved = "this table is played on node node0: reconnect there"
    assert answers[:2] == [(REDIRECT, {"type": "error", "message": moved})] * 2
    assert answers[2:4] == [(4404, {"type": "error", "message": "no table 'nosuchtab'"})] * 2
    code, refused = answers[4]
    assert code == 4429, answers[4]
    assert refused["message"].startswith("too many websocket connections from this address")


def test_a_node_that_does_not_hold_a_table_redirects_to_its_holder(cluster: Any) -> None:
    """Asked directly, a node that does not hold a table answers a 307 to the same path and
    query with the holder's name (`?node=`), the request's body kept by clients that follow;
    a websocket gets one `error` and the close 4307 with `node=NAME`. A request that names
    a node which no longer holds the table (a stale name) is sent on to the true holder, and
    one redirected too often gets a 503 with Retry-After, never a loop."""
    nodes, proxy = cluster
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}]
    table_id = nodes[0].ok("POST", "/api/tables", {"name": "Host", "seats": seats})["table_id"]
    path = f"/api/tables/{table_id}"  # held by node0, where it was made
    moved = nodes[1].http.get(f"{path}/record?game=1")
    assert moved.status_code == 307
    assert moved.headers["location"] == f"{path}/record?game=1&node=node0"
    assert moved.json() == {
        "error": "this table is played on node node0: reconnect there",
        "node": "node0",
    }
    # A join asked of node 2 through the balancer: redirected, its body sent again, seated.
    joined = ask(proxy, "POST", f"{path}/join", {"name": "Late"}, None, nodes[2])
    assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
    assert [r.status_code for r in joined.history] == [307]
    assert named(joined) == "node0"
    # A stale name: node 1 is asked by name and sends the request on, counting the hop.
    stale = nodes[1].http.get(f"{path}?node=node1")
    assert stale.headers["location"] == f"{path}?node=node0&hop=1"
    assert ask(proxy, "GET", path, node=nodes[1]).json()["table_id"] == table_id
    too_many = nodes[1].http.get(f"{path}?node=node1&hop={MAX_HOPS}")
    assert too_many.status_code == 503 and too_many.headers["retry-after"] == "1"
    assert "\n" not in too_many.json()["error"]

    async def websocket() -> None:
        async with websockets.connect(f"{nodes[2].ws_base}/ws/tables/{table_id}") as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            with contextlib.suppress(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
        assert first == {
            "type": "error",
            "message": "this table is played on node node0: reconnect there",
        }
        assert (ws.close_code, ws.close_reason) == (REDIRECT, "node=node0")
        # A client that follows it is seated on the holder at once.
        sock = await reach(nodes[2], proxy, table_id, joined.json()["token"])
        state = await sock.until(lambda m: m["you"] == 1)
        assert sock.redirects == ["node0"] and named(sock.ws) == "node0"
        assert state["table"]["seats"][1]["name"] == "Late"
        await sock.ws.close()

    asyncio.run(websocket())
