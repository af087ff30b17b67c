"""Results, ratings, profiles and leaderboards (#34): two players finish a rated game and
their ratings, profiles and the leaderboard change; a game against bots is rated only at a
table made rated; a seat left for good ranks last; a deleted player's results stay, anonymised.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from typing import Any

import httpx
import pytest

from salad.presets import PRESETS
from salad.server.store import SqlStore

from .conftest import Server, connect
from .test_players import browser
from .test_restart import finish

ONE_HAND = 'preset = "canadian"\nhands = ["no-hearts"]\n'
HEARTS = PRESETS["canadian"].hand_penalties(PRESETS["canadian"].hands.index("no-hearts"))
EVERY = 'preset = "extended"\nhands = ["every"]\n[[rounds]]\nid = "every"\nname = "Every"\n'
EVERY += f"penalties = {[p.id for p in PRESETS['extended'].catalogue]!r}\n".replace("'", '"')
"""One hand of every penalty of a preset whose moon is shot."""
HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}


def named(b: httpx.Client, prefix: str) -> str:
    """The browser's player, given a name of its own (the session server is shared)."""
    b.get("/api/me").raise_for_status()
    name = f"{prefix}{secrets.token_hex(3)}"
    b.patch("/api/me", json={"name": name}).raise_for_status()
    return name


def play(server: Server, table_id: str, tokens: dict[int, str], leave: int | None = None) -> None:
    """The humans of ``tokens`` play the game to its end (``leave``: the host gives that seat
    to a bot after its first move: it left for good)."""

    async def run() -> None:
        socks = {seat: await connect(server, table_id, tok) for seat, tok in tokens.items()}
        try:
            for sock in socks.values():
                await sock.until(lambda m: m["view"] is not None)
            if leave is not None:
                gone = socks.pop(leave)
                await gone.ws.close()
                r = server.http.put(
                    f"/api/tables/{table_id}/seats/{leave}",
                    json={"kind": "bot", "bot": "random"},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
                assert r.status_code == 200, r.text
            await finish(socks, random.Random(7))
        finally:
            for sock in socks.values():
                await sock.ws.close()

    asyncio.run(run())


def table(
    b: httpx.Client, seats: list[dict[str, Any]], rules: str = ONE_HAND, **options: Any
) -> tuple[str, str]:
    body = {"name": "Host", "rules_toml": rules, "seats": seats, **options}
    created = b.post("/api/tables", json=body)
    assert created.status_code == 200, created.text
    return created.json()["table_id"], created.json()["token"]


def test_two_players_finish_a_rated_game_and_a_leaver_ranks_last(server: Server) -> None:
    with browser(server) as a, browser(server) as b:
        a_name, b_name = named(a, "Ana"), named(b, "Bo")
        a_id, b_id = a.get("/api/me").json()["id"], b.get("/api/me").json()["id"]
        assert a.get(f"/api/players/{a_name}").json()["ratings"] == []
        table_id, host = table(a, [HUMAN, HUMAN, RANDOM])
        guest = b.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()["token"]
        server.ok("POST", f"/api/tables/{table_id}/start", token=host)
        play(server, table_id, {0: host, 1: guest})

        mine = a.get(f"/api/players/{a_name.upper()}").json()  # a name, whatever its case
        theirs = b.get(f"/api/players/{b_id}").json()  # or an id
        assert mine["id"] == a_id and theirs["name"] == b_name
        for p in (mine, theirs):
            assert p["games"] == 1
            assert p["by_ruleset"] == [
                {"family": "classic", "title": "Canadian Salad", "players": 3, "games": 1}
            ]
            (game,) = p["finished"]["games"]
            assert game["rated"] and not game["left"] and game["table_id"] == table_id
            assert game["replay"] == f"/replay/{table_id}?game=1"
            (rating,) = p["ratings"]
            assert rating["games"] == 1 and rating["provisional"]
            assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=0.01)
            assert rating["sigma"] < 25 / 3  # one game: less uncertain than a new player
            assert len(p["history"]) == 1
            (pen,) = p["penalties"]
            assert pen["round"] == "no-hearts" and pen["name"] == "No Hearts"
            assert pen["hands"] == 1
            # By kind, named from the ruleset's data: no moon here, so they sum to the total.
            assert [k["name"] for k in p["penalty_kinds"]] == [x.name for x in HEARTS]
            assert sum(k["points"] for k in p["penalty_kinds"]) == game["points"]
            assert all(k["hands"] == 1 for k in p["penalty_kinds"])
            (vs,) = p["against_bots"]
            assert vs["bot"] == "random" and vs["mean_game_interval"] is None
        places = {mine["finished"]["games"][0]["place"], theirs["finished"]["games"][0]["place"]}
        better, worse = (
            (mine, theirs)
            if mine["finished"]["games"][0]["place"] == min(places)
            else (theirs, mine)
        )
        if len(places) == 2:
            assert better["ratings"][0]["mu"] > worse["ratings"][0]["mu"]

        board = a.get("/api/leaderboard", params={"family": "classic", "min": 1}).json()
        ids = [row["id"] for row in board["rows"]]
        assert a_id in ids and b_id in ids
        ordinals = [row["rating"]["ordinal"] for row in board["rows"]]
        assert ordinals == sorted(ordinals, reverse=True)
        assert [row["rank"] for row in board["rows"]] == list(range(1, len(ids) + 1))
        week = a.get("/api/leaderboard", params={"period": "week", "min": 1}).json()
        assert a_id in [row["id"] for row in week["rows"]]
        strict = a.get("/api/leaderboard", params={"min": 2}).json()  # one game is too few
        assert a_id not in [row["id"] for row in strict["rows"]]

        # Bo leaves the next game for good (the host gives the seat to a bot): Bo is last.
        table_id, host = table(a, [HUMAN, HUMAN, RANDOM])
        guest = b.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()["token"]
        server.ok("POST", f"/api/tables/{table_id}/start", token=host)
        play(server, table_id, {0: host, 1: guest}, leave=1)
        left = b.get(f"/api/players/{b_id}").json()
        assert left["games"] == 2
        last = left["finished"]["games"][0]
        assert last["table_id"] == table_id and last["left"] and last["place"] == 3
        assert left["ratings"][0]["games"] == 2


