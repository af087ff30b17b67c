"""A hostile host against a real server: no chosen seed deals a guest's cards, and no seat given
to a bot still moves for the human who had it."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from salad.server.app import create_app
from salad.server.messages import LobbyOut
from salad.server.tables import Table

with warnings.catch_warnings():  # starlette's note on which httpx it would like
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from .test_play import play_randomly

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}


async def first_hand(server: Any, ws: Any, table_id: str, token: str | None) -> list[str]:
    """The cards the host holds at the start (before the host has moved)."""
    sock = await ws(server, table_id, token)
    try:
        state = await sock.until(lambda m: m["view"] is not None)
        return sorted(state["view"]["cards"])
    finally:
        await sock.ws.close()


def test_a_chosen_seed_never_deals_a_guests_cards(server: Any, ws: Any) -> None:
    async def run() -> None:
        hands = []
        for _ in range(2):
            tid, tokens = server.table([HUMAN, HUMAN, RANDOM], seed=7)
            hands.append(await first_hand(server, ws, tid, tokens[0]))
        assert hands[0] != hands[1], "the host's seed dealt the same cards at a table with a guest"

    asyncio.run(run())


def test_a_solo_table_keeps_its_seed_as_practice(server: Any, ws: Any) -> None:
    async def run() -> None:
        hands = []
        for _ in range(2):
            tid, tokens = server.table([HUMAN, RANDOM, RANDOM], seed=7)
            hands.append(await first_hand(server, ws, tid, tokens[0]))
        assert hands[0] == hands[1]
        sock = await ws(server, tid, tokens[0])
        await play_randomly(sock, random.Random(1))
        await sock.ws.close()
        record = server.ok("GET", f"/api/tables/{tid}/record")
        assert record["seed"] == "7" and record["players"][0].get("practice") is True
        assert all("practice" not in p for p in record["players"][1:])

    asyncio.run(run())


def test_a_seat_opened_later_loses_the_practice_seed(server: Any, ws: Any) -> None:
    async def run() -> None:
        hands = []
        for _ in range(2):
            tid, tokens = server.table([HUMAN, RANDOM, RANDOM], start=False, seed=9)
            server.ok("PUT", f"/api/tables/{tid}/seats/2", {"kind": "open"}, token=tokens[0])
            server.ok("POST", f"/api/tables/{tid}/join", {"name": "Guest"})
            server.ok("POST", f"/api/tables/{tid}/start", token=tokens[0])
            hands.append(await first_hand(server, ws, tid, tokens[0]))
        assert hands[0] != hands[1]

    asyncio.run(run())


def stored_move(server: Any, table_id: str, seq: int) -> tuple[int, str] | None:
    """(seat, by) of the first game's move ``seq`` in the server's SQLite file."""
    path = server.database.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        row = db.execute(
            "SELECT seat, by FROM salad_moves WHERE table_id = ? AND game_number = 1 AND seq = ?",
            (table_id, seq),
        ).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


async def seat_race(server: Any, ws: Any, delay: float) -> bool:
    """Seat 1 is to move; the host gives it to a bot and the guest moves ``delay`` s later.
    True if the guest's move was stored as the human's after the seat had changed (the guest
    saw no state holding its move before it was told the seat was gone)."""
    tid, tokens = server.table([HUMAN, HUMAN, RANDOM], bot_takeover=0)
    guest = await ws(server, tid, tokens[1])
    try:
        state = await guest.until(
            lambda m: (
                m["view"] is not None
                and m["view"]["to_move"] == m["you"]
                and bool(m["view"]["legal"])
            )
        )
        before = state["moves"]
        async with httpx.AsyncClient(base_url=server.base, timeout=30) as client:
            put = asyncio.ensure_future(
                client.put(
                    f"/api/tables/{tid}/seats/1",
                    json={"kind": "bot"},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
            )
            await asyncio.sleep(delay)
            # Already told the seat is gone: no race this time.
            with contextlib.suppress(websockets.ConnectionClosed):
                await guest.send({"type": "play", "move": state["view"]["legal"][0]})
            assert (await put).status_code == 200
        saw_own = False
        try:
            while True:
                m = await guest.recv(10)
                if m["type"] == "state" and m["moves"] > before:
                    saw_own = True
        except websockets.ConnectionClosed:
            pass
    finally:
        await guest.ws.close()
    for _ in range(100):  # the bot now in seat 1 moves at once
        stored = stored_move(server, tid, before + 1)
        if stored is not None:
            break
        await asyncio.sleep(0.05)
    assert stored is not None and stored[0] == 1
    return stored[1] == "human" and not saw_own


def test_a_seat_given_to_a_bot_takes_no_more_moves_from_its_human(server: Any, ws: Any) -> None:
    async def run() -> int:
        rng = random.Random(5)
        return sum([await seat_race(server, ws, rng.uniform(0, 0.015)) for _ in range(30)])

    assert asyncio.run(run()) == 0


def test_the_lobby_is_built_once_per_table_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds = 0
    build = Table.lobby

    def counted(table: Table) -> dict[str, Any]:
        nonlocal builds
        builds += 1
        return build(table)

    monkeypatch.setattr(Table, "lobby", counted)
    with TestClient(create_app(str(tmp_path / "t.db"))) as client:
        body = {"name": "Host", "rules": "extended", "players": 10}
        table_id = client.post("/api/tables", json=body).json()["table_id"]
        builds = 0
        answers = [client.get(f"/api/tables/{table_id}") for _ in range(20)]
        assert builds == 1
        assert all(a.status_code == 200 and a.json() == answers[0].json() for a in answers)
        lobby = answers[0].json()
        assert LobbyOut.model_validate(lobby).model_dump() == lobby  # as documented
        client.post(f"/api/tables/{table_id}/join", json={"name": "Guest"})
        for _ in range(5):
            lobby = client.get(f"/api/tables/{table_id}").json()
        assert builds == 2 and lobby["seats"][1]["name"] == "Guest"
