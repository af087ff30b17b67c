"""External bots: the JSON-lines protocol, the example bots, and every way a program can fail."""

from __future__ import annotations

import json
import pickle
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from salad import Game, SaladError, load_ruleset
from salad.bots import Bot, make_bot, parse_bots
from salad.bots.external import (
    PROTOCOL,
    WARN_LIMIT,
    ExternalBot,
    parse_answer,
    parse_command,
    shutdown_all,
)
from salad.cli import app
from salad.lab.match import run_match

ROOT = Path(__file__).resolve().parent.parent
LOWEST_JS = ROOT / "examples" / "bots" / "lowest.js"
FIRST_LEGAL_SH = ROOT / "examples" / "bots" / "first-legal.sh"
NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")

# One test program, told how to (mis)behave by its arguments: MODE [LOG] [N].
MISBOT = r"""
import json, os, sys, time

mode = sys.argv[1]
log = open(sys.argv[2], "a") if len(sys.argv) > 2 and sys.argv[2] != "-" else None
n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
cards = []
moves = 0

def say(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()

for line in sys.stdin:
    msg = json.loads(line)
    if log:
        log.write(json.dumps({"pid": os.getpid(), **msg}) + "\n")
        log.flush()
    kind = msg["type"]
    if kind == "hello":
        say(json.dumps({"type": "ready", "protocol": msg["protocol"]}))
    elif kind == "game":
        cards = msg["ruleset"]["deck"]["cards"]
    elif kind == "bye":
        break
    elif kind == "move":
        moves += 1
        legal = msg["legal"]
        if mode == "illegal" and msg["view"]["phase"] != "trump":
            held = set(msg["view"]["cards"])
            say(next(c for c in cards if c not in held))
        elif mode == "crash" and moves > n:
            sys.exit(3)
        elif mode == "sleep" and moves == 2 and not os.path.exists(sys.argv[4]):
            open(sys.argv[4], "w").close()
            time.sleep(30)
            say(legal[0])
        elif mode == "quit" and moves == n:  # answers, then leaves
            say(legal[0])
            sys.exit(0)
        elif mode == "garbage":
            say("hello world, how are you?")
        elif mode == "chatty":  # a late answer to an older request, then the answer
            say(json.dumps({"id": msg["id"] - 1, "move": "too late"}))
            say(json.dumps({"id": msg["id"], "move": legal[-1]}))
        else:
            say(legal[0])
"""


@pytest.fixture(autouse=True)
def _stop_programs() -> Iterator[None]:
    yield
    shutdown_all()


@pytest.fixture
def misbot(tmp_path: Path) -> Path:
    path = tmp_path / "misbot.py"
    path.write_text(MISBOT)
    return path


def command(script: Path, *args: object) -> str:
    return "cmd:" + " ".join([sys.executable, str(script), *map(str, args)])


def messages(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def play(bots: Sequence[Bot], rules: str = "canadian", settings: Any = None, seed: int = 1) -> Game:
    game = Game(load_ruleset(rules, settings), len(bots), seed=seed)
    while not game.is_over():
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat)))
    return game


def randoms(k: int) -> list[Bot]:
    return [make_bot("random", seed) for seed in range(k)]


# -- the protocol ----------------------------------------------------------------------------------


def test_protocol_messages(misbot: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bot = make_bot(command(misbot, "first", log), seed=1)
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)])
    bot.game_over(game.view(0))
    shutdown_all()
    got = messages(log)
    hello, start = got[0], got[1]
    assert hello["type"] == "hello" and hello["protocol"] == PROTOCOL == 1
    assert start["type"] == "game" and start["protocol"] == PROTOCOL
    assert (start["seat"], start["players"], start["move_time"]) == (0, 4, 5.0)
    rules = start["ruleset"]
    assert rules["preset"] == "canadian" and rules["settings"] == {}
    assert "Canadian Salad" in rules["description"]
    assert len(rules["deck"]["cards"]) == 52 and rules["deck"]["cards_each"] == 13
    assert [h["round"] for h in rules["hands"]][:2] == ["No Tricks", "No Hearts"]
    assert rules["hands"][3]["penalties"][0]["cards"] == ["KS"]
    moves = [m for m in got if m["type"] == "move"]
    assert len(moves) == 6 * 13
    assert [m["id"] for m in moves] == list(range(1, len(moves) + 1))
    assert all(m["legal"] == m["view"]["legal"] and m["view"]["seat"] == 0 for m in moves)
    assert moves[0]["view"]["cards"] and moves[0]["time"] == 5.0
    ends = [m for m in got if m["type"] == "hand_end"]
    assert [e["hand"] for e in ends] == [1, 2, 3, 4, 5, 6]
    assert [tuple(e["points"]) for e in ends] == game.hand_points
    assert ends[-1]["totals"] == game.totals
    assert got[-2] == {
        "pid": got[0]["pid"],
        "type": "game_end",
        "totals": game.totals,
        "winners": game.winners(),
    }
    assert got[-1]["type"] == "bye"
    assert bot.errors == {"illegal": 0, "malformed": 0, "timeout": 0, "crash": 0}
    assert bot.fallback_moves == 0