@pytest.mark.parametrize("rated", [False, True])
def test_a_game_against_bots_is_rated_only_at_a_rated_table(server: Server, rated: bool) -> None:
    with browser(server) as a:
        name = named(a, "Solo")
        table_id, host = table(a, [HUMAN, RANDOM, RANDOM], rated=rated)
        assert server.ok("GET", f"/api/tables/{table_id}")["rated"] is rated  # the lobby says
        server.ok("POST", f"/api/tables/{table_id}/start", token=host)
        play(server, table_id, {0: host})
        p = a.get(f"/api/players/{name}").json()
        assert p["games"] == 1 and p["finished"]["games"][0]["rated"] is rated
        assert len(p["ratings"]) == (1 if rated else 0)
        assert len(p["history"]) == (1 if rated else 0)


def test_refusals_are_one_line(server: Server) -> None:
    for path, status, error in (
        ("/api/players/nobody-has-this-name", 404, "no player 'nobody-has-this-name'"),
        ("/api/leaderboard?family=poker", 400, "family: must be one of classic, skip-the-salad"),
        ("/api/leaderboard?page=0", 400, "query.page"),
        ("/api/leaderboard?period=year", 400, "query.period"),
    ):
        r = server.http.get(path)
        assert r.status_code == status, (path, r.text)
        assert r.json()["error"].startswith(error) and "\n" not in r.json()["error"]


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgresql"])
def test_forgetting_a_player_keeps_their_results_anonymised(
    backend: str, request: pytest.FixtureRequest, tmp_path: Any
) -> None:
    """On both databases: a game recorded once (twice is once), the ratings moved, the
    player's sums kept, the boards; a deleted player's results stay, anonymised."""
    from salad.server.ratings import Ratings
    from salad.server.ratings.model import rate
    from salad.server.store.ratings import MemoryRatings, ResultRow, week_start
    from salad.server.store.ratings_sql import SqlRatings

    def seat(i: int, player: str | None, bot: str | None, place: int) -> ResultRow:
        return ResultRow(
            "t",
            1,
            i,
            player,
            bot,
            None,
            "canadian",
            "classic",
            3,
            place,
            10 * place,
            [("no-hearts", 10 * place)],
            ["basic"],
            True,
            False,
        )

    async def run() -> None:
        url = request.getfixturevalue("pg_url") if backend == "postgresql" else None
        sql = SqlStore(url or f"sqlite:///{tmp_path / 'r.db'}")
        await sql.open()
        try:
            part = Ratings(MemoryRatings() if backend == "memory" else SqlRatings(sql), sql)
            results = [seat(0, "p", None, 1), seat(1, "q", None, 2), seat(2, None, "basic", 3)]
            await part.store.record(results, rate)
            await part.store.record(results, rate)  # the same game again: left as it is
            assert await part.store.recorded("t", 1) and not await part.store.recorded("t", 2)
            assert await part.store.unrecorded() == []  # no table's game lacks its results
            exported = await part.export("p")
            assert len(exported["results"]) == 1 and len(exported["history"]) == 1
            assert exported["ratings"][0]["games"] == 1 and exported["ratings"][0]["mu"] > 25
            (played,) = [s for s in await part.store.stats("p") if s.kind == "played"]
            assert (played.key, played.n) == ("classic/3", 1)
            week = await part.store.board("classic", week_start(time.time()), 1, 0, 10)
            assert [row.rating.player_id for row in week.rows] == ["p", "q"]
            await part.forget("p")
            assert await part.export("p") == {"results": [], "ratings": [], "history": []}
            board = await part.store.board("classic", None, 1, 0, 10)
            assert [row.rating.player_id for row in board.rows] == ["q"]
            kept = await part.store.results("q")
            assert len(kept) == 1
        finally:
            await sql.close()

    asyncio.run(run())


