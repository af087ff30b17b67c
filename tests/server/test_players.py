"""Players the site remembers (#34): the identity made on a first visit (a signed cookie),
its name, colour and language, the seats it takes, and the refusals of what is not its own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from itsdangerous import URLSafeSerializer

from salad.server.players.identity import COOKIE, SALT
from salad.server.store import SqlStore

from .conftest import Server


def browser(server: Server) -> httpx.Client:
    """A client that keeps its cookies, as a browser does."""
    return httpx.Client(base_url=server.base, timeout=30)


def test_a_first_visit_makes_a_player_and_the_cookie_keeps_it(server: Server) -> None:
    with browser(server) as b:
        r = b.get("/api/me")
        assert r.status_code == 200, r.text
        me = r.json()
        assert me["name"] is None and me["language"] in ("en", "fr")
        assert me["colour"].startswith("#") and len(me["colour"]) == 7
        cookie = r.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert b.get("/api/me").json()["id"] == me["id"]  # the same player, every visit
    with browser(server) as other:  # another browser: another player
        assert other.get("/api/me").json()["id"] != me["id"]


def test_french_browsers_get_french(server: Server) -> None:
    with browser(server) as b:
        me = b.get("/api/me", headers={"Accept-Language": "fr-CA,fr;q=0.9"}).json()
        assert me["language"] == "fr"


def test_a_player_renames_and_names_are_one_players(server: Server) -> None:
    with browser(server) as a, browser(server) as b:
        a.get("/api/me")
        b.get("/api/me")
        r = a.patch("/api/me", json={"name": "  Zoé   Tremblay ", "colour": "#123abc"})
        assert r.status_code == 200, r.text
        assert r.json()["name"] == "Zoé Tremblay" and r.json()["colour"] == "#123abc"
        assert a.get("/api/me").json()["name"] == "Zoé Tremblay"
        taken = b.patch("/api/me", json={"name": "zoé tremblay"})
        assert taken.status_code == 409
        assert taken.json() == {"error": "name: the name 'zoé tremblay' is another player's"}
        for body, where in (
            ({"colour": "red"}, "colour"),
            ({"language": "de"}, "language"),
            ({"name": ""}, "name"),
            ({"name": "x" * 200}, "name"),
        ):
            r = b.patch("/api/me", json=body)
            assert r.status_code == 400 and r.json()["error"].startswith(where), (body, r.text)
        a.patch("/api/me", json={"name": None})  # the name given up: free for another
        assert b.patch("/api/me", json={"name": "Zoé Tremblay"}).status_code == 200


def test_a_forged_or_foreign_cookie_is_no_one(server: Server) -> None:
    with browser(server) as a:
        victim = a.get("/api/me").json()["id"]
    forged = URLSafeSerializer("not the server's secret", salt=SALT).dumps(victim)
    for cookie in (forged, victim, forged[:-2] + "xx"):
        with httpx.Client(base_url=server.base, cookies={COOKIE: cookie}) as c:
            r = c.patch("/api/me", json={"name": "Mallory"})
            assert r.status_code == 401 and "no player" in r.json()["error"], r.text
            assert c.get("/api/me").json()["id"] != victim  # a new player, not the victim


def test_a_cross_site_change_is_refused_and_changes_nothing(server: Server) -> None:
    with browser(server) as a:
        a.get("/api/me")
        a.patch("/api/me", json={"name": "Gisèle"})
        for header in ({"Origin": "https://evil.example"}, {"Referer": "https://evil.example/x"}):
            r = a.patch("/api/me", json={"name": "Pwned"}, headers=header)
            assert r.status_code == 403 and "another site" in r.json()["error"]
        ok = a.patch("/api/me", json={"language": "fr"}, headers={"Origin": server.base})
        assert ok.status_code == 200
        assert a.get("/api/me").json()["name"] == "Gisèle"


def seats_of(database: str, table_id: str) -> list[Any]:
    async def load() -> list[Any]:
        store = SqlStore(database)
        try:
            row = await store.load_table(table_id)
            assert row is not None
            return row.seats
        finally:
            await store.close()

    return asyncio.run(load())


def test_the_seats_taken_remember_their_players_across_a_restart(
    start_server: Callable[..., Server],
) -> None:
    srv = start_server()
    with browser(srv) as host, browser(srv) as guest, browser(srv) as anonymous:
        host_id = host.get("/api/me").json()["id"]
        guest_id = guest.get("/api/me").json()["id"]
        body = {"name": "Host", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "open"}]}
        created = host.post("/api/tables", json=body).json()
        table_id = created["table_id"]
        guest.post(f"/api/tables/{table_id}/join", json={"name": "Guest"}).raise_for_status()
        anonymous.post(f"/api/tables/{table_id}/join", json={"name": "Anon"}).raise_for_status()
        cookie = host.cookies[COOKIE]
    seats = seats_of(srv.database, table_id)
    assert [s.player for s in seats] == [host_id, guest_id, None]
    srv.stop()
    again = start_server(srv.database)
    with httpx.Client(base_url=again.base, cookies={COOKIE: cookie}) as host:
        assert host.get("/api/me").json()["id"] == host_id  # the same identity after a restart


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_the_player_stores_keep_names_unique(store: str, tmp_path: Any) -> None:
    from salad.server.store.players import MemoryPlayers, NameTaken, PlayerRow, SqlPlayers

    async def run() -> None:
        sql = SqlStore(f"sqlite:///{tmp_path / 'p.db'}") if store == "sqlite" else None
        players = SqlPlayers(sql) if sql is not None else MemoryPlayers()
        if sql is not None:
            await sql.open()
        try:
            await players.create_player(PlayerRow("a", "Ann", "#000000", "en"))
            await players.create_player(PlayerRow("b", None, "#000000", "fr"))
            with pytest.raises(NameTaken):
                await players.create_player(PlayerRow("c", "ANN", "#000000", "en"))
            with pytest.raises(NameTaken):
                await players.update_player("b", name="ann", colour="#111111", language="fr")
            await players.update_player("b", name="Bea", colour="#111111", language="fr")
            found = await players.player_named("bea")
            assert found is not None and found.id == "b" and found.colour == "#111111"
            assert await players.player("zz") is None
        finally:
            if sql is not None:
                await sql.close()

    asyncio.run(run())
