"""The score sheet's REST endpoints (/api/sheets/...) against a real server.

The browser keeps the sheet and sends it with every call; the server reads it with the model
(``ScoreSheet.from_dict``), so every answer here is compared with the model run locally.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from salad import load_ruleset
from salad.sheet import ScoreSheet

NAMES = ["Ann", "Bob", "Cy", "Di"]
CANADIAN = load_ruleset("canadian")


def error_of(r: Any, status: int = 400) -> str:
    """The one-line error of a refused call (``problems`` may come with it)."""
    assert r.status_code == status, f"{r.status_code} {r.text}"
    body = r.json()
    assert set(body) <= {"error", "problems"} and "error" in body, body
    message = body["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return str(message)


def split(rng: random.Random, total: int, n: int) -> list[int]:
    """``total`` shared out at random among ``n`` seats."""
    cuts = sorted(rng.randint(0, total) for _ in range(n - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def entry_for(fields: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random entry that adds up, built from the field descriptions the server sends.
    A hand with several questions (the Salad) gives everything to one seat."""
    if len(fields) > 1:
        seat = rng.randrange(len(NAMES))
        return {
            f["id"]: [f["total"] if s == seat else 0 for s in range(len(NAMES))]
            if f["per_player"]
            else seat
            for f in fields
        }
    (f,) = fields
    if f["per_player"]:
        return {f["id"]: split(rng, f["total"], len(NAMES))}
    return {f["id"]: rng.randrange(len(NAMES))}


def new_sheet(server: Any, **body: Any) -> dict[str, Any]:
    answer: dict[str, Any] = server.ok("POST", "/api/sheets/new", {"names": NAMES, **body})
    return answer


def test_a_whole_game_through_the_api_matches_the_model(server: Any) -> None:
    rng = random.Random(7)
    answer = new_sheet(server, rules="canadian", first_dealer=1)
    assert set(answer) == {"sheet", "summary", "rounds", "fields", "problems", "deck", "marks"}
    model = ScoreSheet(CANADIAN, NAMES, first_dealer=1)
    assert answer["rounds"] == [model.round_name(i) for i in range(6)]
    assert answer["fields"] == [[f.to_dict() for f in model.fields(i)] for i in range(6)]
    assert answer["summary"] == model.summary()
    r = server.post("/api/sheets/check", {"sheet": answer["sheet"], "entry": {}, "index": 1})
    assert error_of(r) == (
        "index: 1 is neither an entered hand nor the next one (0 to 0: hand 1 to hand 1)"
    )
    for index in range(model.hand_count):
        fields = answer["summary"]["next"]["fields"]
        assert fields == answer["fields"][index]
        entry = entry_for(fields, rng)
        checked = server.ok("POST", "/api/sheets/check", {"sheet": answer["sheet"], "entry": entry})
        assert checked["problems"] == []
        assert checked["sheet"] == answer["sheet"], "check must not change the sheet"
        answer = server.ok("POST", "/api/sheets/enter", {"sheet": answer["sheet"], "entry": entry})
        model.enter(entry)
        assert answer["summary"]["totals"] == list(model.totals)
        assert answer["summary"]["leaders"] == model.leaders()
        assert answer["summary"]["hands"][-1]["running"] == list(model.totals)
        assert answer["sheet"] == model.to_dict()
    summary = answer["summary"]
    assert summary["over"] is True and summary["next"] is None
    assert summary == model.summary()
    assert summary["standings"] == model.standings()
    assert summary["winners"] == model.winners()
    assert (summary["total"], summary["checksum"]) == model.game_check() == (1120, 1120)
    assert [s["points"] for s in summary["chart"]["series"]] == [
        [0] + [r[s] for r in model.running()] for s in range(4)
    ]
    # The game is over: nothing more is entered.
    entry = entry_for(answer["fields"][0], rng)
    r = server.post("/api/sheets/enter", {"sheet": answer["sheet"], "entry": entry})
    assert error_of(r) == "the game is over: all 6 hands are entered"
    r = server.post("/api/sheets/check", {"sheet": answer["sheet"], "entry": entry, "index": 6})
    assert error_of(r) == "index: 6 is not a hand of this game (0 to 5)"
    checked = {"sheet": answer["sheet"], "entry": entry, "index": 5}
    assert server.ok("POST", "/api/sheets/check", checked)["sheet"] == answer["sheet"]
    # CSV
    r = server.post("/api/sheets/csv", {"sheet": answer["sheet"]})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/csv")
    assert "attachment" in r.headers["content-disposition"]
    assert r.text == model.to_csv()
    # The sheet survives a round trip as data and as the text of a file.
    loaded = server.ok("POST", "/api/sheets/load", {"sheet": answer["sheet"]})
    assert loaded["summary"] == summary
    loaded = server.ok("POST", "/api/sheets/load", {"text": model.to_json()})
    assert loaded["sheet"] == answer["sheet"]


