"""A player's identity, all of it (#34): sign-in codes open it on another browser (once, until
they expire, unless revoked), the tables it sits at (rejoined by the cookie alone, never from
another site), the export of everything held about it, and its deletion."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets

from salad.server.players.codes import code_hash, new_code, normal
from salad.server.players.identity import COOKIE
from salad.server.store import SqlStore
from salad.server.store.players import SqlPlayers
from salad.server.store.signins import MemorySignins, SigninRow, SqlSignins

from .conftest import Server
from .test_players import seats_of

BOTS = [{"kind": "human"}, *[{"kind": "bot", "bot": "random"}] * 3]


def browser(server: Server) -> httpx.Client:
    """A client that keeps its cookies, as a browser does (its requests from the site itself)."""
    return httpx.Client(base_url=server.base, timeout=30, headers={"Origin": server.base})


def test_a_code_opens_the_identity_on_another_browser_once(server: Server) -> None:
    with browser(server) as phone, browser(server) as laptop, browser(server) as third:
        me = phone.get("/api/me").json()
        phone.patch("/api/me", json={"name": "Odile"}).raise_for_status()
        made = phone.post("/api/me/links")
        assert made.status_code == 201, made.text
        link = made.json()
        assert link["url"] == f"/signin/{link['code']}" and link["state"] == "open"
        assert 14 * 60 < link["expires_at"] - time.time() <= 15 * 60
        laptop.get("/api/me")  # a player of its own first
        typed = link["code"].lower().replace("-", " ")  # as a person might type it
        signed = laptop.post("/api/signin", json={"code": typed})
        assert signed.status_code == 200, signed.text
        assert signed.json()["id"] == me["id"] and signed.json()["name"] == "Odile"
        assert laptop.get("/api/me").json()["id"] == me["id"]  # the cookie names it now
        again = third.post("/api/signin", json={"code": link["code"]})
        assert again.status_code == 400 and "used already" in again.json()["error"]
        assert third.get("/api/me").json()["id"] != me["id"]
        listed = phone.get("/api/me/links").json()
        assert [(x["id"], x["state"]) for x in listed] == [(link["id"], "used")]
        assert "code" not in listed[0]

        revoked = phone.post("/api/me/links").json()
        assert phone.delete(f"/api/me/links/{revoked['id']}").status_code == 204
        r = third.post("/api/signin", json={"code": revoked["code"]})
        assert r.status_code == 400 and "revoked" in r.json()["error"]
        again_revoked = phone.delete(f"/api/me/links/{revoked['id']}")
        assert again_revoked.status_code == 404 and "no open sign-in code" in again_revoked.text
        for code, words in (("ZZZZ-ZZZZ", "not known"), ("nope", "8 letters and digits")):
            r = third.post("/api/signin", json={"code": code})
            assert r.status_code == 400 and words in r.json()["error"], r.text
        assert third.get("/api/me").json()["id"] != me["id"]  # nothing changed


def test_cross_site_requests_change_nothing(server: Server) -> None:
    with browser(server) as a:
        a.get("/api/me")
        code = a.post("/api/me/links").json()["code"]
        evil = {"Origin": "https://evil.example"}
        for method, path, body in (
            ("POST", "/api/me/links", None),
            ("DELETE", "/api/me", None),
            ("POST", "/api/signin", {"code": code}),
        ):
            r = a.request(method, path, json=body, headers=evil)
            assert r.status_code == 403 and "another site" in r.json()["error"], (path, r.text)
        assert len(a.get("/api/me/links").json()) == 1  # no code made, the one made unused
        assert a.get("/api/me").status_code == 200
        assert a.get("/api/me/links").json()[0]["state"] == "open"


def wait_over(server: Server, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while server.ok("GET", f"/api/tables/{table_id}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.2)


def stored(database: str, table_id: str, player_id: str) -> tuple[Any, Any]:
    async def load() -> tuple[Any, Any]:
        store = SqlStore(database)
        try:
            return await store.games(table_id), await SqlPlayers(store).player(player_id)
        finally:
            await store.close()

    return asyncio.run(load())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_export_and_delete_leave_finished_games_whole(
    backend: str, request: pytest.FixtureRequest
) -> None:
    if backend == "postgresql":  # a server of its own (skipped without PostgreSQL)
        server = request.getfixturevalue("start_server")(request.getfixturevalue("pg_url"))
    else:
        server = request.getfixturevalue("server")
    with browser(server) as b:
        me = b.get("/api/me").json()
        b.patch("/api/me", json={"name": "Maëlle"}).raise_for_status()
        body = {"name": "Maëlle", "seats": BOTS, "bot_takeover": 0}
        made = b.post("/api/tables", json=body).json()
        table_id = made["table_id"]
        start = b.post(
            f"/api/tables/{table_id}/start", headers={"Authorization": "Bearer " + made["token"]}
        )
        start.raise_for_status()
        wait_over(server, table_id)
        b.post("/api/me/links").raise_for_status()
        r = b.get("/api/me/export")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        held = r.json()
        assert held["player"]["id"] == me["id"] and held["player"]["name"] == "Maëlle"
        assert [x["state"] for x in held["links"]] == ["open"]
        assert {"table_id": table_id, "seat": 0, "name": "Maëlle"}.items() <= held["tables"][
            "seats"
        ][0].items()
        (game,) = held["tables"]["games"]
        assert game["table_id"] == table_id and game["seat"] == 0 and game["status"] == "over"
        assert game["names"][0] == "Maëlle" and len(game["totals"]) == 4 and game["winners"]
        assert b.get("/api/me/tables").json() == []  # over: nothing to rejoin
        review = f"/api/tables/{table_id}/games/1/review?seat=0"
        assert b.get(review).json()["status"] == "none"  # the player's own seat, by the cookie
        refused = b.get(review, headers={"Origin": "https://evil.example"})
        assert refused.status_code == 401

        open_seat = [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
        lobby = b.post("/api/tables", json={"name": "Maëlle", "seats": open_seat}).json()
        gone = b.delete("/api/me")
        assert gone.status_code == 204 and f"{COOKIE}=" in gone.headers["set-cookie"]
        assert COOKIE not in b.cookies
        games, row = stored(server.database, table_id, me["id"])
        assert games[0].players[0] == {"name": "Maëlle", "player": me["id"]}  # whole
        assert games[0].totals == game["totals"]
        assert row is not None and row.deleted_at is not None and row.name is None
        assert b.get("/api/me").json()["id"] != me["id"]  # a new player, not the deleted one
        # The seats forget the player, in memory too: a join stores the seats again.
        b.post(f"/api/tables/{lobby['table_id']}/join", json={"name": "Guest"}).raise_for_status()
        assert [s.player for s in seats_of(server.database, lobby["table_id"])][0] is None
    with browser(server) as c:  # the name is free again
        c.get("/api/me")
        assert c.patch("/api/me", json={"name": "maëlle"}).status_code == 200


def test_the_cookie_rejoins_its_seat_but_not_from_another_site(server: Server) -> None:
    with browser(server) as b, browser(server) as other:
        b.get("/api/me")
        other.get("/api/me")
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "open"}]
        made = b.post("/api/tables", json={"name": "Rémi", "seats": seats}).json()
        table_id = made["table_id"]
        (mine,) = b.get("/api/me/tables").json()
        assert mine == {
            "table_id": table_id,
            "seat": 0,
            "name": "Rémi",
            "status": "lobby",
            "game_number": 1,
            "url": f"/table/{table_id}",
        }
        assert other.get("/api/me/tables").json() == []
        cookie = f"{COOKIE}={b.cookies[COOKIE]}"
        url = f"{server.ws_base}/ws/tables/{table_id}"

        async def you(origin: str, cookie: str, query: str = "") -> Any:
            headers = {"Cookie": cookie}
            at = url + query
            async with websockets.connect(at, origin=origin, additional_headers=headers) as ws:  # type: ignore[arg-type]
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] in ("state", "lobby"):
                        return message.get("you", message.get("seat"))

        assert asyncio.run(you(server.base, cookie)) == 0  # its own seat, without a token
        spectator = asyncio.run(you(server.base, ""))
        assert spectator != 0
        assert asyncio.run(you("https://evil.example", cookie)) == spectator  # no seat
        assert asyncio.run(you(server.base, cookie, "?watch=1")) == spectator  # asked to watch

        # The host's actions by the cookie alone (no token), from this site only.
        pace = f"/api/tables/{table_id}/pace"
        r = b.put(pace, json={"pace": "fast"}, headers={"Origin": "https://evil.example"})
        assert r.status_code == 401 and "missing token" in r.json()["error"]
        r = other.put(pace, json={"pace": "fast"})
        assert r.status_code == 401 and "wrong token" in r.json()["error"]
        assert b.get(f"/api/tables/{table_id}").json()["pace"] == "normal"  # unchanged
        assert b.put(pace, json={"pace": "fast"}).json()["pace"] == "fast"
        foreign = f"{COOKIE}={other.cookies[COOKIE]}"
        assert asyncio.run(you(server.base, foreign)) == spectator


@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgresql"])
def test_the_signin_stores(kind: str, tmp_path: Any, request: pytest.FixtureRequest) -> None:
    urls = {"sqlite": f"sqlite:///{tmp_path / 's.db'}"}
    if kind == "postgresql":
        urls[kind] = request.getfixturevalue("pg_url")

    async def run() -> None:
        sql = SqlStore(urls[kind]) if kind in urls else None
        store = SqlSignins(sql) if sql is not None else MemorySignins()
        if sql is not None:
            await sql.open()
        try:
            now = time.time()
            codes = [normal(new_code()) for _ in range(3)]
            for i, code in enumerate(codes):
                assert code is not None
                await store.add_signin(SigninRow(f"s{i}", "p", code_hash(code), now + i, now + 900))
            hashes = [code_hash(c or "") for c in codes]
            assert await store.use_signin(hashes[0], now + 901) == "expired"
            assert await store.use_signin(hashes[0], now + 1) == "p"
            assert await store.use_signin(hashes[0], now + 2) == "used"
            assert await store.revoke_signin("p", "s1") == 1
            assert await store.use_signin(hashes[1], now + 1) == "revoked"
            assert await store.use_signin(code_hash("0" * 8), now) == "unknown"
            assert await store.revoke_signin("q", None) == 0  # another's: untouched
            assert await store.revoke_signin("p", None) == 1
            assert [r.id for r in await store.signins("p")] == ["s2", "s1", "s0"]
        finally:
            if sql is not None:
                await sql.close()

    asyncio.run(run())
