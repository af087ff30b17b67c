"""A hostile host against a real server: no chosen seed deals a guest's cards, and no seat given
to a bot still moves for the human who had it."""

from __future__ import annotations

import asyncio
import random
from typing import Any

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
        assert record["seed"] == 7 and record["players"][0].get("practice") is True
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
