"""The lobby across nodes (issue 16): creating, joining, seat changes, the start, a rematch and
spectators, each request answered by another node, and every node (and every websocket, on
whichever node) telling the same table. Real processes: three nodes, PostgreSQL, Redis and
HAProxy; skipped where one is missing (`make test` has them)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from typing import Any

import websockets

from .cluster_clients import ask, ok, reach
from .conftest import Server
from .test_cluster import HUMAN, ONE_HAND, check_states
from .test_play import check_no_hidden_cards, play_randomly, watch

OPEN = {"kind": "open"}


def seats_everywhere(nodes: list[Server], proxy: Any, table_id: str) -> list[Any]:
    """The table's seats as each node answers them (through the balancer, naming it: those
    that do not hold the table redirect to it); they must agree."""
    answers = [ok(proxy, "GET", f"/api/tables/{table_id}", node=n) for n in nodes]
    seats = [[(s["kind"], s["name"], s["bot"]) for s in a["seats"]] for a in answers]
    assert all(s == seats[0] for s in seats), seats
    assert len({(a["status"], a["players"], a["game_number"]) for a in answers}) == 1, answers
    return seats[0]


def test_the_lobby_and_a_rematch_whichever_node_answers(cluster: Any) -> None:
    nodes, proxy = cluster
    body = {"name": "Host", "rules_toml": ONE_HAND, "seats": [HUMAN, OPEN, OPEN, OPEN, OPEN]}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host = created["table_id"], created["token"]

    async def lobby() -> tuple[str, Any]:
        # A spectator waits in the lobby on a node that has made no change to the table.
        lobby_watcher = await reach(nodes[2], proxy, table_id, None, name="watcher")
        guest = ok(proxy, "POST", f"/api/tables/{table_id}/join", {"name": "Guest"}, node=nodes[1])
        assert guest["seat"] == 1
        ok(
            proxy,
            "PUT",
            f"/api/tables/{table_id}/seats/2",
            {"kind": "bot"},
            token=host,
            node=nodes[2],
        )
        ok(proxy, "DELETE", f"/api/tables/{table_id}/seats/4", token=host, node=nodes[1])
        # A seat change by anyone but the host is refused, whichever node is asked.
        path = f"/api/tables/{table_id}/seats/3"
        r = ask(proxy, "PUT", path, {"kind": "bot"}, guest["token"], nodes[2])
        assert r.status_code == 403 and "\n" not in r.json()["error"], r.text
        third = ok(proxy, "POST", f"/api/tables/{table_id}/join", {"name": "Third"}, node=nodes[0])
        assert third["seat"] == 3
        full = ask(proxy, "POST", f"/api/tables/{table_id}/join", {"name": "Late"}, None, nodes[2])
        assert full.status_code == 409, full.text
        # The watcher on node 2 saw each change made elsewhere, in order, ending with the last.
        seen = await lobby_watcher.until(
            lambda m: (
                [s["name"] for s in (m.get("table") or {}).get("seats", [])][-1:] == ["Third"]
            ),
            timeout=10,
        )
        assert [s["kind"] for s in seen["table"]["seats"]] == ["human", "human", "bot", "human"]
        await lobby_watcher.ws.close()
        return guest["token"], third["token"]

    guest, third = asyncio.run(lobby())
    seats = seats_everywhere(nodes, proxy, table_id)
    assert [s[0] for s in seats] == ["human", "human", "bot", "human"]
    assert [s[1] for s in seats][:2] == ["Host", "Guest"] and seats[3][1] == "Third"
    ok(proxy, "POST", f"/api/tables/{table_id}/start", token=host, node=nodes[1])

    async def play(game: int, spectator: Any) -> list[Any]:
        socks = [
            await reach(nodes[0], proxy, table_id, host, name="host"),
            await reach(nodes[1], proxy, table_id, guest, name="guest"),
            await reach(nodes[2], proxy, table_id, third, name="third"),
        ]
        rng = random.Random(game)
        finals = await asyncio.gather(*(play_randomly(s, rng) for s in socks), watch(spectator))
        assert len({str(f["view"]["totals"]) for f in finals}) == 1
        assert finals[-1]["view"]["cards"] == []
        for sock in socks:
            await sock.ws.close()
        return [*socks, spectator]

    async def two_games() -> tuple[list[Any], list[Any], dict[str, Any]]:
        # One spectator stays through the end of the first game and the rematch, on a node
        # that neither holds the table nor takes the rematch.
        spectator = await reach(nodes[1], proxy, table_id, None, name="spectator")
        first = await play(1, spectator)
        # Only the host starts a rematch, whichever node is asked; the host's is taken on
        # node 2.
        r = ask(proxy, "POST", f"/api/tables/{table_id}/rematch", None, guest, nodes[0])
        assert r.status_code == 403 and "\n" not in r.json()["error"], r.text
        again = ok(proxy, "POST", f"/api/tables/{table_id}/rematch", token=host, node=nodes[2])
        assert again["status"] == "playing" and again["game_number"] == 2
        started = await spectator.until(lambda m: m["moves"] == 0 and m["view"] is not None)
        assert started["view"]["phase"] != "over"
        # From here on, what it gets is the second game's (checked below); before, the first's.
        del spectator.states[:-1], spectator.messages[:-1]
        second = await play(2, spectator)
        await spectator.ws.close()
        return first[:-1], second, started

    first, second, started = asyncio.run(two_games())
    record = ok(proxy, "GET", f"/api/tables/{table_id}/record?game=1", node=nodes[0])
    assert [p.get("bot") is not None for p in record["players"]] == [False, False, True, False]
    assert check_states(record, first, [0, 1, 3]) > 3 * 40
    assert check_no_hidden_cards(record, first) > 3 * 40
    assert seats_everywhere(nodes, proxy, table_id) == seats
    record2 = ask(proxy, "GET", f"/api/tables/{table_id}/record").json()
    assert record2["seed"] != record["seed"]
    assert check_states(record2, second, [0, 1, 3, -1]) > 4 * 40
    assert check_no_hidden_cards(record2, second) > 4 * 40
    games = ok(proxy, "GET", f"/api/tables/{table_id}/games", node=nodes[1])
    assert [g["game_number"] for g in games] == [1, 2]
    assert all(g["status"] == "over" for g in games)


def test_a_made_up_table_is_no_table_on_every_node(cluster: Any) -> None:
    """Asked of each node, directly and through the balancer: 404 over HTTP, and over a
    websocket the error and the close (4404) after which the web client stops trying."""
    nodes, proxy = cluster

    async def close_of(server: Server, table_id: str) -> tuple[int, str]:
        async with websockets.connect(f"{server.ws_base}/ws/tables/{table_id}") as ws:
            error = json.loads(await asyncio.wait_for(ws.recv(), 10))["message"]
            with contextlib.suppress(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 10)
            assert ws.close_code is not None
            return ws.close_code, error

    for server in [*nodes, proxy]:
        for made_up in ("nosuchtab", "Z" * 32):
            r = server.http.get(f"/api/tables/{made_up}")
            assert (r.status_code, r.json()) == (404, {"error": f"no table {made_up!r}"})
            assert "retry-after" not in r.headers
            said = asyncio.run(close_of(server, made_up))
            assert said == (4404, f"no table {made_up!r}")
