"""The REST lobby against a real server: options, tables, seats, starting, errors, pages."""

from __future__ import annotations

from typing import Any

import pytest

HUMAN = {"kind": "human"}
OPEN = {"kind": "open"}
RANDOM = {"kind": "bot", "bot": "random"}


def error_of(r: Any, status: int) -> str:
    assert r.status_code == status, f"{r.status_code} {r.text}"
    body = r.json()
    assert set(body) == {"error"}
    message = body["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return str(message)


def test_options_and_openapi(server: Any) -> None:
    opts = server.ok("GET", "/api/options")
    names = [p["name"] for p in opts["presets"]]
    assert {"canadian", "skip-the-salad"} <= set(names)
    canadian = opts["presets"][names.index("canadian")]
    assert canadian["min_players"] == 3 and canadian["default_players"] == 4
    assert canadian["hands"][0] == {"id": "no-tricks", "name": "No Tricks", "swappable": True}
    assert canadian["hands"][-1]["swappable"] is False
    assert canadian["toppings"] is False
    assert opts["presets"][names.index("skip-the-salad")]["toppings"] is True
    assert {"id": "no-kings", "name": "No Kings"} in opts["swaps"]["skip-the-salad"]
    assert {t["name"] for t in opts["toppings"]} >= {"rotten-tomato", "cornucopia"}
    assert "random" in opts["bots"] and "basic" in opts["bots"]
    spec = server.ok("GET", "/openapi.json")
    for path in (
        "/api/options",
        "/api/quickplay",
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/seats/{seat}",
        "/api/tables/{table_id}/start",
        "/api/tables/{table_id}/rematch",
        "/api/tables/{table_id}/record",
        "/api/tables/{table_id}/games",
    ):
        assert path in spec["paths"], path
    assert server.http.get("/docs").status_code == 200


def test_pages_and_static_files(server: Any) -> None:
    for path in ("/", "/table/abc", "/join/abc", "/watch/abc", "/replay/abc?game=1"):
        r = server.http.get(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("text/html")
        assert "<html" in r.text.lower()
    assert server.http.get("/static/css/salad.css").status_code == 200
    error_of(server.http.get("/static/nothing-here.js"), 404)
    error_of(server.http.get("/api/nothing"), 404)


def test_create_join_start(server: Any) -> None:
    created = server.ok(
        "POST",
        "/api/tables",
        {
            "name": "Alice",
            "rules": "canadian",
            "seats": [HUMAN, OPEN, {"kind": "human"}, {"kind": "bot", "bot": "basic"}],
            "turn_timer": 60,
            "bot_takeover": 30,
        },
    )
    tid, host = created["table_id"], created["token"]
    assert created["seat"] == 0
    assert created["invite_url"] == f"/join/{tid}"
    assert created["watch_url"] == f"/watch/{tid}"
    assert created["url"] == f"/table/{tid}#token={host}"
    lobby = server.ok("GET", f"/api/tables/{tid}")
    assert lobby["status"] == "lobby" and lobby["players"] == 4 and lobby["host"] == 0
    assert [s["kind"] for s in lobby["seats"]] == ["human", "open", "open", "bot"]
    assert lobby["seats"][0]["name"] == "Alice" and lobby["seats"][3]["bot"] == "basic"
    assert lobby["turn_timer"] == 60 and lobby["bot_takeover"] == 30
    assert lobby["deck"]["cards_each"] == 13 and len(lobby["deck"]["suits"]) == 4
    assert {"letter": "T", "name": "Ten", "label": "10"} in lobby["deck"]["ranks"]
    assert lobby["passing"] == 0
    assert lobby["hands"][0]["round"] == "No Tricks" and lobby["hands"][0]["total"] == 130
    first = [lobby["penalty_lines"][i] for i in lobby["hands"][0]["penalties"]]
    assert first == ["Tricks: each trick you take costs 10"]
    assert "token" not in str(lobby).lower().replace("tokens", "")  # no token, no hash

    # Starting with an open seat is refused; so are the wrong tokens.
    error_of(server.post(f"/api/tables/{tid}/start"), 401)
    error_of(server.post(f"/api/tables/{tid}/start", token="nope"), 401)
    r = server.http.post(f"/api/tables/{tid}/start", headers={"Authorization": "Basic x"})
    error_of(r, 401)
    assert "still open" in error_of(server.post(f"/api/tables/{tid}/start", token=host), 409)

    bob = server.ok("POST", f"/api/tables/{tid}/join", {"name": "  Bob  "})
    assert bob["seat"] == 1 and bob["table_id"] == tid
    error_of(server.post(f"/api/tables/{tid}/join", {"name": "Eve", "seat": 1}), 409)
    error_of(server.post(f"/api/tables/{tid}/join", {"name": "Eve", "seat": 9}), 400)
    carol = server.ok("POST", f"/api/tables/{tid}/join", {"name": "Carol", "seat": 2})
    assert carol["seat"] == 2
    assert "no open seat" in error_of(server.post(f"/api/tables/{tid}/join", {"name": "Eve"}), 409)
    lobby = server.ok("GET", f"/api/tables/{tid}")
    assert [s["name"] for s in lobby["seats"][:3]] == ["Alice", "Bob", "Carol"]

    assert "host" in error_of(server.post(f"/api/tables/{tid}/start", token=bob["token"]), 403)
    lobby = server.ok("POST", f"/api/tables/{tid}/start", token=host)
    assert lobby["status"] == "playing"
    error_of(server.post(f"/api/tables/{tid}/start", token=host), 409)
    error_of(server.post(f"/api/tables/{tid}/rematch", token=host), 409)
    error_of(server.http.delete(f"/api/tables/{tid}/seats/3", headers=auth(host)), 409)
    assert "still being played" in error_of(server.http.get(f"/api/tables/{tid}/record"), 409)
    games = server.ok("GET", f"/api/tables/{tid}/games")
    (game,) = games
    assert game | {"started_at": 0} == {
        "game_number": 1,
        "status": "playing",
        "totals": [0, 0, 0, 0],
        "winners": [],
        "players": [s["name"] or f"Seat {i}" for i, s in enumerate(lobby["seats"])],
        "started_at": 0,
        "finished_at": None,
    }
    assert game["started_at"] > 1.7e9  # when it was dealt, Unix seconds


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_host_changes_seats(server: Any) -> None:
    created = server.ok("POST", "/api/tables", {"name": "Host", "players": 5, "rules": "canadian"})
    tid, host = created["table_id"], created["token"]
    guest = server.ok("POST", f"/api/tables/{tid}/join", {"name": "Guest"})
    assert guest["seat"] == 1
    put = server.http.put
    # Only the host, never seat 0, only known bots.
    error_of(put(f"/api/tables/{tid}/seats/2", json={"kind": "bot"}), 401)
    error_of(
        put(f"/api/tables/{tid}/seats/2", json={"kind": "bot"}, headers=auth(guest["token"])), 403
    )
    error_of(put(f"/api/tables/{tid}/seats/0", json={"kind": "bot"}, headers=auth(host)), 409)
    error_of(put(f"/api/tables/{tid}/seats/7", json={"kind": "bot"}, headers=auth(host)), 400)
    msg = error_of(
        put(f"/api/tables/{tid}/seats/2", json={"kind": "bot", "bot": "nobot"}, headers=auth(host)),
        400,
    )
    assert "nobot" in msg and "random" in msg
    error_of(put(f"/api/tables/{tid}/seats/2", json={"kind": "alien"}, headers=auth(host)), 400)

    lobby = put(
        f"/api/tables/{tid}/seats/2", json={"kind": "bot", "bot": "random"}, headers=auth(host)
    ).json()
    assert lobby["seats"][2]["kind"] == "bot" and lobby["seats"][2]["bot"] == "random"
    lobby = put(f"/api/tables/{tid}/seats/3", json={"kind": "bot"}, headers=auth(host)).json()
    assert lobby["seats"][3]["kind"] == "bot"
    lobby = put(f"/api/tables/{tid}/seats/3", json={"kind": "open"}, headers=auth(host)).json()
    assert lobby["seats"][3]["kind"] == "open"

    # Removing seat 1 moves the guest's seat... away: the guest's token stops working.
    lobby = server.http.delete(f"/api/tables/{tid}/seats/1", headers=auth(host)).json()
    assert lobby["players"] == 4
    assert [s["kind"] for s in lobby["seats"]] == ["human", "bot", "open", "open"]
    error_of(
        put(f"/api/tables/{tid}/seats/2", json={"kind": "bot"}, headers=auth(guest["token"])), 401
    )
    server.http.delete(f"/api/tables/{tid}/seats/3", headers=auth(host))
    lobby = server.ok("GET", f"/api/tables/{tid}")
    assert lobby["players"] == 3
    assert "at least 3" in error_of(
        server.http.delete(f"/api/tables/{tid}/seats/2", headers=auth(host)), 409
    )
    error_of(server.http.delete(f"/api/tables/{tid}/seats/0", headers=auth(host)), 409)
    put(f"/api/tables/{tid}/seats/2", json={"kind": "bot"}, headers=auth(host))
    lobby = server.ok("POST", f"/api/tables/{tid}/start", token=host)
    assert lobby["status"] == "playing" and lobby["deck"]["cards_each"] == 17


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"name": "A", "rules": "no-such"}, "unknown preset"),
        ({"name": "A", "rules": "/etc/passwd"}, "unknown preset"),
        ({"name": "A", "rules": "../rules.toml"}, "unknown preset"),
        ({"name": "A", "players": 9}, "out of range"),
        ({"name": "A", "players": 2}, "out of range"),
        ({"name": "A", "players": "four"}, "players"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "x" * 33}, "at most 32"),
        ({"name": "a\u0007b"}, "control"),
        ({}, "name"),
        ({"name": "A", "seats": [OPEN, HUMAN, HUMAN]}, "seats[0]"),
        ({"name": "A", "seats": []}, "seats"),
        ({"name": "A", "seats": [HUMAN, HUMAN, HUMAN], "players": 4}, "3 seats"),
        ({"name": "A", "seats": [HUMAN, {"kind": "bot", "bot": "zzz"}, HUMAN]}, "seats[1].bot"),
        ({"name": "A", "seats": [HUMAN, {"kind": "wizard"}, HUMAN]}, "seats.1.kind"),
        ({"name": "A", "seats": [HUMAN] * 9}, "out of range"),
        ({"name": "A", "toppings": ["rotten-tomato"]}, "Tomatoes"),
        ({"name": "A", "toppings": ["sprinkles"]}, "unknown topping"),
        ({"name": "A", "rules": "skip-the-salad", "swap": ["9=no-kings"]}, "swap"),
        ({"name": "A", "turn_timer": -1}, "turn_timer"),
        (
            {"name": "A", "turn_timer": 0.01},
            "turn_timer: Input should be greater than or equal to 0.5",
        ),
        ({"name": "A", "bot_takeover": "soon"}, "bot_takeover"),
        ({"name": "A", "seed": -5}, "seed"),
        ({"name": "A", "rules_toml": "preset = 'canadian'\n[points\n"}, "line 2"),
        ({"name": "A", "rules_toml": "preset = 'nope'"}, "preset"),
        ({"name": "A", "rules_toml": "colour = 'red'"}, "unknown key"),
    ],
)
def test_create_table_refuses_bad_input(server: Any, body: dict[str, Any], words: str) -> None:
    message = error_of(server.post("/api/tables", body), 400)
    assert words in message, message


