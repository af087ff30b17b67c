"""Players on a cluster (#34): every node knows a player made through any of them (they share
the database and the secret that signs the cookies), the cookie opens the player's seat through
a node that does not hold the table, a sign-in code made on one node is used on another, and a
player deleted through one node is forgotten by the tables the other nodes hold (a notice on
the cluster's Redis). Real processes: nodes on PostgreSQL and Redis, HAProxy in front."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from salad.server.cluster.names import REDIRECT, redirect_target
from salad.server.players.identity import COOKIE

from .cluster_clients import NODE
from .conftest import BALANCED


def browser(proxy: Any) -> httpx.Client:
    """A browser of its own (its own cookies) that reaches the cluster through the balancer."""
    return httpx.Client(base_url=proxy.base, timeout=30, limits=BALANCED)


async def seat_by_cookie(proxy: Any, table_id: str, cookie: str, node: str) -> Any:
    """The ``you`` of the first state of the table's websocket opened with only the cookie,
    through ``node``, following the redirect to the holder as the clients do."""
    headers = {"Cookie": f"{COOKIE}={cookie}"}
    for _ in range(3):
        url = f"{proxy.ws_base}/ws/tables/{table_id}?node={node}"
        async with websockets.connect(url, additional_headers=headers) as ws:
            try:
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if m["type"] == "state":
                        return m["you"]
            except websockets.ConnectionClosed as exc:
                assert exc.rcvd is not None and exc.rcvd.code == REDIRECT, exc
                followed = redirect_target(exc.rcvd.reason)
                assert followed is not None
                node = followed
    raise AssertionError("more than 3 redirects")


def test_a_cluster_shares_its_players(cluster: Any) -> None:
    nodes, proxy = cluster
    at = {f"node{i}": node.base for i, node in enumerate(nodes)}
    with browser(proxy) as phone, browser(proxy) as laptop:
        # Made through the balancer; known on each node, asked directly (the balancer sends a
        # request that is not a table's to any node), and through the balancer.
        me = phone.get("/api/me").json()
        cookie = phone.cookies[COOKIE]
        for base in [*at.values(), proxy.base]:
            assert phone.get(f"{base}/api/me").json()["id"] == me["id"], base
        # A table made on node0 is held there; its seat 0 is this player's.
        made = phone.post(f"{at['node0']}/api/tables", json={"name": "Ann"})
        assert made.status_code == 200, made.text
        table_id, held = made.json()["table_id"], made.headers[NODE]
        other = next(n for n in at if n != held)
        # The cookie alone opens the seat through the balancer naming a node that does not
        # hold the table (redirected to the one that does).
        assert asyncio.run(seat_by_cookie(proxy, table_id, cookie, other)) == 0
        # A sign-in code made on one node is used on the other.
        code = phone.post(f"{at[held]}/api/me/links").json()["code"]
        used = laptop.post(f"{at[other]}/api/signin", json={"code": code})
        assert used.status_code == 200 and used.json()["id"] == me["id"], used.text
        assert laptop.get(f"{at[held]}/api/me").json()["id"] == me["id"]
        # Deleted through a node that does not hold the table: the holder's seat forgets the
        # player (the old cookie opens it no more: a spectator, -1).
        assert phone.delete(f"{at[other]}/api/me").status_code == 204
        deadline = time.monotonic() + 10
        while (you := asyncio.run(seat_by_cookie(proxy, table_id, cookie, other))) != -1:
            assert time.monotonic() < deadline, f"the holder still seats the deleted player: {you}"
            time.sleep(0.2)
        # Nor does the store name them on the table's seats.
        seats = phone.get(f"/api/tables/{table_id}?node={other}", follow_redirects=True).json()
        assert me["id"] not in json.dumps(seats)
