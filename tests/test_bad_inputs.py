"""The bad-input sweep: every command and subcommand given bad arguments, files and values.

Each case is an argument list, the exit status expected and words the output must hold. Every
case must end without a traceback; an error (status 1: bad input the command read; 2: a command
line Click could not parse) is exactly one line on stderr starting ``error:``; a success says
what it did. No bad input may be accepted silently. The cases run in this process through
:func:`salad.cli.errors.run_app` (what the ``salad`` script runs), so the sweep is fast.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from salad import Game, load_ruleset
from salad.bots.play import play_out
from salad.bots.registry import parse_bots
from salad.cli import app
from salad.cli.errors import run_app
from salad.formats.records import dump_record, record_from_game

Case = tuple[list[str], int, str]

DEEP = 100_000
"""Nesting that no parser follows (Python's recursion limit is about 1000)."""


def _record(seed: int) -> dict[str, object]:
    rs = load_ruleset("canadian")
    game = play_out(Game(rs, 4, seed=seed), parse_bots("random", 4, seed))
    return record_from_game(game)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every kind of bad (and a few good) input file, made once."""
    d = tmp_path_factory.mktemp("inputs")
    good = _record(1)
    (d / "good.json").write_text(json.dumps(good))
    (d / "many.jsonl").write_text("\n".join(dump_record(_record(s)) for s in (1, 2, 3)) + "\n")
    tampered = json.loads(json.dumps(good))
    tampered["hands"][0]["tricks"][0]["cards"].reverse()
    (d / "tampered.json").write_text(json.dumps(tampered))
    totals = json.loads(json.dumps(good))
    totals["totals"] = [0, 0, 0, 0]
    (d / "totals.json").write_text(json.dumps(totals))
    (d / "empty.json").write_text("")
    (d / "empty.jsonl").write_text("")
    (d / "blank.jsonl").write_text("\n\n  \n")
    (d / "deep.json").write_text("[" * DEEP + "]" * DEEP)
    (d / "deep.jsonl").write_text("[" * DEEP + "]" * DEEP + "\n")
    deep_record = json.loads(json.dumps(good))
    deep_record["ruleset"] = {"preset": "canadian", "settings": {"points": _nest(900)}}
    (d / "deep-inside.json").write_text(json.dumps(deep_record))
    (d / "deep.toml").write_text("a = " + "[" * DEEP + "]" * DEEP + "\n")
    (d / "deep-tables.toml").write_text("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")
    (d / "garbage.json").write_text("this is not json\n")
    (d / "garbage.toml").write_text("this is = not [toml\n")
    (d / "binary.json").write_bytes(b"\xff\xfe\x00\x01" * 10)
    (d / "binary.toml").write_bytes(b"\xff\xfe\x00\x01" * 10)
    (d / "numbers.json").write_text("[1, 2, 3]")
    (d / "object.json").write_text('{"format": "something-else"}')
    (d / "unknown.toml").write_text('preset = "canadian"\nnot_a_key = 1\n')
    (d / "badpreset.toml").write_text('preset = "nope"\n')
    (d / "badvalue.toml").write_text("[points]\nqueens = 'x'\n")
    (d / "sheet.json").write_text('{"format": "salad-score/1", "players": []}')
    (d / "folder").mkdir()
    (d / "file").write_text("a file where a folder should be\n")
    return d


def _nest(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = {"a": value}
    return value


# -- the table ------------------------------------------------------------------------------------
# Paths are written "@name": the file of that name in the fixture's folder.

PLAYERS_BAD = [("x", 2), ("2.5", 2), ("", 2), ("-1", 1), ("0", 1), ("1", 1), ("99", 1)]
BOTS_BAD = [("", 2, "nothing named"), (",,,", 2, "nothing named"), (" ", 2, "nothing named"),
            ("random,,basic", 2, "blank"), ("nosuch", 1, "unknown bot"),
            ("random,random", 1, "bots")]  # fmt: skip
RULES_BAD = [
    ("nosuch", "unknown preset"),
    ("", "unknown preset"),
    ("@deep.toml", "nested too deeply"),
    ("@deep-tables.toml", "deep"),
    ("@missing.toml", "no such file"),
    ("@folder/", "directory"),
    ("@garbage.toml", "TOML syntax error"),
    ("@binary.toml", "not UTF-8"),
    ("@unknown.toml", "unknown key"),
    ("@badpreset.toml", "not a preset"),
    ("@badvalue.toml", "whole number"),
]
TOPPINGS_BAD = [("", 2, "nothing named"), (",,", 2, "nothing named"), ("a,,b", 2, "blank"),
                ("nope", 1, "nope"), ("rotten-tomato", 1, "Tomatoes")]  # fmt: skip
SWAP_BAD = [("nonsense", "swap"), ("9=no-evens", "swap"), ("2=nosuch", "nosuch"), ("=", "swap")]
RECORD_BAD = [
    ("@missing.json", "no such file"),
    ("@empty.json", "empty file"),
    ("@empty.jsonl", "no records"),
    ("@blank.jsonl", "no records"),
    ("@deep.json", "nested too deeply"),
    ("@deep.jsonl", "nested too deeply"),
    ("@deep-inside.json", "deep"),
    ("@garbage.json", "not valid JSON"),
    ("@binary.json", "not UTF-8"),
    ("@numbers.json", "must be a JSON object"),
    ("@object.json", "format"),
    ("@folder", "folder"),
    ("@tampered.json", "tampered"),
    ("@totals.json", "totals"),
]

# Each game command with what it needs to get as far as its options (fast, no stdin).
GAME_COMMANDS: dict[str, list[str]] = {
    "simulate": ["simulate", "-g", "1"],
    "demo": ["demo"],
    "match": ["match", "-b", "random,random,random,random", "-d", "1", "-w", "1"],
    "tournament": [
        "tournament",
        "-b",
        "random,random,random,random",
        "-g",
        "2",
        "-w",
        "1",
        "--no-plots",
        "--out",
        "@tournament",
    ],  # fmt: skip
    "score": ["score"],
    "play": ["play", "--plain"],
}
BOT_COMMANDS = {
    "simulate": ["simulate", "-g", "1"],
    "demo": ["demo"],
    "match": ["match", "-d", "1", "-w", "1"],
    "tournament": ["tournament", "-g", "2", "-w", "1", "--no-plots", "--out", "@tournament"],
    "play": ["play", "--plain"],
}


PARAM = type(pytest.param(None))
"""What ``pytest.param`` makes (named ``pytest.ParameterSet`` only from pytest 9.2)."""


def _generated() -> Iterator[Any]:
    for name, base in {"rules": ["rules"], **GAME_COMMANDS}.items():
        for value, status in PLAYERS_BAD:
            if name == "tournament" and value == "1":
                continue
            words = "players" if status == 1 else "--players"
            yield pytest.param([*base, "--players", value], status, words,
                               id=f"{name}--players={value!r}")  # fmt: skip
        for value, words in RULES_BAD:
            args = [*base, value] if name == "rules" else [*base, "--rules", value]
            yield pytest.param(args, 1, words, id=f"{name}--rules={value!r}")
        for value, status, words in TOPPINGS_BAD:
            yield pytest.param([*base, "--toppings", value], status, words,
                               id=f"{name}--toppings={value!r}")  # fmt: skip
        for value, words in SWAP_BAD:
            yield pytest.param([*base, "--swap", value], 1, words, id=f"{name}--swap={value!r}")
        yield pytest.param([*base, "--no-such-option"], 2, "no such option",
                           id=f"{name}-unknown-option")  # fmt: skip
    for name, base in BOT_COMMANDS.items():
        for value, status, words in BOTS_BAD:
            if name == "match" and value in ("random,random", "nosuch"):
                words = "one per seat"
            if name == "tournament" and value == "random,random":
                words = "at least"
            if name == "play" and value == "random,random":
                words = "bots"
            yield pytest.param([*base, "--bots", value], status, words,
                               id=f"{name}--bots={value!r}")  # fmt: skip
    for sub in ("verify", "show"):
        for value, words in RECORD_BAD:
            yield pytest.param(["record", sub, value], 1, words, id=f"record-{sub}-{value}")
    for value, _words in RECORD_BAD[:6]:
        yield pytest.param(["score", "--load", value], 1, "", id=f"score--load={value}")


CASES: list[Any] = [  # Case, or a Case in pytest.param
    *_generated(),
    # the whole command
    pytest.param(["--version"], 0, "salad 0.1.0", id="version"),
    pytest.param(["nosuch"], 2, "no such command", id="unknown-command"),
    pytest.param(["--nosuch"], 2, "no such option", id="unknown-top-option"),
    pytest.param(["record", "nosuch"], 2, "no such command", id="record-unknown"),
    pytest.param(["record", "verify"], 2, "missing argument", id="record-verify-no-file"),
    pytest.param(["record", "show"], 2, "missing argument", id="record-show-no-file"),
    # option values Click checks: one line, naming the option
    pytest.param(["simulate", "-g", "0"], 2, "--games", id="simulate-games-0"),
    pytest.param(["simulate", "-g", "x"], 2, "--games", id="simulate-games-x"),
    pytest.param(["simulate", "-s", "x"], 2, "--seed", id="simulate-seed-x"),
    pytest.param(["demo", "-s", "1.5"], 2, "--seed", id="demo-seed-float"),
    pytest.param(
        ["match", "-b", "random,random,random,random", "-d", "0"], 1, "deals", id="match-deals-0"
    ),  # fmt: skip
    pytest.param(
        ["match", "-b", "random,random,random,random", "-d", "x"], 2, "--deals", id="match-deals-x"
    ),  # fmt: skip
    pytest.param(
        ["match", "-b", "random,random,random,random", "-d", "1", "--move-time", "-1"],
        1,
        "move time",
        id="match-move-time-negative",
    ),  # fmt: skip
    pytest.param(
        ["match", "-b", "random,random,random,random", "-d", "1", "-w", "0"],
        1,
        "workers",
        id="match-workers-0",
    ),  # fmt: skip
    pytest.param(["match", "-d", "1"], 1, "one bot per seat", id="match-no-bots"),
    pytest.param(["tournament", "--out", "@t0"], 1, "name the entrants", id="tournament-no-bots"),
    pytest.param(
        ["tournament", "-b", "random,random,random,random", "-g", "0", "--out", "@t1"],
        1,
        "games",
        id="tournament-games-0",
    ),  # fmt: skip
    pytest.param(
        ["tournament", "-b", "random,random,random,random", "--backend", "nope", "--out", "@t2"],
        1,
        "backend",
        id="tournament-backend",
    ),  # fmt: skip
    pytest.param(
        ["tournament", "-b", "random,random,random,random", "--address", "ray://x", "--out", "@t3"],
        1,
        "address",
        id="tournament-address",
    ),  # fmt: skip
    pytest.param(
        ["tournament", "-b", "random,random,random,random", "-w", "0", "--out", "@t4"],
        1,
        "workers",
        id="tournament-workers-0",
    ),  # fmt: skip
    pytest.param(
        ["tournament", "-b", "random,random,random,random", "--move-time", "0", "--out", "@t5"],
        1,
        "move time",
        id="tournament-move-time-0",
    ),  # fmt: skip
    pytest.param(
        ["tournament", "-b", "random,random,random,random", "--out", "@file"],
        1,
        "not a directory",
        id="tournament-out-is-a-file",
    ),  # fmt: skip
    pytest.param(["play", "--plain", "--seat", "9"], 1, "seat", id="play-seat-9"),
    pytest.param(["play", "--plain", "--delay", "-1"], 2, "--delay", id="play-delay"),
    pytest.param(
        ["play", "--plain", "--resume", "@missing.json"],
        1,
        "no such file",
        id="play-resume-missing",
    ),  # fmt: skip
    pytest.param(
        ["play", "--plain", "--resume", "@good.json", "--rules", "canadian"],
        1,
        "cannot change a saved game",
        id="play-resume-with-rules",
    ),  # fmt: skip
    pytest.param(
        ["score", "--load", "@sheet.json", "-r", "canadian"],
        1,
        "--load takes",
        id="score-load-with-rules",
    ),  # fmt: skip
    pytest.param(["score", "--load", "@sheet.json"], 1, "ruleset", id="score-load-bad-sheet"),
    pytest.param(["score", "--load", "@deep.json"], 1, "deep", id="score-load-deep"),
    # the server: checked before it listens
    pytest.param(
        ["serve", "--database", "garbage://x"],
        1,
        "not a database the server knows",
        id="serve-database-garbage",
    ),  # fmt: skip
    pytest.param(
        ["serve", "--database", "sqlite:////no/such/dir/x.db"],
        1,
        "does not exist",
        id="serve-database-no-folder",
    ),  # fmt: skip
    pytest.param(
        ["serve", "--database", "/no/such/dir/x.db"],
        1,
        "does not exist",
        id="serve-database-path-no-folder",
    ),  # fmt: skip
    pytest.param(
        ["serve", "--database", "mysql://u@h/x"],
        1,
        "not a database the server knows",
        id="serve-database-mysql",
    ),  # fmt: skip
    pytest.param(["serve", "--port", "0"], 2, "--port", id="serve-port-0"),
    pytest.param(["serve", "--port", "70000"], 2, "--port", id="serve-port-big"),
    pytest.param(["serve", "--port", "x"], 2, "--port", id="serve-port-x"),
    pytest.param(["serve", "--workers", "0"], 2, "--workers", id="serve-workers-0"),
    pytest.param(["serve", "--bot-delay", "x"], 2, "--bot-delay", id="serve-bot-delay"),
    pytest.param(
        ["serve", "--proxy", "10.0.0.5,balancer"],
        1,
        "--proxy: 'balancer' is not an IP address or network",
        id="serve-proxy-name",
    ),  # fmt: skip
    # records: one game of many, the listing verified first
    pytest.param(
        ["record", "show", "@many.jsonl", "--game", "2"], 0, "Seed: 2", id="record-show-game-2"
    ),  # fmt: skip
    pytest.param(
        ["record", "show", "@many.jsonl", "--game", "4"],
        1,
        "holds 3 games",
        id="record-show-game-4-of-3",
    ),  # fmt: skip
    pytest.param(
        ["record", "show", "@good.json", "--game", "2"],
        1,
        "holds 1 game",
        id="record-show-game-2-of-1",
    ),  # fmt: skip
    pytest.param(
        ["record", "show", "@many.jsonl", "--game", "0"], 2, "--game", id="record-show-game-0"
    ),  # fmt: skip
    pytest.param(
        ["record", "verify", "@many.jsonl", "--game", "x"], 2, "--game", id="record-verify-game-x"
    ),  # fmt: skip
    pytest.param(
        ["record", "verify", "@many.jsonl", "--game", "3"], 0, "OK", id="record-verify-game-3"
    ),  # fmt: skip
    pytest.param(
        ["record", "show", "@tampered.json", "--no-verify"],
        0,
        "NOT VERIFIED",
        id="record-show-no-verify",
    ),  # fmt: skip
    # what is accepted says so
    pytest.param(["rules", "Canadian"], 0, "Canadian Salad", id="rules-preset-case"),
    pytest.param(["rules", "SKIP-THE-SALAD"], 0, "Skip the Salad", id="rules-preset-upper"),
    pytest.param(
        ["simulate", "-g", "1", "-r", "Fruit-Salad", "-b", "RANDOM"],
        0,
        "1 game of Fruit Salad",
        id="simulate-case",
    ),  # fmt: skip
    pytest.param(["demo", "-s", "3", "--tricks"], 0, "Trick  1", id="demo-tricks"),
    pytest.param(["demo", "-s", "3"], 0, "--tricks shows every trick", id="demo-says-what"),
    # salad review (#17)
    pytest.param(["review"], 2, "missing argument", id="review-no-file"),
    pytest.param(["review", "@nosuch.json"], 1, "no such file", id="review-missing-file"),
    pytest.param(["review", "@empty.json"], 1, "empty file", id="review-empty-file"),
    pytest.param(["review", "@tampered.json"], 1, "tampered.json: hand", id="review-tampered"),
    pytest.param(["review", "@many.jsonl", "--game", "4"], 1, "holds 3", id="review-game-4"),
    pytest.param(["review", "@good.json", "--seat", "9"], 1, "seats 0 to", id="review-seat-9"),
    pytest.param(["review", "@good.json", "--worlds", "0"], 1, "--worlds", id="review-worlds-0"),
    pytest.param(["review", "@good.json", "--move-time", "-1"], 1, "--move-time", id="review-t"),
]


def _resolve(args: list[str], files: Path, tmp_path: Path) -> list[str]:
    out = []
    for a in args:
        if a.startswith("@"):
            name = a[1:]
            base = tmp_path if name.startswith("t") and not (files / name).exists() else files
            a = str(base / name) + ("/" if name.endswith("/") else "")
        out.append(a)
    return out


@pytest.mark.parametrize(("args", "status", "words"), CASES)
def test_bad_input(
    args: list[str],
    status: int,
    words: str,
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a prompt reached ends at once
    argv = _resolve(args, files, tmp_path)
    code = run_app(app, argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err, err
    assert code == status, (argv, out, err)
    if status == 0:
        assert words in out, out
        return
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    assert words.lower() in lines[0].lower(), lines[0]


def test_the_sweep_is_wide() -> None:
    assert len(CASES) >= 150


def test_no_command_is_left_out() -> None:
    """Every command of the app appears in the sweep."""
    names = {c.name for c in app.registered_commands} | {"record"}
    cases: list[Case] = [cast(Case, c.values if isinstance(c, PARAM) else c) for c in CASES]
    swept = {args[0] for args, _status, _words in cases}
    assert names <= swept