def test_correct_and_undo(server: Any) -> None:
    answer = new_sheet(server)
    sheet = answer["sheet"]
    for entry in ({"tricks": [3, 4, 3, 3]}, {"hearts": [4, 9, 0, 0]}):
        sheet = server.ok("POST", "/api/sheets/enter", {"sheet": sheet, "entry": entry})["sheet"]
    fixed = server.ok(
        "POST",
        "/api/sheets/correct",
        {"sheet": sheet, "index": 0, "entry": {"tricks": [0, 1, 0, 12]}},
    )
    assert fixed["summary"]["hands"][0]["points"] == [0, 10, 0, 120]
    assert fixed["summary"]["totals"] == [40, 100, 0, 120]
    assert fixed["summary"]["hands"][1]["running"] == [40, 100, 0, 120]
    assert fixed["summary"]["leaders"] == [2]
    # A correction is checked like an entry, and changes nothing when refused.
    r = server.post(
        "/api/sheets/correct", {"sheet": sheet, "index": 0, "entry": {"tricks": [0, 1, 0, 11]}}
    )
    assert error_of(r) == "Tricks: they add up to 12, but 13 were played"
    r = server.post("/api/sheets/correct", {"sheet": sheet, "index": 2, "entry": {}})
    assert error_of(r) == "hand 3: only hands 1 to 2 are entered"
    # Checking a correction names the hand's own questions.
    checked = server.ok(
        "POST",
        "/api/sheets/check",
        {"sheet": sheet, "index": 0, "entry": {"hearts": [13, 0, 0, 0]}},
    )
    assert checked["problems"] == [
        "unknown entry 'hearts' (hand 1 asks for: tricks)",
        "Tricks: not entered",
    ]
    r = server.post("/api/sheets/check", {"sheet": sheet, "index": 4, "entry": {}})
    assert "index: 4" in error_of(r)
    r = server.post("/api/sheets/enter", {"sheet": sheet, "index": 0, "entry": {}})
    assert "the next hand is hand 3" in error_of(r)
    undone = server.ok("POST", "/api/sheets/undo", {"sheet": fixed["sheet"]})
    assert [h["number"] for h in undone["summary"]["hands"]] == [1]
    assert undone["summary"]["totals"] == [0, 10, 0, 120]
    assert undone["summary"]["next"]["round"] == "No Hearts"
    empty = server.ok("POST", "/api/sheets/undo", {"sheet": undone["sheet"]})
    r = server.post("/api/sheets/undo", {"sheet": empty["sheet"]})
    assert error_of(r) == "undo: no hand is entered yet"


BAD_ENTRIES: list[tuple[int, Any]] = [
    (0, {"tricks": [3, 4, 3, 2]}),
    (0, {"tricks": [3, 4, 3]}),
    (0, {"tricks": [-1, 4, 5, 5]}),
    (0, {"tricks": [3, 4, 3, "3"]}),
    (0, {"tricks": [3.0, 4, 3, 3]}),
    (0, {"tricks": [3, 4, 3, True]}),
    (0, {}),
    (0, []),
    (0, "3 4 3 3"),
    (0, {"tricks": [3, 4, 3, 3], "hearts": [13, 0, 0, 0]}),
    (1, {"hearts": [14, 0, 0, -1]}),
    (3, {"king-of-spades": 4}),
    (3, {"king-of-spades": "Bob"}),
    (5, {"tricks": [13, 0, 0, 0], "hearts": [12, 1, 0, 0], "queens": [4, 0, 0, 0]}),
    (
        5,
        {
            "tricks": [13, 0, 0, 0],
            "hearts": [13, 0, 0, 0],
            "queens": [4, 0, 0, 0],
            "king-of-spades": 1,
            "last-trick": 2,
        },
    ),
]