def test_hand_end_comes_before_the_next_move(misbot: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    play([make_bot(command(misbot, "first", log)), *randoms(3)])
    kinds = [m["type"] for m in messages(log)]
    first_end = kinds.index("hand_end")
    # the 13 moves of the first hand, then its end, then the second hand's moves
    assert kinds[2:first_end] == ["move"] * 13 and kinds[first_end + 1] == "move"


def test_one_program_plays_many_games(misbot: Path, tmp_path: Path) -> None:
    """A fresh bot per game (as matches and the server build them) reuses the program."""
    log = tmp_path / "log.jsonl"
    for seed in range(3):
        bot = make_bot(command(misbot, "first", log))
        play([*randoms(seed), bot, *randoms(3 - seed)], seed=seed)
        del bot
    shutdown_all()
    got = messages(log)
    assert len({m["pid"] for m in got}) == 1
    kinds = [m["type"] for m in got]
    assert kinds.count("hello") == 1 and kinds.count("game") == 3
    assert kinds.count("game_end") == 3 and kinds[-1] == "bye"
    assert [m["seat"] for m in got if m["type"] == "game"] == [0, 1, 2]


def test_seats_played_by_fresh_bots_keep_their_programs(misbot: Path, tmp_path: Path) -> None:
    """The server builds a bot per decision: each seat finds its own program again."""
    log = tmp_path / "log.jsonl"
    spec = command(misbot, "first", log)
    game = Game(load_ruleset("canadian"), 4, seed=8)
    others = randoms(4)
    while not game.is_over():
        seat = game.to_move
        bot = make_bot(spec) if seat in (0, 2) else others[seat]
        game.play(bot.choose(game.view(seat)))
        del bot
    got = messages(log)
    seats: dict[int, set[int]] = {}
    for m in got:
        if m["type"] == "move":
            seats.setdefault(m["pid"], set()).add(m["view"]["seat"])
    assert sorted(map(sorted, seats.values())) == [[0], [2]]
    assert [m["type"] for m in got].count("game") == 2


def test_a_long_lived_bot_sees_new_games(misbot: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bots = [make_bot(command(misbot, "first", log)), *randoms(3)]
    for seed in range(2):
        play(bots, seed=seed)
    kinds = [m["type"] for m in messages(log)]
    assert kinds.count("hello") == 1 and kinds.count("game") == 2
    assert kinds.index("game_end") < len(kinds) - kinds[::-1].index("game")


def test_answers_are_read_leniently() -> None:
    game = Game(load_ruleset("skip-the-salad", {"toppings": "all"}), 4, seed=2)
    view = game.view(game.to_move)
    first = view.legal_moves[0]
    code = game.format_move(first)
    for answer in (code, code.lower(), f'"{code}"', json.dumps({"id": 1, "move": code})):
        assert parse_answer(view, answer) == (first, "", "")
    assert parse_answer(view, "trump:R")[1] == "illegal"
    assert parse_answer(view, "{not json")[1] == "malformed"
    assert parse_answer(view, '{"card": "QS"}')[1] == "malformed"
    while game.phase.name != "TRUMP":
        game.play(game.legal_moves()[0])
    view = game.view(game.to_move)
    for answer in ("trump:B", "B", "broccoli", '{"move": "trump:B"}'):
        move, _, _ = parse_answer(view, answer)
        assert move is not None and game.format_move(move) == "trump:B"
    assert parse_answer(view, "QS")[1] == "malformed"


def test_parse_command() -> None:
    assert parse_command("cmd:node bot.js") == ("node", "bot.js")
    assert parse_command("CMD: ./bot 'two words'") == ("./bot", "two words")
    with pytest.raises(SaladError, match="needs a program"):
        parse_command("cmd:")
    with pytest.raises(SaladError, match="cannot read"):
        parse_command("cmd:./bot 'unclosed")


# -- the example bots --------------------------------------------------------------------------


@needs_node
def test_node_example_plays_a_match_from_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(
        app,
        [
            "match",
            "--bots",
            "cmd:node examples/bots/lowest.js,random,random,random",
            "--deals",
            "1",
            "--workers",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    names = [b["name"] for b in summary["bots"]]
    assert names == ["cmd:node examples/bots/lowest.js", "random"]
    assert summary["games"] == 4
    assert "salad: bot" not in capfd.readouterr().err  # no warnings: every move was legal


@needs_node
def test_node_example_in_worker_processes(capfd: pytest.CaptureFixture[str]) -> None:
    result = run_match(
        load_ruleset("canadian"),
        4,
        [f"cmd:node {LOWEST_JS}", "basic", "basic", "basic"],
        deals=1,
        seed=3,
        workers=2,
    )
    assert len(result.games) == 4
    assert "salad: bot" not in capfd.readouterr().err


@needs_node
@pytest.mark.parametrize("example", ["lowest.js", "first-legal.sh"])
def test_examples_play_every_phase(example: str) -> None:
    """Skip the Salad with every topping: trump choices, passes, Wilds high and low."""
    path = ROOT / "examples" / "bots" / example
    spec = f"cmd:node {path}" if example.endswith(".js") else f"cmd:{path}"
    bots = parse_bots(f"{spec},basic,basic,basic", 4, seed=1)
    assert isinstance(bots[0], ExternalBot)
    external = bots[0]
    for seed in range(2):
        play(bots, "skip-the-salad", {"toppings": "all"}, seed=seed)
    assert external.errors == dict.fromkeys(external.errors, 0)
    assert external.fallback_moves == 0


def test_bash_example_on_the_server(tmp_path: Path) -> None:
    """The server's bot workers build a bot per decision through the registry."""
    from salad.bots.decide import choose_move

    game = Game(load_ruleset("canadian"), 4, seed=5)
    for _ in range(20):
        view = game.view(game.to_move)
        move = choose_move(f"cmd:{FIRST_LEGAL_SH}", 1, view)
        assert move == view.legal_moves[0]
        game.play(move)


def test_bots_pickle_before_they_start(misbot: Path) -> None:
    bot = make_bot(command(misbot, "first", "-"), seed=4, move_time=2)
    clone = pickle.loads(pickle.dumps(bot))
    assert isinstance(clone, ExternalBot)
    assert clone.move_time == 2.0 and clone.name == bot.name
    game = play([clone, *randoms(3)])
    assert game.is_over() and clone.fallback_moves == 0


def test_missing_programs_are_refused_before_play() -> None:
    with pytest.raises(SaladError, match="no program"):
        make_bot("cmd:./no/such/bot")
    with pytest.raises(SaladError, match="not on the PATH"):
        run_match(load_ruleset(), 4, ["cmd:no-such-salad-bot", "random"] * 2, deals=1)


# -- failures ------------------------------------------------------------------------------------


def warnings_in(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("salad: bot cmd:")]


def test_illegal_answers_fall_back(misbot: Path, capfd: pytest.CaptureFixture[str]) -> None:
    bot = make_bot(command(misbot, "illegal", "-"), seed=2)
    assert isinstance(bot, ExternalBot)
    game = play([*randoms(2), bot, *randoms(1)])
    assert game.is_over()
    assert bot.errors["illegal"] == 6 * 13 == bot.fallback_moves
    assert bot.errors["malformed"] == bot.errors["crash"] == bot.errors["timeout"] == 0
    shown = warnings_in(capfd.readouterr().err)
    assert len(shown) == WARN_LIMIT  # the rest are only counted
    assert "illegal answer" in shown[0] and "is not legal now" in shown[0]
    assert "basic plays instead" in shown[0]
    assert "further illegal warnings are not shown" in shown[-1]


def test_garbage_is_malformed(misbot: Path, capfd: pytest.CaptureFixture[str]) -> None:
    bot = make_bot(command(misbot, "garbage", "-"), seed=2, fallback="random")
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)], "skip-the-salad", {"toppings": "all"})
    assert game.is_over()
    assert bot.errors["malformed"] == bot.fallback_moves > 6 * 15
    shown = warnings_in(capfd.readouterr().err)
    assert "malformed answer 'hello world, how are you?'" in shown[0]
    assert "random plays instead" in shown[0]


def test_stray_lines_are_dropped(misbot: Path, capfd: pytest.CaptureFixture[str]) -> None:
    bot = make_bot(command(misbot, "chatty", "-"))
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)])
    assert game.is_over() and bot.fallback_moves == 0
    assert bot.stray_lines == 6 * 13
    assert "dropped 1 line(s) that answered nothing asked now" in capfd.readouterr().err


