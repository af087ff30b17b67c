"""Idle tables leave memory and come back on demand (a real server process, loopback only).

A lobby no one joins and a finished game used to stay in memory for the server's whole life;
with ``--unload-after`` they leave it once no one is connected and nothing is under way, and the
next request loads them back from the database as they were.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Server

ONE_HAND = 'preset = "canadian"\nhands = ["no-queens"]\n'
BOT = {"kind": "bot", "bot": "random"}

pytestmark = pytest.mark.one_worker  # the module's server starts once (tests/conftest.py)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module (each test waits until every table has left memory): tables
    leave after 0.3 s idle, and bots take 0.05 s a card, so that a game they play for an
    absent host lasts several sweeps."""
    tmp = tmp_path_factory.mktemp("unload")
    server = Server(
        f"sqlite:///{tmp / 'salad.db'}", tmp / "server.log", 0.05, ("--unload-after", "0.3")
    )
    yield server
    server.stop()


def in_memory(server: Any) -> int:
    health = server.ok("GET", "/healthz")
    assert health["status"] == "ok" and health["database"] == "ok"
    return int(health["tables_in_memory"])


def wait_for(check: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def finished_table(server: Any) -> str:
    """A one-hand game that bots finish for an absent host (takeover at once)."""
    body = {"name": "Host", "rules_toml": ONE_HAND, "seats": [{"kind": "human"}, BOT, BOT, BOT]}
    created = server.ok("POST", "/api/tables", {**body, "bot_takeover": 0})
    table_id = created["table_id"]
    server.ok("POST", f"/api/tables/{table_id}/start", token=created["token"])
    wait_for(lambda: server.ok("GET", f"/api/tables/{table_id}")["status"] == "over")
    return str(table_id)


def test_idle_tables_leave_memory_and_come_back_as_they_were(srv: Server) -> None:
    lobby = srv.ok("POST", "/api/tables", {"name": "Host", "players": 4})
    over = finished_table(srv)
    before = srv.ok("GET", f"/api/tables/{lobby['table_id']}")
    record = srv.ok("GET", f"/api/tables/{over}/record")

    wait_for(lambda: in_memory(srv) == 0)

    # Back on demand, as they were: the lobby, its host's token, the finished game's record.
    assert srv.ok("GET", f"/api/tables/{lobby['table_id']}") == before
    assert in_memory(srv) == 1
    assert srv.ok("GET", f"/api/tables/{over}/record") == record
    assert srv.ok("GET", f"/api/tables/{over}/games")[0]["status"] == "over"
    joined = srv.ok("POST", f"/api/tables/{lobby['table_id']}/join", {"name": "Guest"})
    assert joined["seat"] == 1
    srv.ok("PUT", f"/api/tables/{lobby['table_id']}/seats/2", {"kind": "bot"}, lobby["token"])
    assert srv.http.get("/api/tables/nosuchtable").status_code == 404


def test_a_connected_table_stays_and_a_bot_game_keeps_playing(srv: Server, ws: Any) -> None:
    created = srv.ok("POST", "/api/tables", {"name": "Host", "players": 4})
    table_id = created["table_id"]

    async def watch() -> None:
        sock = await ws(srv, table_id, created["token"])
        await asyncio.sleep(1.5)  # several sweeps
        assert in_memory(srv) >= 1
        await sock.ws.close()

    asyncio.run(watch())
    wait_for(lambda: in_memory(srv) == 0)

    # A game that bots play for an absent host is under way: it is never idle, and leaves
    # memory only once it is over.
    body = {"name": "H", "rules_toml": ONE_HAND, "seats": [{"kind": "human"}, BOT, BOT, BOT]}
    playing = srv.ok("POST", "/api/tables", {**body, "bot_takeover": 0})
    path = f"/api/tables/{playing['table_id']}"
    srv.ok("POST", f"{path}/start", token=playing["token"])
    polls = 0
    while srv.ok("GET", path)["status"] == "playing":
        assert in_memory(srv) == 1
        polls += 1
        time.sleep(0.4)  # longer than --unload-after
    assert polls >= 3  # 52 bot moves at 0.05 s each
    wait_for(lambda: in_memory(srv) == 0)


def test_a_websocket_to_an_unloaded_table_gets_its_state(srv: Server, ws: Any) -> None:
    over = finished_table(srv)
    wait_for(lambda: in_memory(srv) == 0)

    async def look() -> dict[str, Any]:
        sock = await ws(srv, over, None)
        state: dict[str, Any] = await sock.until(lambda m: True)
        await sock.ws.close()
        return state

    state = asyncio.run(look())
    assert state["you"] == -1 and state["table"]["status"] == "over"  # a spectator's
    assert state["view"]["phase"] == "over" and state["winners"]
