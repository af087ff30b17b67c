"""Groups (#34): made, joined with the invite link, their tables for members only, score sheets
attached, and the standings of a season (JSON and CSV) counting both; the refusals of what is
not a player's to do."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from salad.server.store import MemoryStore, SqlStore
from salad.sheet import ScoreSheet

from .conftest import Server

SUNDAY = Path(__file__).resolve().parents[2] / "examples" / "sheets" / "sunday.json"
"""A finished sheet of Canadian Salad played with real cards (totals 240, 330, 415, 135)."""


def browser(server: Server) -> httpx.Client:
    """A client that keeps its cookies, as a browser does."""
    return httpx.Client(base_url=server.base, timeout=30)


def named(b: httpx.Client, name: str) -> str:
    b.get("/api/me").raise_for_status()
    r = b.patch("/api/me", json={"name": name})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def finished_sheet(names: list[str], hands: int = 6) -> dict[str, Any]:
    """The Sunday sheet with these names, its first ``hands`` hands (6: finished)."""
    data = json.loads(SUNDAY.read_text())
    data["players"], data["hands"] = names, data["hands"][:hands]
    sheet = ScoreSheet.from_dict({k: v for k, v in data.items() if k != "totals"})
    return sheet.to_dict()


def shown(value: Any) -> str:
    """A figure as the page writes it (JavaScript's String): 275.0 is "275"."""
    if value is None:
        return ""
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def invite_code(group: dict[str, Any]) -> str:
    return str(group["invite_url"].split("code=")[1])


def test_a_groups_standings_count_an_online_game_and_a_sheet_and_the_csv_matches(
    server: Server,
) -> None:
    with browser(server) as ann, browser(server) as bob, browser(server) as eve:
        ann_id, bob_id = named(ann, "Ann G"), named(bob, "Bob G")
        named(eve, "Eve G")
        group = ann.post("/api/groups", json={"name": "  The   Sunday table "}).json()
        assert group["name"] == "The Sunday table" and group["you_own"]
        gid, code = group["id"], invite_code(group)
        # Bob joins with the link; Eve, who guesses, does not.
        landing = bob.get(f"/api/groups/{gid}/invite", params={"code": code}).json()
        assert landing == {"id": gid, "name": "The Sunday table", "members": 1, "member": False}
        joined = bob.post(f"/api/groups/{gid}/join", json={"code": code})
        assert joined.status_code == 200 and joined.json()["invite_url"] is None  # not the owner
        for guess in ("x" * 22, code[:-1] + ("A" if code[-1] != "A" else "B"), ""):
            r = eve.post(f"/api/groups/{gid}/join", json={"code": guess})
            assert r.status_code == 404 and "invite link is wrong" in r.json()["error"]
        assert eve.get(f"/api/groups/{gid}").status_code == 403
        assert eve.get(f"/api/groups/{gid}/standings").status_code == 403
        assert [g["id"] for g in bob.get("/api/groups").json()] == [gid]

        # The group's table: members only.
        seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}, {"kind": "bot"}]
        made = ann.post("/api/tables", json={"name": "Ann", "seats": seats, "group": gid})
        assert made.status_code == 200, made.text
        table = made.json()
        # Its lobby says it is the group's, to anyone who opens it (the join page says so).
        lobby = eve.get(f"/api/tables/{table['table_id']}").json()
        assert lobby["group"] == {"id": gid, "name": "The Sunday table"}
        r = eve.post(f"/api/tables/{table['table_id']}/join", json={"name": "Eve"})
        assert r.status_code == 403 and "members of the group" in r.json()["error"]
        for path in ("/api/tables", "/api/quickplay"):
            r = eve.post(path, json={"name": "Eve", "group": gid})
            assert r.status_code == 403 and "not a member of the group" in r.json()["error"]
        assert bob.post("/api/quickplay", json={"name": "Bob", "group": gid}).status_code == 200
        r = bob.post(f"/api/tables/{table['table_id']}/join", json={"name": "Bob"})
        assert r.status_code == 200, r.text
        # A game the bots finish for the two away players.
        body = {"name": "Ann", "seats": [{"kind": "human"}] + [{"kind": "bot"}] * 3}
        quick = ann.post("/api/tables", json={**body, "group": gid, "bot_takeover": 0})
        host = quick.json()["token"]
        tid = quick.json()["table_id"]
        ann.post(f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {host}"})
        deadline = time.monotonic() + 60
        while ann.get(f"/api/tables/{tid}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish the game"
            time.sleep(0.2)

        # A sheet of a real-card game: Ann and Bob by name, Cy a guest.
        sheet = finished_sheet(["ann g", "Bob G", "Cy", "Di"])
        attached = bob.post(
            f"/api/groups/{gid}/sheets",
            json={"sheet": sheet, "members": {"ann g": ann_id, "Bob G": bob_id}},
        )
        assert attached.status_code == 200, attached.text
        assert [s["player"] for s in attached.json()["seats"]] == [ann_id, bob_id, None, None]
        unfinished = finished_sheet(["A", "B", "C", "D"], hands=2)
        r = bob.post(f"/api/groups/{gid}/sheets", json={"sheet": unfinished})
        assert r.status_code == 400 and "only a finished sheet" in r.json()["error"]
        r = eve.post(f"/api/groups/{gid}/sheets", json={"sheet": sheet})
        assert r.status_code == 403

        year = time.gmtime().tm_year
        standings = ann.get(f"/api/groups/{gid}/standings", params={"season": year}).json()
        kinds = sorted(g["kind"] for g in standings["games"])
        assert kinds == ["online", "sheet"]
        online = next(g for g in standings["games"] if g["kind"] == "online")
        assert online["url"] == f"/replay/{tid}?game=1"
        lines = {p["player"]: p for p in standings["players"]}
        assert lines[ann_id]["games"] == 2 and lines[ann_id]["online"] == 1
        assert lines[bob_id]["games"] == 1 and lines[bob_id]["sheets"] == 1
        ann_points = online["seats"][0]["total"] + sheet["totals"][0]
        assert lines[ann_id]["points_per_game"] == round(ann_points / 2, 1)
        assert len(standings["chart"]["labels"]) == 2
        # Nothing of a hand: totals and places only.
        assert "hand" not in str(standings["games"]) and "cards" not in str(standings)

        # The CSV holds the page's figures, line by line.
        r = ann.get(f"/api/groups/{gid}/standings.csv", params={"season": year})
        assert r.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(r.text)))
        assert [row["name"] for row in rows] == [p["name"] for p in standings["players"]]
        for row, line in zip(rows, standings["players"], strict=True):
            for column in ("games", "online", "sheets", "points_per_game", "wins", "mean_place"):
                assert row[column] == shown(line[column])

        # Bob, removed, keeps his line and his games, marked a former member (the page and
        # the CSV say so after his name); Eve, who never played, has none.
        gone = ann.delete(f"/api/groups/{gid}/members/{bob_id}")
        assert gone.status_code == 200, gone.text
        after = ann.get(f"/api/groups/{gid}/standings", params={"season": year}).json()
        assert after["games"] == standings["games"]
        was = {p["player"]: p for p in after["players"]}
        assert was[bob_id] == {**lines[bob_id], "former": True} and not was[ann_id]["former"]
        r = ann.get(f"/api/groups/{gid}/standings.csv", params={"season": year})
        names = [row["name"] for row in csv.DictReader(io.StringIO(r.text))]
        shown_as = [
            p["name"] + (" (former member)" if p["former"] else "") for p in after["players"]
        ]
        assert names == shown_as and "Bob G (former member)" in names

        # Another season counts none of it; a bad season is one line.
        empty = ann.get(f"/api/groups/{gid}/standings", params={"season": year - 1}).json()
        assert empty["games"] == [] and all(p["games"] == 0 for p in empty["players"])
        r = ann.get(f"/api/groups/{gid}/standings", params={"from": "2026-13-01"})
        assert r.status_code == 400 and r.json()["error"].startswith("from:")


