"""`salad review`: the same review as the library, one-line errors for bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from salad import Game, load_ruleset
from salad.bots import make_bot
from salad.cli import app
from salad.formats.records import record_from_game, write_records
from salad.lab.review import ReviewOptions, review_record

RULES = load_ruleset("canadian")


def finished_record(seed: int = 4) -> dict[str, object]:
    game = Game(RULES, 4, seed=seed)
    bot = make_bot("basic", 1)
    while not game.is_over():
        game.play(bot.choose(game.view(game.to_move)))
    return record_from_game(game)


def _file(tmp_path: Path, *records: dict[str, object]) -> Path:
    path = tmp_path / "games.jsonl"
    write_records(path, list(records))
    return path


def _error(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_the_json_review_is_the_librarys(tmp_path: Path) -> None:
    record = finished_record()
    path = _file(tmp_path, finished_record(9), record)
    result = CliRunner().invoke(
        app, ["review", str(path), "--game", "2", "--seat", "1", "--worlds", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    want = review_record(record, [1], ReviewOptions(worlds=4), game_number=2)
    assert got == json.loads(want.model_dump_json())
    assert got["seats"][0]["seat"] == 1 and len(got["seats"][0]["decisions"]) == 78
    # sums of estimates rounded as the estimates are: no float noise (249.10000000000002)
    assert not re.search(r"\d\.\d{3,}", result.stdout), "float noise in the JSON"


def test_the_text_review_lists_hands_and_the_costliest_choices(tmp_path: Path) -> None:
    path = _file(tmp_path, finished_record())
    result = CliRunner().invoke(app, ["review", str(path), "--all", "--worlds", "3", "--hindsight"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("Seat ") >= 4 and "Hand 6 " in out
    assert "forced by the deal" in out and "hindsight: best" in out
    assert "Costliest choices:" in out or "No choice cost points" in out


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    assert _error(["review", str(missing)]) == f"error: {missing}: no such file"
    path = _file(tmp_path, finished_record())
    assert "seats 0 to 3" in _error(["review", str(path), "--seat", "5"])
    assert "holds 1 game" in _error(["review", str(path), "--game", "2"])
    assert "--worlds must be 1 or more" in _error(["review", str(path), "--worlds", "0"])
    game = Game(RULES, 4, seed=2)
    for _ in range(7):
        game.play(game.legal_moves()[0])
    unfinished = _file(tmp_path, record_from_game(game))
    assert _error(["review", str(unfinished)]) == (
        "error: review: game 1 is not finished; a review of an unfinished game would reveal "
        "what the search infers"
    )