def test_a_finished_game_without_results_gets_them_when_its_server_starts(
    start_server: Any,
) -> None:
    """A server stopped between a game's last move and its results (here: the results taken
    out of the database): the next server on that database records them as it starts, at
    the game's own time; the table's lobby still says it is rated."""
    import sqlite3

    srv = start_server()
    with browser(srv) as a, browser(srv) as b:
        named(a, "Late")
        ids = [a.get("/api/me").json()["id"], b.get("/api/me").json()["id"]]
        table_id, host = table(a, [HUMAN, HUMAN, RANDOM], EVERY, rated=True)
        guest = b.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()["token"]
    srv.ok("POST", f"/api/tables/{table_id}/start", token=host)
    play(srv, table_id, {0: host, 1: guest})
    before = [srv.ok("GET", f"/api/players/{i}") for i in ids]
    assert [p["games"] for p in before] == [1, 1] and before[0]["ratings"]
    # Every penalty of the ruleset's data by its name, and the moon; one hand each.
    names = {p.name for p in PRESETS["extended"].catalogue} | {"Shooting the moon"}
    assert {k["name"] for k in before[0]["penalty_kinds"]} == names
    assert {k["hands"] for k in before[0]["penalty_kinds"]} == {1}
    for p in before:
        moon = [k for k in p["penalty_kinds"] if k["penalty"] == "moon"]
        rest = sum(k["points"] for k in p["penalty_kinds"]) - moon[0]["points"]
        assert rest >= 0 and (moon[0]["taken"] or rest == p["finished"]["games"][0]["points"])
    srv.kill()
    db = sqlite3.connect(srv.database.removeprefix("sqlite:///"))
    for name in ("results", "player_stats", "ratings", "rating_history"):
        db.execute(f"DELETE FROM salad_{name}")
    db.commit()
    finished_at = db.execute("SELECT finished_at FROM salad_games").fetchone()[0]
    db.close()
    srv = start_server(srv.database)
    assert srv.ok("GET", f"/api/tables/{table_id}")["rated"]  # kept, as the table is loaded
    after = [srv.ok("GET", f"/api/players/{i}") for i in ids]
    for was, now in zip(before, after, strict=True):
        assert now["games"] == 1 and now["ratings"] == was["ratings"]
        assert now["penalty_kinds"] == was["penalty_kinds"]
        assert now["finished"]["games"][0]["finished_at"] == finished_at
        assert len(now["history"]) == 1