@pytest.mark.parametrize(("index", "entry"), BAD_ENTRIES)
def test_every_bad_entry_is_refused_with_the_models_problems(
    server: Any, index: int, entry: Any
) -> None:
    model = ScoreSheet(CANADIAN, NAMES)
    answer = new_sheet(server)
    sheet = answer["sheet"]
    rng = random.Random(index)
    for _ in range(index):
        good = entry_for(model.summary()["next"]["fields"], rng)
        model.enter(good)
        sheet = server.ok("POST", "/api/sheets/enter", {"sheet": sheet, "entry": good})["sheet"]
    problems = model.check(entry)
    assert problems, "the model must refuse this entry"
    checked = server.ok("POST", "/api/sheets/check", {"sheet": sheet, "entry": entry})
    assert checked["problems"] == problems
    r = server.post("/api/sheets/enter", {"sheet": sheet, "entry": entry})
    assert error_of(r) == "; ".join(problems)
    assert r.json()["problems"] == problems
    # Nothing was entered: the sheet sent back loads with the same hands as before.
    again = server.ok("POST", "/api/sheets/load", {"sheet": sheet})
    assert len(again["summary"]["hands"]) == index


def test_the_salad_hand_names_every_problem(server: Any) -> None:
    model = ScoreSheet(CANADIAN, NAMES)
    sheet = new_sheet(server)["sheet"]
    rng = random.Random(3)
    for _ in range(5):
        good = entry_for(model.summary()["next"]["fields"], rng)
        model.enter(good)
        sheet = server.ok("POST", "/api/sheets/enter", {"sheet": sheet, "entry": good})["sheet"]
    entry = {
        "tricks": [3, 4, 3, 2],
        "hearts": [5, 4, 2, 2],
        "queens": [1, 1, 1, 1],
        "king-of-spades": 4,
    }
    r = server.post("/api/sheets/enter", {"sheet": sheet, "entry": entry})
    problems = r.json()["problems"]
    assert problems == model.check(entry)
    assert "Tricks: they add up to 12, but 13 were played" in problems
    assert "Last Trick: not entered" in problems
    assert len(problems) >= 3
    assert error_of(r) == "; ".join(problems)


def malformed(sheet: dict[str, Any]) -> list[tuple[Any, str]]:
    """Sheets that do not load, with a piece of the message each must give."""
    out: list[tuple[Any, str]] = [
        (None, "must be a JSON object"),
        ([1, 2], "must be a JSON object, not list"),
        ("text", "must be a JSON object, not str"),
        ({}, "format:"),
    ]

    def changed(path: list[Any], value: Any, expect: str) -> None:
        data = copy.deepcopy(sheet)
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        out.append((data, expect))

    changed(["format"], "salad-score/9", "format: 'salad-score/9'")
    changed(["extra"], 1, "extra: unknown key")
    changed(["ruleset"], "canadian", "ruleset: must be")
    changed(["ruleset", "preset"], "nope", "ruleset.preset: 'nope' is not one of")
    changed(["ruleset", "settings"], {"jokers": "x"}, "ruleset.settings: jokers")
    changed(["players"], "Ann", "players: must be a list")
    changed(["players"], ["Ann", "Bob"], "out of range")
    changed(["players"], ["Ann", "ann", "Cy", "Di"], "already taken")
    changed(["players"], ["Ann", "Bob", "Cy", "D\x07"], "control characters")
    changed(["first_dealer"], 9, "first dealer: seat 9")
    changed(["hands"], "x", "hands: must be a list")
    changed(["hands", 0, "took", "tricks"], [3, 4, 3, 2], "hands[0] (hand 1): Tricks: they add up")
    changed(["hands", 0, "points"], [0, 0, 0, 0], "hands[0] (hand 1).points")
    changed(["hands", 0, "round_id"], "no-hearts", "round_id")
    changed(["totals"], [1, 2, 3, 4], "totals: [1, 2, 3, 4], but the hands add up to")
    return out


