"""Rate limits (issue 15, item 7): a burst of new tables or joins from one address gets 429
with Retry-After; a family's table never meets a limit; after Retry-After seconds it passes.

Real server processes with lowered limits (``SALAD_RATE_LIMITS``), so that a test takes seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import websockets

from salad.errors import SaladError
from salad.server.ratelimit import DEFAULT_RATES, ENV, Rate, RateLimits, parse_rates

from .conftest import Server

LOW = "tables=4/4,joins=6/4,host=6/4,sockets=3/4"

HUMANS = [{"kind": "human"}] * 4


@pytest.fixture
def limited(monkeypatch: pytest.MonkeyPatch, start_server: Callable[..., Server]) -> Server:
    monkeypatch.setenv(ENV, LOW)
    return start_server()


def test_a_burst_of_tables_gets_429_then_passes_after_retry_after(limited: Server) -> None:
    answers = [limited.post("/api/tables", {"name": "Host"}) for _ in range(8)]
    codes = [r.status_code for r in answers]
    assert codes[:4] == [200] * 4
    assert 429 in codes[4:]
    refused = next(r for r in answers if r.status_code == 429)
    assert list(refused.json()) == ["error"]
    assert "too many new tables" in refused.json()["error"]
    assert "\n" not in refused.text
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 4
    quick = limited.post("/api/quickplay", {"name": "Solo"})
    assert quick.status_code == 429  # quick play takes from the same bucket
    time.sleep(int(quick.headers["Retry-After"]))
    assert limited.post("/api/tables", {"name": "Host"}).status_code == 200


def test_a_burst_of_joins_gets_429(limited: Server) -> None:
    codes = []
    for _ in range(3):
        table_id = limited.ok("POST", "/api/tables", {"name": "Host", "players": 4})["table_id"]
        for i in range(3):
            codes.append(limited.post(f"/api/tables/{table_id}/join", {"name": f"P{i}"}))
    assert [r.status_code for r in codes[:6]] == [200] * 6
    refused = [r for r in codes[6:] if r.status_code == 429]
    assert refused and "Retry-After" in refused[0].headers
    assert "too many joins" in refused[0].json()["error"]


def test_a_family_table_never_meets_a_limit(limited: Server) -> None:
    table_id, tokens = limited.table(HUMANS)  # create, 3 joins, start
    assert limited.post(f"/api/tables/{table_id}/start", token=tokens[0]).status_code == 409

    async def connect_all() -> list[dict[str, Any]]:
        firsts = []
        for token in tokens[:3]:
            url = f"{limited.ws_base}/ws/tables/{table_id}?token={token}"
            async with websockets.connect(url) as ws:
                firsts.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return firsts

    assert all(m["type"] != "error" for m in asyncio.run(connect_all()))


def test_a_burst_of_websockets_is_closed_4429(limited: Server) -> None:
    table_id, _ = limited.table(HUMANS, start=False)

    async def burst() -> list[tuple[dict[str, Any], int | None]]:
        out = []
        for _ in range(5):
            async with websockets.connect(f"{limited.ws_base}/ws/tables/{table_id}") as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if first["type"] == "error":
                    await asyncio.wait_for(ws.wait_closed(), 10)
                out.append((first, ws.close_code))
        return out

    answers = asyncio.run(burst())
    assert all(m["type"] != "error" for m, _ in answers[:3])
    refused = [(m, code) for m, code in answers[3:] if m["type"] == "error"]
    assert refused and refused[0][1] == 4429
    assert "too many websocket connections" in refused[0][0]["message"]


def test_host_actions_are_limited_per_token(limited: Server) -> None:
    created = limited.ok("POST", "/api/tables", {"name": "Host", "players": 4})
    path = f"/api/tables/{created['table_id']}/seats/1"
    codes = [
        limited.http.put(
            path, json={"kind": "bot"}, headers={"Authorization": f"Bearer {created['token']}"}
        ).status_code
        for _ in range(9)
    ]
    assert codes[:6] == [200] * 6 and 429 in codes[6:]


def test_the_limits_setting() -> None:
    assert parse_rates(None) == DEFAULT_RATES
    assert parse_rates("off") == {}
    assert parse_rates("tables=3/10")["tables"] == Rate(3, 10.0)
    assert parse_rates("tables=3/10")["joins"] == DEFAULT_RATES["joins"]
    for wrong in ("tables=3", "nope=1/1", "tables=0/5", "tables=a/b"):
        with pytest.raises(SaladError, match=ENV):
            parse_rates(wrong)


def test_a_family_never_meets_the_default_limits() -> None:
    now = [0.0]
    rates = RateLimits(clock=lambda: now[0])
    for _ in range(3):  # three tables in a row, and every seat joined, within a second
        assert rates.wait("tables", "home") == 0
        for _ in range(3):
            assert rates.wait("joins", "home") == 0
    now[0] += 60
    for _ in range(10):
        assert rates.wait("tables", "home") == 0
    assert rates.wait("tables", "home") > 0
    assert rates.wait("tables", "elsewhere") == 0
