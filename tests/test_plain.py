"""`salad play --plain`: a whole game as lines of text, through a pipe and in-process."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from test_cli import salad_here

from salad.events import Deal, Play, TokenTaken
from salad.formats.rules import load_ruleset
from salad.tui.plain import run_plain
from salad.tui.session import Session

SALAD = str(Path(sys.executable).with_name("salad"))
PROMPT_END = "help):"


def first_legal(lines: list[str]) -> str:
    legal = next(line for line in reversed(lines) if line.startswith("Legal: "))
    return legal.split()[1]


def drive(
    args: list[str],
    answer: Callable[[list[str]], str | None] = first_legal,
    timeout: float = 60.0,
    hang_up_at: int | None = None,
    salad: str = SALAD,
    cwd: Path | None = None,
) -> tuple[int, list[str], str]:
    """Run ``salad play --plain ARGS`` on pipes, answering every prompt with ``answer(lines so
    far)`` (None closes stdin); the exit status, the lines of stdout and stderr. ``hang_up_at``:
    at that prompt (from 1), SIGHUP instead of an answer, as a closed terminal sends.
    ``salad``: the command (another installation's); ``cwd``: where it runs."""
    proc = subprocess.Popen(
        [salad, "play", "--plain", *args],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        bufsize=1,
    )
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    lines_q: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines_q.put(line.rstrip("\n"))
        lines_q.put(None)

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + timeout
    lines: list[str] = []
    prompts = 0
    while True:
        try:
            line = lines_q.get(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            proc.kill()
            tail = "\n".join(lines[-30:])
            raise AssertionError(f"salad play --plain did not finish:\n{tail}") from None
        if line is None:
            break
        lines.append(line)
        if line.endswith(PROMPT_END) and line.startswith("Your "):
            prompts += 1
            if prompts == hang_up_at:
                proc.send_signal(signal.SIGHUP)
                continue
            reply = answer(lines)
            if reply is None:
                proc.stdin.close()
            else:
                proc.stdin.write(reply + "\n")
                proc.stdin.flush()
    code = proc.wait(timeout=10)
    return code, lines, proc.stderr.read()


@pytest.fixture(scope="module")
def game_through_a_pipe() -> tuple[int, list[str], str]:
    """A whole game against random bots (seed 3) through a pipe, played once for the tests
    that read it: the exit status, the lines of stdout and stderr."""
    return drive(["--bots", "random", "--seed", "3"])


def test_a_whole_game_through_a_pipe(game_through_a_pipe: tuple[int, list[str], str]) -> None:
    code, lines, err = game_through_a_pipe
    assert code == 0, err
    assert "Final scores:" in lines
    total = next(line for line in lines if line.split()[:1] == ["Total"])
    assert total.endswith("1120 ok")
    prompts = [line for line in lines if line.endswith(PROMPT_END)]
    assert len(prompts) == 6 * 13  # one card a trick, every card legal
    state = lines[lines.index(prompts[0]) - 7 : lines.index(prompts[0])]
    assert state[0].startswith("--- Hand 1 of 6: No Tricks (Tricks 10 each)")
    assert any(line.startswith("Your hand: ") for line in state)
    assert any(line.startswith("Points this hand: You 0") for line in state)
    assert "Traceback" not in err


def test_basic_bots_and_every_topping_through_a_pipe() -> None:
    """Skip the Salad with every topping: passing, trump choices and Wilds, all from the
    printed legal list."""
    code, lines, err = drive(
        ["--rules", "skip-the-salad", "-t", "all", "-n", "3", "--bots", "basic", "--seed", "5"]
    )
    assert code == 0, err
    text = "\n".join(lines)
    assert "Pass 2 cards to" in text and "Final scores:" in text
    assert "Legal: " in text and "W" in text
    assert any(line.startswith("Trump: ") for line in lines)
    assert lines[-1].endswith("total.") or lines[-1].endswith("!")


def test_bad_input_gets_one_line_reasons_and_eof_exits_cleanly() -> None:
    replies = iter(["xx", "zz9", "", "2c 3c", "undo"])

    def answer(lines: list[str]) -> str | None:
        return next(replies, None)

    code, lines, err = drive(["--bots", "random", "--seed", "1"], answer, timeout=30)
    assert code == 1
    assert "end of input" in err and "Traceback" not in err
    assert "'xx' is not a card: type e.g. QS, 10H (or help)." in lines
    assert "'zz9' is not a card: type e.g. QS, 10H (or help)." in lines
    assert any(line.startswith("One at a time") for line in lines)
    assert "Cannot undo: you have not made a move yet." in lines


def test_an_illegal_card_is_refused_with_the_reason() -> None:
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    g = session.game
    # Let the bots lead, then try a card that does not follow suit.
    while not session.human_turn():
        session.play(session.bot_choose(g.to_move, g.view(g.to_move)))
    legal = set(g.legal_moves())
    wrong = next(c for c in range(g.deck.size) if g.hands[0] >> c & 1 and c not in legal)
    missing = next(c for c in range(g.deck.size) if not g.hands[0] >> c & 1)
    out = io.StringIO()
    stdin = io.StringIO(f"{g.deck.format(wrong)}\n{g.deck.format(missing)}\nquit\n")
    code = run_plain(session, stdin, out, io.StringIO())
    assert code == 0
    text = out.getvalue().splitlines()
    follow = [line for line in text if line.startswith(f"You cannot play {g.deck.format(wrong)}")]
    assert follow and "you must follow" in follow[0]
    assert f"You cannot play {g.deck.format(missing)}: you do not hold that card." in text
    assert text[-1] == "Goodbye."


def test_commands(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=2)
    commands = ["help", "hint", "sheet", "last", "look", "rules", f"save {save}", "quit"]
    out = io.StringIO()
    code = run_plain(session, io.StringIO("\n".join(commands) + "\n"), out, io.StringIO())
    assert code == 0
    text = out.getvalue()
    assert "Commands:" in text and "Hint (" in text and "Total" in text
    assert "No trick has been played yet." in text
    assert "Game checksum" in text
    assert f"Saved to {save}" in text and save.exists()


def test_undo_takes_back_the_bot_replies_too() -> None:
    session = Session.new(load_ruleset("canadian"), 4, 1, "random", seed=6)
    g = session.game
    while not session.human_turn():
        session.play(session.bot_choose(g.to_move, g.view(g.to_move)))
    before = (g.log, session.view())
    session.play(g.legal_moves()[0])
    while not session.human_turn():
        session.play(session.bot_choose(g.to_move, g.view(g.to_move)))
    assert len(g.log) > len(before[0]) + 1
    assert session.undo() >= 2
    assert g.log == before[0] and session.view() == before[1]


def test_resume_continues_the_exact_game(tmp_path: Path) -> None:
    """Saved mid-hand and resumed: the same state, and the same deals for the rest."""
    save = tmp_path / "game.json"
    picks = 0

    def answer(lines: list[str]) -> str | None:
        nonlocal picks
        picks += 1
        if picks == 20:
            return f"save {save}"
        if picks == 21:
            return "quit"
        return first_legal(lines)

    code, lines, err = drive(["--bots", "basic", "--seed", "8", "--seat", "2"], answer)
    assert code == 0, err
    assert save.exists()
    # The state shown when the game was saved is shown again on resume.
    last_state = lines[max(i for i, line in enumerate(lines) if line.startswith("--- ")) :]
    state = [line for line in last_state if line[:6] in ("--- Ha", "Trick ", "Your h", "Legal:")]
    code2, lines2, err2 = drive(["--resume", str(save)], lambda lines: None)
    assert code2 == 1 and "end of input" in err2
    assert lines2[2] == f"Resumed from {save}."
    assert [line for line in lines2 if line[:6] in ("--- Ha", "Trick ", "Your h", "Legal:")][
        : len(state)
    ] == state
    # In-process: the resumed game is the saved one, move for move, deal for deal.
    resumed = Session.resume(save)
    assert resumed.seat == 2 and resumed.names[2] == "You"
    assert resumed.bot_names == ["basic", "basic", "", "basic"]
    fresh = Session.new(resumed.game.ruleset, 4, 2, "basic", seed=8)
    for event in resumed.game.events:  # the same plays on a fresh game with the same seed
        if isinstance(event, Play):
            fresh.game.play(event.move)
    assert fresh.game.log == resumed.game.log
    assert fresh.view() == resumed.view()
    for game in (resumed.game, fresh.game):
        while not game.is_over():
            game.play(game.legal_moves()[0])
    assert resumed.game.log == fresh.game.log and resumed.game.totals == fresh.game.totals


def test_a_closed_terminal_loses_no_move_and_continue_carries_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGHUP (the terminal closed) at the 12th card of a game with no --save file: every move
    made is kept in the user's data directory (nothing was written: the game was lost);
    --continue carries on with it to the end, a record that verifies, and the kept game is
    gone once the game is over."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "salad" / "games-in-progress"
    code, lines, err = drive(["--continue"], lambda lines: None)
    assert code == 1 and f"--continue: no game is left unfinished (none in {folder})" in err
    code, lines, err = drive(["--bots", "random", "--seed", "5"], hang_up_at=12)
    assert code == -signal.SIGHUP, err
    (kept,) = folder.iterdir()
    played = [e for e in Session.resume(kept).game.events if isinstance(e, Play)]
    assert len([e for e in played if e.seat == 0]) == 11  # every card of the first eleven turns
    done = tmp_path / "done.json"
    code, lines, err = drive(["--continue", "--save", str(done)])
    assert code == 0, err
    assert f"Resumed from {kept}." in lines and "Final scores:" in lines
    assert not kept.exists() and not list(folder.iterdir())
    check = subprocess.run([SALAD, "record", "verify", str(done)], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_terminal_app_closed_by_its_terminal_loses_no_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Textual app on a pseudo-terminal: Enter plays a card, then SIGHUP (the terminal
    closed) ends it; the game is kept with that card, and --continue takes it up."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "salad" / "games-in-progress"
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [SALAD, "play", "--bots", "random", "--seed", "5", "--delay", "0"],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TERM": "xterm"},
    )
    os.close(slave)

    def drain() -> None:  # the app's screens, read so that it never waits on a full terminal
        with contextlib.suppress(OSError):
            while os.read(master, 65536):
                pass

    threading.Thread(target=drain, daemon=True).start()
    try:
        deadline = time.monotonic() + 60
        while not folder.exists() and time.monotonic() < deadline and proc.poll() is None:
            os.write(master, b"\r")  # Enter: the card under the cursor
            time.sleep(0.5)
        assert folder.exists(), "no move was kept"
        proc.send_signal(signal.SIGHUP)
        assert proc.wait(10) == -signal.SIGHUP
    finally:
        proc.kill()
        os.close(master)
    (kept,) = folder.iterdir()
    session = Session.resume(kept)
    assert any(isinstance(e, Play) and e.seat == 0 for e in session.game.events)
    code, lines, err = drive(["--continue"], lambda lines: None)
    assert code == 1 and f"Resumed from {kept}." in lines


def test_a_new_game_on_a_terminal_offers_the_one_left_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`salad play` on a terminal, a game left unfinished: it asks first whether to carry on
    with it (it started a new one beside it, saying nothing), and yes resumes it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "salad" / "games-in-progress"
    drive(["--bots", "random", "--seed", "5"], hang_up_at=4)
    (kept,) = folder.iterdir()
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [SALAD, "play", "--plain"], stdin=slave, stdout=slave, stderr=slave, text=True
    )
    os.close(slave)
    seen, answered = b"", False
    try:
        deadline = time.monotonic() + 60
        while b"Resumed from" not in seen and time.monotonic() < deadline:
            ready, _w, _x = select.select([master], [], [], 0.5)
            if ready:
                seen += os.read(master, 65536)
            if b"[Y/n]" in seen and not answered:
                os.write(master, b"y\n")
                answered = True
    finally:
        proc.kill()
        proc.wait(10)
        os.close(master)
    text = seen.decode(errors="replace")
    assert f"A game left unfinished is kept ({kept.name}). Carry on with it?" in text
    assert f"Resumed from {kept}." in text


def test_end_of_input_says_where_the_game_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-D: the game stops, kept, and the line says where; a new game then says that one
    is waiting, and takes nothing of its file."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "salad" / "games-in-progress"
    picks = 0

    def answer(lines: list[str]) -> str | None:
        nonlocal picks
        picks += 1
        return first_legal(lines) if picks < 3 else None

    code, lines, err = drive(["--bots", "random", "--seed", "5"], answer)
    assert code == 1
    (kept,) = folder.iterdir()
    assert f"kept in {kept}: salad play --continue carries on with it" in err
    before = kept.read_text()
    picks = 0
    code, lines, err = drive(["--bots", "random", "--seed", "6"], answer)
    assert lines[0] == "1 game left unfinished is kept: salad play --continue carries on with it."
    assert len(list(folder.iterdir())) == 2 and kept.read_text() == before


def test_resume_refuses_new_rules_and_reports_bad_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = salad_here("play", "--plain", "--resume", str(bad))
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    result = salad_here("play", "--plain", "--resume", str(bad), "--rules", "extended")
    assert result.returncode == 1 and "--rules" in result.stderr
    result = salad_here("play", "--plain", "--bots", "nobody")
    assert result.returncode == 1 and "unknown bot" in result.stderr


NO_TEXTUAL = (
    "import sys; sys.modules['textual'] = None; "  # every `import textual...` fails
    "sys.argv = ['salad', *sys.argv[1:]]; from salad.cli import main; main()"
)


def test_without_textual_play_names_the_extra_and_plain_still_works() -> None:
    """Without Textual (the `tui` extra) the app says what to install in one line; --plain
    plays on."""
    master, slave = pty.openpty()  # a terminal, or play falls back to plain lines
    try:
        result = subprocess.run(
            [sys.executable, "-c", NO_TEXTUAL, "play", "--seed", "1"],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "TERM": "xterm"},
            timeout=60,
        )
    finally:
        os.close(slave)
        os.close(master)
    assert result.returncode == 1
    assert result.stderr == "error: salad play needs: pip install 'canadian-salad[tui]'\n"
    result = subprocess.run(
        [sys.executable, "-c", NO_TEXTUAL, "play", "--plain", "--seed", "1"],
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "Goodbye."


# -- issue 13: plain mode tells the truth -------------------------------------------------------


def to_your_turn(session: Session) -> str:
    """Let the bots play up to your turn; the code of your first legal card."""
    g = session.game
    while not session.human_turn():
        session.play(session.bot_choose(g.to_move, g.view(g.to_move)))
    return g.deck.format(g.legal_moves()[0] % g.deck.size)


def plain(session: Session, text: str, brief: bool = False) -> tuple[int, list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    extra = {"brief": True} if brief else {}
    code = run_plain(session, io.StringIO(text), out, err, **extra)
    return code, out.getvalue().splitlines(), err.getvalue()


def test_quit_asks_before_leaving_an_unsaved_game() -> None:
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    card = to_your_turn(session)
    code, lines, _ = plain(session, f"{card}\nq\nn\nquit\ny\n")
    assert code == 0
    asked = [line for line in lines if line.startswith("The game is not saved. Quit anyway?")]
    assert len(asked) == 2
    assert "Playing on (save FILE saves the game)." in lines and lines[-1] == "Goodbye."


def test_a_verb_before_the_card() -> None:
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    card = to_your_turn(session)
    before = len(session.game.log)
    code, lines, _ = plain(session, f"play {card.lower()}\nquit\ny\n")
    assert code == 0 and not any(line.startswith("One at a time") for line in lines)
    assert any(e[0] == 5 and e[1] == 0 for e in session.game.log[before:])


def test_brief_prints_one_line_per_card() -> None:
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    card = to_your_turn(session)
    code, lines, _ = plain(session, f"{card}\nquit\ny\n", brief=True)
    assert code == 0
    assert not any(line.startswith(("Your hand:", "Totals:", "--- Hand")) for line in lines)
    states = [line for line in lines if line.startswith("Trick ")]
    assert states and all(". Legal: " in line for line in states)
    assert f"You: {card}" in lines  # your card, as every card, on a line of its own


def test_examples_and_advice_come_from_the_rules_in_play() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": ["all"]})
    session = Session.new(rs, 4, 0, "random", seed=1)
    to_your_turn(session)
    code, lines, _ = plain(session, "xx\nhelp\nquit\n")
    text = "\n".join(lines)
    assert "'xx' is not a card: type e.g. QO, 10T (or help)." in lines
    assert "QS" not in text and "10H" not in text and "10h" not in text and "5h" not in text
    assert any(line.startswith("Type a card to play it: qo, 10t") for line in lines)
    assert "Collect the penalties: the highest total wins." in lines
    assert any(line.startswith("The Rotten Tomato: 25 to its holder") for line in lines)
    assert any(line.startswith("Card SD: Salad Dressing") for line in lines)


def test_the_token_holder_is_announced_only_when_it_changes() -> None:
    rs = load_ruleset("skip-the-salad", {"toppings": ["rotten-tomato"]})
    for seed in range(20):
        session = Session.new(rs, 4, 0, "random", seed=seed)
        g = session.game
        said: list[str] = []
        while not g.is_over():
            move = (
                session.bot_choose(g.to_move, g.view(g.to_move))
                if session.bot_turn()
                else g.legal_moves()[0]
            )
            said += session.narrate(session.play(move), symbols=False)
        changes = 0
        holder = -1
        repeats = 0
        for event in g.events:
            if isinstance(event, Deal):
                holder = -1
            elif isinstance(event, TokenTaken):
                changes += event.seat != holder
                repeats += event.seat == holder
                holder = event.seat
        if repeats:
            break
    assert repeats, "no game kept the token in the same hands"
    announced = [line for line in said if "the Rotten Tomato." in line and " now " in line]
    assert len(announced) == changes


def test_each_hand_ends_with_its_points_by_penalty(
    game_through_a_pipe: tuple[int, list[str], str],
) -> None:
    code, lines, err = game_through_a_pipe
    assert code == 0, err
    over = next(i for i, line in enumerate(lines) if line.startswith("Hand 1 (No Tricks) is over"))
    rows = lines[over + 1 : over + 5]
    assert rows[0].startswith("  You: ") and all(row.startswith("  ") for row in rows)
    assert any("(Tricks " in row for row in rows)
    last = next(i for i, line in enumerate(lines) if line.startswith("Hand 6 ("))
    assert any("Last Trick 100" in row for row in lines[last + 1 : last + 5])


def test_a_failed_save_exits_non_zero(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.mkdir()
    rs = load_ruleset("canadian")
    session = Session.new(rs, 4, 0, "random", seed=1, save_path=folder / "g.json")
    card = to_your_turn(session)  # each move is written to g.json
    (folder / "g.json").unlink()
    folder.rmdir()
    code, lines, err = plain(session, f"{card}\nquit\n")
    assert code == 1 and err.startswith("error: not saved: ")


def test_an_empty_line_says_what_to_type() -> None:
    """An empty line re-asked without a word (issue 39): it says what the prompt wants."""
    session = Session.new(load_ruleset("canadian"), 4, 0, "random", seed=1)
    to_your_turn(session)
    code, lines, _ = plain(session, "\nquit\n")
    assert code == 0
    assert "Type a card to play it, or help for the commands." in lines