def test_only_the_owner_removes_a_new_link_voids_the_old_and_cross_site_is_refused(
    server: Server,
) -> None:
    with browser(server) as own, browser(server) as a, browser(server) as b:
        owner_id, a_id, b_id = named(own, "Olga R"), named(a, "Abe R"), named(b, "Bea R")
        group = own.post("/api/groups", json={"name": "Club"}).json()
        gid, old = group["id"], invite_code(group)
        for member in (a, b):
            assert member.post(f"/api/groups/{gid}/join", json={"code": old}).status_code == 200
        r = a.delete(f"/api/groups/{gid}/members/{b_id}")
        assert r.status_code == 403 and "only the group's owner" in r.json()["error"]
        assert a.post(f"/api/groups/{gid}/code").status_code == 403
        evil = {"Origin": "https://evil.example"}
        for r in (
            own.delete(f"/api/groups/{gid}/members/{b_id}", headers=evil),
            own.post("/api/groups", json={"name": "Evil"}, headers=evil),
            a.post(f"/api/groups/{gid}/join", json={"code": old}, headers=evil),
        ):
            assert r.status_code == 403 and "another site" in r.json()["error"], r.text
        assert len(own.get(f"/api/groups/{gid}").json()["members"]) == 3
        new = own.post(f"/api/groups/{gid}/code").json()
        assert invite_code(new) != old
        assert own.delete(f"/api/groups/{gid}/members/{b_id}").status_code == 200
        r = b.post(f"/api/groups/{gid}/join", json={"code": old})
        assert r.status_code == 404  # the old link is void
        assert b.post(f"/api/groups/{gid}/join", json={"code": invite_code(new)}).status_code == 200
        # The owner leaves: the group passes to its oldest member.
        left = own.delete(f"/api/groups/{gid}/members/{owner_id}")
        assert left.status_code == 200
        assert a.get(f"/api/groups/{gid}").json()["owner"] == a_id


