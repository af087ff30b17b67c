"""The protocol's generated files (docs/protocol.schema.json, js/messages.d.ts and .js) are
those its models make now, and they describe what the server sends."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic_core import PydanticSerializationError

from salad.engine import Game
from salad.formats.rules import load_ruleset
from salad.server import protocol_schema
from salad.server.messages import ErrorMessageOut
from salad.server.protocol import KEPT, VIEW_KEPT
from salad.server.store import SeatRow, TableRow
from salad.server.tables import Conn, Table
from salad.server.tables.wire import error_message
from salad.view import SPECTATOR

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_files_are_fresh() -> None:
    """Run ``python -m salad.server.protocol_schema`` after changing salad.server.messages."""
    for path, text in protocol_schema.generated().items():
        on_disk = (ROOT / path).read_text(encoding="utf-8")
        assert on_disk == text, f"{path} is stale: run python -m salad.server.protocol_schema"


def test_check_names_a_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in protocol_schema.generated():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / path, tmp_path / path)
    assert protocol_schema.main(["--check", "--root", str(tmp_path)]) == 0
    js = tmp_path / protocol_schema.JS_PATH
    js.write_text(js.read_text(encoding="utf-8").replace('"winners"', '"losers"'))
    assert protocol_schema.main(["--check", "--root", str(tmp_path)]) == 1
    assert "stale: src/salad/web/static/js/messages.js" in capsys.readouterr().out
    assert protocol_schema.main(["--root", str(tmp_path)]) == 0  # written again
    assert protocol_schema.main(["--check", "--root", str(tmp_path)]) == 0
    assert protocol_schema.main(["--root", str(tmp_path / "nowhere")]) == 2


def test_the_client_keeps_the_keys_the_models_say() -> None:
    js = (ROOT / protocol_schema.JS_PATH).read_text(encoding="utf-8")
    found = dict(re.findall(r"export const (\w+) = /\*\* @type \{const\} \*/ \((.*)\);", js))
    assert (
        json.loads(found["KEPT"]) == list(KEPT) == ["table", "last_trick", "hand_rounds", "winners"]
    )
    assert json.loads(found["VIEW_KEPT"]) == list(VIEW_KEPT) == ["tricks"]
    schema = json.loads((ROOT / protocol_schema.SCHEMA_PATH).read_text(encoding="utf-8"))
    state = schema["$defs"]["StateOut"]
    assert [k for k in KEPT if k in state["required"]] == []


def test_the_schema_describes_what_the_server_sends() -> None:
    """The generated JSON Schema itself (not the models) takes every state of a game, whole or
    short, and an error; it refuses a state with a key it does not know."""
    schema = json.loads((ROOT / protocol_schema.SCHEMA_PATH).read_text(encoding="utf-8"))
    server = {**schema, "$ref": "#/$defs/ServerMessage"}
    check = jsonschema.Draft202012Validator(server)
    rs = load_ruleset("skip-the-salad", {"toppings": "all"})
    row = TableRow("t", rs.preset, rs.settings, 4, None, None, "playing", 1)
    row.seats = [SeatRow(i, "human", f"P{i}") for i in range(4)]
    table = Table(row, rs)
    conns = [Conn(None, seat) for seat in [SPECTATOR, 0, 1, 2, 3]]  # type: ignore[arg-type]
    game = table.game = Game(rs, 4, seed=8)
    rng = random.Random(8)
    states: list[dict[str, Any]] = []
    while not game.is_over():
        message = table.state_messages()
        states += [json.loads(message(conn)) for conn in conns]
        game.play(rng.choice(game.legal_moves()))
        table.moves += 1
    for state in states[:: max(1, len(states) // 400)]:
        check.validate(state)
    check.validate(json.loads(error_message("seat 2 cannot play 6D")))
    assert not check.is_valid({**states[-1], "news": 1})
    client = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/ClientMessage"})
    client.validate({"type": "play", "move": "QS"})
    assert not client.is_valid({"type": "dance"})


def test_an_error_message_takes_any_text_a_client_sent() -> None:
    """A lone surrogate (valid in JSON text, not in UTF-8) quoted in an error is escaped, and
    the error is still an ErrorMessageOut; pydantic's own encoder would refuse it."""
    text = error_message("cannot read 'Q\ud800'")
    assert ErrorMessageOut.model_validate(json.loads(text)).message == "cannot read 'Q\ud800'"
    with pytest.raises(PydanticSerializationError):
        ErrorMessageOut(type="error", message="Q\ud800").model_dump_json()
