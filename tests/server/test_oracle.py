"""The oracle (it sees every hand) is refused at every table of a real server, and never
offered: every table has a human, its host."""

from __future__ import annotations

from typing import Any

ORACLE = {"kind": "bot", "bot": "oracle"}


def refused(r: Any) -> str:
    assert r.status_code == 400, f"{r.status_code} {r.text}"
    message = r.json()["error"]
    assert isinstance(message, str) and "\n" not in message
    assert "oracle" in message and "every hand" in message
    return str(message)


def test_the_oracle_is_never_offered(server: Any) -> None:
    bots = server.ok("GET", "/api/options")["bots"]
    assert "expert" in bots and "oracle" not in bots


def test_the_oracle_is_refused_at_tables_with_a_human(server: Any) -> None:
    refused(server.post("/api/quickplay", {"name": "Ann", "bot": "oracle"}))
    refused(server.post("/api/quickplay", {"name": "Ann", "bot": " Oracle "}))
    seats = [{"kind": "human"}, ORACLE, {"kind": "bot", "bot": "basic"}, {"kind": "open"}]
    refused(server.post("/api/tables", {"name": "Ann", "seats": seats}))
    created = server.ok("POST", "/api/tables", {"name": "Ann"})
    tid, host = created["table_id"], created["token"]
    r = server.http.put(
        f"/api/tables/{tid}/seats/1", json=ORACLE, headers={"Authorization": f"Bearer {host}"}
    )
    refused(r)
    lobby = server.ok("GET", f"/api/tables/{tid}")
    assert all(s.get("bot") != "oracle" for s in lobby["seats"])