def test_a_crashing_program_restarts_then_retires(
    misbot: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "log.jsonl"
    bot = make_bot(command(misbot, "crash", log, 5), seed=3, restarts=1)
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)])
    assert game.is_over()
    assert bot.errors["crash"] == 2 and bot.retired
    assert bot.fallback_moves == 6 * 13 - 10  # two programs made five moves each
    got = messages(log)
    assert len({m["pid"] for m in got}) == 2
    restarted = [m for m in got if m["pid"] == got[-1]["pid"]]
    assert [m["type"] for m in restarted[:2]] == ["hello", "game"]
    shown = warnings_in(capfd.readouterr().err)
    assert len(shown) == 2
    assert "closed its output (exit code 3)" in shown[0] and "restarts" in shown[0]
    assert "retired after 2 failures; basic plays for it" in shown[1]


def test_a_program_that_leaves_between_moves(
    misbot: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    bot = make_bot(command(misbot, "quit", "-", 30), seed=3)
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)])
    assert game.is_over() and not bot.retired
    assert bot.errors["crash"] == 2 and bot.fallback_moves == 2  # moves 31 and 62
    assert "(exit code 0); basic plays this move" in capfd.readouterr().err


def test_a_slow_program_times_out(
    misbot: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "slept"
    bot = make_bot(command(misbot, "sleep", "-", 0, marker), seed=3, move_time=1.0)
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)])
    assert game.is_over() and marker.exists()
    assert bot.errors == {"illegal": 0, "malformed": 0, "timeout": 1, "crash": 0}
    assert bot.fallback_moves == 1 and not bot.retired
    shown = warnings_in(capfd.readouterr().err)
    assert len(shown) == 1 and "did not answer within 1 s" in shown[0]


