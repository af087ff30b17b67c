"""What the server reads, in process: names, websocket messages and REST bodies by pydantic."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.moves import format_move
from salad.server.app import create_app
from salad.server.errors import ActionError
from salad.server.incoming import PingIn, PlayIn, read_client_message
from salad.server.schemas import JoinIn
from salad.server.store import SeatRow, TableRow
from salad.server.tables import Table

with warnings.catch_warnings():  # starlette's note on which httpx it would like
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_clean_player_name() -> None:
    assert JoinIn(name="  Ann \t Lee ").name == "Ann Lee"
    assert JoinIn(name="x" * 32).name == "x" * 32
    for bad, words in (
        ("", "must not be empty"),
        ("   ", "must not be empty"),
        ("x" * 33, "at most 32 characters, not 33"),
        ("a\u0007b", "must not hold control characters"),
    ):
        with pytest.raises(ValueError, match=words):  # pydantic's ValidationError is one
            JoinIn(name=bad)


@pytest.mark.parametrize(
    ("message", "words"),
    [
        (None, "binary messages are not understood; send JSON text"),
        ("x" * 5000, "message too long (5000 characters)"),
        ("not json", "not JSON: Expecting value: line 1 column 1 (char 0)"),
        ("[1, 2]", 'a message must be a JSON object such as {"type": "ping"}'),
        ('"play"', 'a message must be a JSON object such as {"type": "ping"}'),
        ('{"type": "dance"}', "unknown message type 'dance' (known: play, ping"),
        ('{"kind": "play"}', "unknown message type None (known: play, ping"),
        ('{"type": "play"}', 'play: "move" must be a card or choice as text, such as "QS"'),
        ('{"type": "play", "move": 12}', 'play: "move" must be a card or choice as text'),
        ('{"type": "play", "move": ["QS"]}', 'play: "move" must be a card or choice as text'),
    ],
)
def test_bad_client_messages(message: str | None, words: str) -> None:
    with pytest.raises(ActionError) as caught:
        read_client_message(message)
    assert words in caught.value.message
    assert "\n" not in caught.value.message


def test_client_messages() -> None:
    assert read_client_message('{"type": "ping", "extra": 1}') == PingIn(type="ping")
    assert read_client_message('{"type": "play", "move": "W+"}') == PlayIn(type="play", move="W+")


def test_a_move_is_read_with_salad_moves() -> None:
    rs = load_ruleset("canadian", {"jokers": 2})
    row = TableRow("t", rs.preset, rs.settings, 4, None, None, "playing", 1)
    row.seats = [SeatRow(i, "human", f"P{i}") for i in range(4)]
    table = Table(row, rs)
    game = table.game = Game(rs, 4, seed=5)
    seat = game.to_move
    for move in game.legal_moves():
        text = format_move(game.deck, move)
        assert table.read_move(seat, text) == move
        assert table.read_move(seat, text.lower()) in game.legal_moves()


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with TestClient(create_app(str(tmp_path / "t.db"))) as c:
        yield c


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"name": "  "}, "name: must not be empty"),
        ({"name": "x" * 40}, "name: at most 32 characters, not 40"),
        ({"name": "a\u0007b"}, "name: must not hold control characters"),
        ({}, "name: Field required"),
        ({"name": 5}, "name: Input should be a valid string"),
        ({"name": "A", "rules": "lettuce"}, "rules: unknown preset 'lettuce'"),
    ],
)
def test_rest_bodies_in_one_line(client: Any, body: dict[str, Any], error: str) -> None:
    for path in ("/api/tables", "/api/quickplay"):
        r = client.post(path, json=body)
        assert r.status_code == 400 and r.json()["error"].startswith(error), r.text


def test_rest_names_are_tidied(client: Any) -> None:
    created = client.post("/api/tables", json={"name": "  Ann   Lee "}).json()
    joined = client.post(f"/api/tables/{created['table_id']}/join", json={"name": " Bo  b "})
    lobby = client.get(f"/api/tables/{created['table_id']}").json()
    assert joined.status_code == 200
    assert [s["name"] for s in lobby["seats"][:2]] == ["Ann Lee", "Bo b"]
    r = client.post(f"/api/tables/{created['table_id']}/join", json={"name": ""})
    assert r.json() == {"error": "name: must not be empty"}


def test_pages(client: Any) -> None:
    for path in ("/", "/sheet", "/table/x", "/watch/x", "/join/x", "/replay/x"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text.lower(), path


def test_deeply_nested_rules_toml_is_one_line(client: Any) -> None:
    """A ``rules_toml`` nested deeper than the reader goes is a 400 naming it, not a 500."""
    toml = "x = " + "[" * 1000 + "]" * 1000 + "\n"
    answer = client.post("/api/tables", json={"name": "Ann", "rules_toml": toml})
    assert answer.status_code == 400
    assert answer.json() == {"error": "rules file rules_toml: nested too deeply to read"}