def test_malformed_bodies(server: Any) -> None:
    r = server.http.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert "JSON" in error_of(r, 400)
    error_of(server.http.post("/api/tables", json=[1, 2]), 400)
    error_of(server.http.post("/api/quickplay", json={"name": "A", "bot": "nobody"}), 400)
    error_of(server.http.get("/api/tables/doesnotexist"), 404)
    error_of(server.http.get("/api/tables/bad%20id!"), 404)
    error_of(server.http.post("/api/tables/doesnotexist/join", json={"name": "A"}), 404)
    error_of(server.http.get("/api/tables/doesnotexist/record"), 404)
    error_of(server.http.get("/api/tables/doesnotexist/games"), 404)


def test_rules_file_toppings_and_swaps(server: Any) -> None:
    toml = 'preset = "canadian"\ntitle = "House Salad"\n[points]\nqueens = 30\n'
    created = server.ok("POST", "/api/tables", {"name": "A", "rules_toml": toml, "players": 3})
    lobby = server.ok("GET", f"/api/tables/{created['table_id']}")
    assert lobby["title"] == "House Salad" and lobby["rules"] == "canadian"
    assert lobby["players"] == 3 and lobby["deck"]["cards_each"] == 17
    third = [lobby["penalty_lines"][i] for i in lobby["hands"][2]["penalties"]]
    assert third == ["Queens: each queen you take costs 30"]

    body = {
        "name": "A",
        "rules": "skip-the-salad",
        "toppings": ["rotten-tomato", "salad-dressing"],
        "swap": {"2": "no-kings"},
        "players": 7,
    }
    lobby = server.ok("GET", f"/api/tables/{server.ok('POST', '/api/tables', body)['table_id']}")
    assert lobby["toppings"] == ["rotten-tomato", "salad-dressing"]
    assert lobby["passing"] == 0 and lobby["pass_direction"] == "right"
    assert lobby["hands"][1]["round"] == "No Kings"
    assert "Corn" in [s["name"] for s in lobby["deck"]["suits"]]  # from 7 players
    assert {w["code"] for w in lobby["deck"]["wilds"]} == {"W", "SD"}
    assert [w["declare"] for w in lobby["deck"]["wilds"] if w["code"] == "W"] == [True]


def test_quickplay(server: Any) -> None:
    r = server.ok("POST", "/api/quickplay", {"name": "Solo", "bot": "random", "players": 5})
    assert r["seat"] == 0 and r["url"] == f"/table/{r['table_id']}#token={r['token']}"
    lobby = server.ok("GET", f"/api/tables/{r['table_id']}")
    assert lobby["status"] == "playing" and lobby["players"] == 5
    assert [s["kind"] for s in lobby["seats"]] == ["human"] + ["bot"] * 4
    assert all(s["bot"] == "random" for s in lobby["seats"][1:])
    r = server.ok("POST", "/api/quickplay", {"name": "Solo"})
    lobby = server.ok("GET", f"/api/tables/{r['table_id']}")
    assert lobby["players"] == 4 and lobby["seats"][1]["bot"] == "basic"