def test_a_program_that_never_answers_hello(tmp_path: Path) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n")
    bot = make_bot(command(script), start_time=0.3, restarts=0, quiet=True)
    assert isinstance(bot, ExternalBot)
    game = play([bot, *randoms(3)])
    assert game.is_over() and bot.retired
    assert bot.errors["timeout"] == 1 and bot.fallback_moves == 6 * 13


def test_bots_play_on_after_a_shutdown(misbot: Path, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    bots = [make_bot(command(misbot, "first", log)), *randoms(3)]
    play(bots, seed=1)
    shutdown_all()
    play(bots, seed=2)
    shutdown_all()
    kinds = [m["type"] for m in messages(log)]
    assert kinds.count("hello") == 2 and kinds.count("bye") == 2
    assert isinstance(bots[0], ExternalBot) and bots[0].errors["crash"] == 0


def test_a_simulation_whose_external_bot_failed_says_so_and_fails(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """`simulate --bots cmd:true`: the program ends at once, basic plays all its moves; the
    seat's line and the JSON count them, and the run exits 1 with one line saying why (it
    exited 0 crediting "cmd:true"), unless --allow-fallback."""
    args = ["simulate", "--games", "1", "--bots", "cmd:true,random,random,random", "--json"]
    failed = CliRunner().invoke(app, args)
    assert failed.exit_code == 1, failed.output
    assert (
        "seat 0 (cmd:true)" in failed.output and "of its moves: its program failed" in failed.output
    )
    assert (
        failed.output.strip()
        .splitlines()[-1]
        .startswith(
            "error: an external bot's program failed (cmd:true in seat 0): the fallback bot made "
        )
    )
    accepted = CliRunner().invoke(app, [*args, "--allow-fallback"])
    assert accepted.exit_code == 0, accepted.output
    summary = json.loads(accepted.output.strip().splitlines()[-1])
    assert summary["fallback_moves"][0] > 0 and summary["fallback_moves"][1:] == [0, 0, 0]
    capfd.readouterr()  # the program's warnings


def test_a_match_whose_external_bot_failed_says_so_and_fails(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """The same in a match played by two worker processes: the count comes back with each
    game, the summary names the bot, and the run exits 1 unless --allow-fallback."""
    args = ["match", "--bots", "cmd:true,random,random,random", "-d", "1", "-w", "2", "--json"]
    failed = CliRunner().invoke(app, args)
    assert failed.exit_code == 1, failed.output
    assert "cmd:true: its program failed; the fallback bot made " in failed.output
    accepted = CliRunner().invoke(app, [*args, "--allow-fallback"])
    assert accepted.exit_code == 0, accepted.output
    summary = json.loads(accepted.stdout.strip().splitlines()[-1])
    assert summary["fallback_moves"]["cmd:true"] > 0
    capfd.readouterr()


def test_a_tournament_whose_external_bot_failed_says_so_and_fails(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """And in a tournament: the entrant's line, then one error line and exit 1 unless
    --allow-fallback."""
    args = ["tournament", "-b", "cmd:true,random,random", "-n", "3", "-g", "3", "-w", "1"]
    args += ["--no-plots"]
    failed = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "a")])
    assert failed.exit_code == 1, failed.output
    assert "cmd:true: its program failed; the fallback bot made " in failed.output
    accepted = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "b"), "--allow-fallback"])
    assert accepted.exit_code == 0, accepted.output
    capfd.readouterr()