def test_a_malformed_sheet_gets_one_line(server: Any) -> None:
    sheet = new_sheet(server)["sheet"]
    sheet = server.ok(
        "POST", "/api/sheets/enter", {"sheet": sheet, "entry": {"tricks": [3, 4, 3, 3]}}
    )["sheet"]
    for bad, expect in malformed(sheet):
        for path, body in (
            ("/api/sheets/load", {"sheet": bad}),
            ("/api/sheets/check", {"sheet": bad, "entry": {}}),
            ("/api/sheets/enter", {"sheet": bad, "entry": {"hearts": [13, 0, 0, 0]}}),
            ("/api/sheets/correct", {"sheet": bad, "index": 0, "entry": {}}),
            ("/api/sheets/undo", {"sheet": bad}),
            ("/api/sheets/csv", {"sheet": bad}),
        ):
            if bad is None and path == "/api/sheets/load":
                continue  # load: the sheet is optional (text instead)
            message = error_of(server.post(path, body))
            assert message.startswith("sheet: "), (path, message)
            assert expect in message, (path, message)
    assert "not valid JSON" in error_of(server.post("/api/sheets/load", {"text": "{nope"}))
    assert "give the sheet" in error_of(server.post("/api/sheets/load", {}))
    assert "sheet" in error_of(server.post("/api/sheets/undo", {}))
    r = server.http.post(
        "/api/sheets/enter", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert error_of(r) == "the body is not valid JSON"


@pytest.mark.parametrize(
    ("body", "expect"),
    [
        ({"rules": "nope"}, "rules: unknown preset 'nope'"),
        ({"rules": "examples/rules/house.toml"}, "rules: unknown preset"),
        ({"rules_toml": 'preset = "canadian"\njokers = "x"\n'}, "jokers"),
        ({"rules_toml": "[[[ not toml"}, "rules_toml"),
        ({"toppings": ["pickles"]}, "pickles"),
        ({"rules": "skip-the-salad", "swap": {"2": "no-such-round"}}, "no-such-round"),
        ({"names": ["Ann", "ann", "Cy", "Di"]}, "player 2: 'ann' is already taken by Ann"),
        ({"names": ["Ann", "12", "Cy", "Di"]}, "player 2: '12' is a number"),
        ({"names": ["Ann", " ", "Cy", "Di"]}, "player 2: a name cannot be empty"),
        ({"names": ["Ann", "B" * 30, "Cy", "Di"]}, "player 2: 'BBBB"),
        ({"names": ["Ann", "B,ob", "Cy", "Di"]}, "player 2: 'B,ob': a name may not hold"),
        ({"names": ["Ann", "Bo\x00b", "Cy", "Di"]}, "player 2: a name must not hold control"),
        ({"names": ["Ann", "Bob"]}, "players: 2 is out of range for canadian (3 to 8)"),
        ({"names": ["P" + str(i) for i in range(9)]}, "players: 9 is out of range"),
        ({"names": NAMES, "players": 5}, "names: 5 players need 5 names, not 4"),
        ({"names": "Ann, Bob, Cy, Di"}, "names:"),
        ({"names": ["Ann", 2, "Cy", "Di"]}, "names.1:"),
        ({"names": NAMES, "first_dealer": 4}, "first dealer: seat 4 is not at the table"),
        ({"names": None}, "names:"),
    ],
)
def test_new_sheet_refusals(server: Any, body: dict[str, Any], expect: str) -> None:
    message = error_of(server.post("/api/sheets/new", {"names": NAMES, **body}))
    assert expect in message, message


def test_new_sheet_rules_toppings_and_files(server: Any) -> None:
    opts = server.ok("GET", "/api/options")
    skip = next(p for p in opts["presets"] if p["name"] == "skip-the-salad")
    assert skip["toppings"] is True
    answer = new_sheet(server, rules="skip-the-salad", toppings="all", swap={"2": "no-kings"})
    model = ScoreSheet(
        load_ruleset("skip-the-salad", {"toppings": "all", "swap": {"2": "no-kings"}}), NAMES
    )
    assert answer["sheet"] == model.to_dict()
    assert answer["rounds"][1] == "No Kings"
    kinds = {f["kind"] for f in answer["fields"][0]}
    assert kinds == {"tricks", "token"}, "the Rotten Tomato is asked for from the first hand"
    # A rules file's text: a one-hand game for five players.
    toml = 'preset = "canadian"\nhands = ["no-queens"]\n'
    answer = new_sheet(server, rules_toml=toml, names=[*NAMES, "Ed"])
    assert answer["summary"]["hand_count"] == 1
    assert answer["sheet"]["ruleset"] == {
        "preset": "canadian",
        "settings": {"hands": ["no-queens"]},
    }
    (field,) = answer["fields"][0]
    assert (field["id"], field["total"]) == ("queens", 4)
    done = server.ok(
        "POST",
        "/api/sheets/enter",
        {"sheet": answer["sheet"], "entry": {"queens": [0, 1, 1, 2, 0]}},
    )
    assert done["summary"]["over"] is True
    assert done["summary"]["standings"] == [1, 3, 3, 5, 1]
    assert done["summary"]["winners"] == [0, 4]


def test_sheet_page_and_openapi(server: Any) -> None:
    r = server.http.get("/sheet")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "/static/js/sheet.js" in r.text
    for path in ("/static/js/sheet.js", "/static/css/sheet.css"):
        assert server.http.get(path).status_code == 200, path
    paths = server.ok("GET", "/openapi.json")["paths"]
    for name in ("new", "load", "check", "enter", "correct", "undo", "csv"):
        assert f"/api/sheets/{name}" in paths, name
    assert "/sheet" not in paths