def test_limits_are_one_line_errors(server: Server) -> None:
    from salad.server.routes.groups import GROUPS_MAX

    with browser(server) as p, httpx.Client(base_url=server.base) as nobody:
        named(p, "Lim R")
        for body, where in (({"name": ""}, "name"), ({"name": "x" * 41}, "name"), ({}, "name")):
            r = p.post("/api/groups", json=body)
            assert r.status_code == 400 and r.json()["error"].startswith(where), r.text
        made = [p.post("/api/groups", json={"name": f"G{i}"}) for i in range(GROUPS_MAX + 1)]
        assert [r.status_code for r in made] == [200] * GROUPS_MAX + [400]
        assert made[-1].json() == {
            "error": f"you are in {GROUPS_MAX} groups already, the most a player may be in"
        }
        assert nobody.post("/api/groups", json={"name": "Nobody"}).status_code == 401


@pytest.mark.parametrize("kind", ["memory", "sqlite", "postgresql"])
def test_the_group_stores_agree(kind: str, tmp_path: Path, request: Any) -> None:
    """The memory and SQL stores: members, sheets by season, the games of the group's tables
    (finished only), and the groups' part of an export and a deletion."""
    from salad.server.players.groups import GroupsPart
    from salad.server.store import MoveRow, TableRow
    from salad.server.store.groups import GroupRow, GroupStore, MemoryGroups, SheetRow, SqlGroups
    from salad.server.store.players import MemoryPlayers, PlayerRow, PlayerStore, SqlPlayers

    url = {
        "sqlite": f"sqlite:///{tmp_path / 'g.db'}",
        "postgresql": "" if kind != "postgresql" else str(request.getfixturevalue("pg_url")),
    }.get(kind)

    async def run() -> None:
        sql = SqlStore(url) if url else None
        tables: SqlStore | MemoryStore = sql if sql is not None else MemoryStore()
        players: PlayerStore
        store: GroupStore
        if sql is not None:
            players, store = SqlPlayers(sql), SqlGroups(sql)
            await sql.open()
        else:
            players = memory = MemoryPlayers()
            store = MemoryGroups(memory, tables if isinstance(tables, MemoryStore) else None)
        try:
            for pid in ("a", "b"):
                await players.create_player(PlayerRow(pid, pid.upper(), "#000000", "en"))
            await store.create_group(GroupRow("g", "Group", "a", "code"))
            await store.add_member("g", "b")
            await store.add_member("g", "b")
            assert [(m.player_id, m.name) for m in await store.members("g")] == [
                ("a", "A"),
                ("b", "B"),
            ]
            sheet = SheetRow("s", "g", "a", {"x": 1}, ["a", None], 100.0)
            await store.add_sheet(sheet)
            assert [s.id for s in await store.sheets("g", 0.0, 200.0)] == ["s"]
            assert await store.sheets("g", 101.0, 200.0) == []
            for table_id, group in (("t1", "g"), ("t2", None), ("t3", "g")):
                row = TableRow(table_id, "canadian", {}, 3, None, None, "lobby", 1, group_id=group)
                await tables.create_table(row)
                await tables.start_game(table_id, 1, 7, [{"name": "A", "player": "a"}])
                if table_id != "t3":  # t3's game is still played: not counted
                    over = ([10, 20, 30], [0])
                    await tables.add_move(table_id, 1, MoveRow(1, 0, 0, "x"), over=over)
            games = await store.games("g", 0.0, float("inf"))
            assert [(g.table_id, g.game.totals, g.preset) for g in games] == [
                ("t1", [10, 20, 30], "canadian")
            ]
            assert await store.games("g", 0.0, 1.0) == []
            part = GroupsPart(store)
            exported = await part.export("a")
            assert exported["groups"][0]["owner"] and exported["sheets_attached"][0]["id"] == "s"
            await part.forget("a")  # the owner goes: the group is Bea's
            found = await store.group("g")
            assert found is not None and found.owner_id == "b"
            assert (await store.sheets("g", 0.0, 200.0))[0].added_by is None
            await part.forget("b")  # the last member goes: the group is gone
            assert await store.group("g") is None and await store.groups_of("b") == []
        finally:
            if sql is not None:
                await sql.close()

    asyncio.run(run())


def test_salad_score_attaches_a_sheet_with_the_invite_link_or_a_file_holding_it(
    server: Server, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from salad.cli import app

    runner = CliRunner()
    with browser(server) as cy:
        cy_id = named(cy, "Cy CLI")
        group = cy.post("/api/groups", json={"name": "Terminal"}).json()
        link = f"{server.base}{group['invite_url']}"
        held = tmp_path / "group.txt"
        held.write_text(link + "\n")
        sheet = tmp_path / "sunday.json"
        sheet.write_text(json.dumps(finished_sheet(["Ann", "Bob", "cy cli", "Di"])))
        for where in (link, str(held)):
            done = runner.invoke(app, ["score", "--load", str(sheet), "--group", where])
            assert done.exit_code == 0, done.output
            assert "Ann (a guest), Bob (a guest), cy cli (a member), Di (a guest)" in done.output
        standings = cy.get(f"/api/groups/{group['id']}/standings").json()
        assert [p["sheets"] for p in standings["players"] if p["player"] == cy_id] == [2]
        half = tmp_path / "half.json"
        half.write_text(json.dumps(finished_sheet(["A", "B", "C", "D"], hands=3)))
        wrong = link.replace("code=", "code=x")
        for args, words in (
            (["--load", str(sheet), "--group", wrong], "invite link is wrong"),
            (["--load", str(half), "--group", link], "not finished"),
            (["--group", link], "--load FILE"),
            (["--load", str(sheet), "--group", "https://example.com/x"], "not a group's invite"),
        ):
            refused = runner.invoke(app, ["score", *args])
            assert refused.exit_code != 0 and words in refused.output, refused.output
            assert "Traceback" not in refused.output
