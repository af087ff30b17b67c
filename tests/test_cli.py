"""The `salad` command as a whole: its commands, one-line errors, and lean installs.

A lean install (no extras) must run every command that needs no extra, and a command whose
extra is missing must say which one in one line. "Missing" is simulated by blocking the extra's
modules in ``sys.modules`` of a fresh interpreter, as if they were not installed.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from salad.cli import app
from salad.cli.common import require_extra
from salad.cli.errors import run_app
from salad.errors import SaladError

EXTRA_MODULES = {
    "web": ["fastapi", "uvicorn", "sqlalchemy"],
    "tui": ["textual"],
    "lab": ["openskill", "matplotlib"],
    "postgres": ["psycopg"],
    "ray": ["ray"],
    "envs": ["pettingzoo", "gymnasium"],
}
EVERY_EXTRA = [m for mods in EXTRA_MODULES.values() for m in mods]

RUN_BLOCKED = """
import sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # as if not installed: import raises ImportError
from salad.cli import main
sys.argv = ["salad", *sys.argv[2:]]
main()
"""


def salad_without(blocked: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``salad ARGS`` in a fresh interpreter where the ``blocked`` modules cannot be imported."""
    return subprocess.run(
        [sys.executable, "-c", RUN_BLOCKED, ",".join(blocked), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def salad_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``salad ARGS`` in this process (:func:`run_app`, what the ``salad`` script runs), its
    output caught: for a run that needs no interpreter of its own (no blocked module, no
    pipe, no signal); the same answer as a process's, without a second of start-up."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_app(app, list(args))
    return subprocess.CompletedProcess(["salad", *args], code, out.getvalue(), err.getvalue())


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


# -- commands -------------------------------------------------------------------------------------


def test_every_command_is_registered() -> None:
    names = {c.name for c in app.registered_commands}
    assert names == {
        "rules",
        "simulate",
        "demo",
        "match",
        "play",
        "score",
        "tournament",
        "serve",
        "review",
    }
    assert [g.name for g in app.registered_groups] == ["record"]


def test_python_dash_m_runs_the_app() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "salad.cli", "--help"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("rules", "simulate", "demo", "match", "play", "score", "tournament", "serve"):
        assert name in proc.stdout


# -- lean installs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "blocked", "line"),
    [
        (["serve"], ["fastapi"], "error: salad serve needs: pip install 'canadian-salad[web]'"),
        (["serve"], ["uvicorn"], "error: salad serve needs: pip install 'canadian-salad[web]'"),
        (["serve"], ["sqlalchemy"], "error: salad serve needs: pip install 'canadian-salad[web]'"),
        (
            ["serve", "--database", "postgresql://u@localhost/salad"],
            ["psycopg"],
            "error: salad serve --database postgresql://... needs: "
            "pip install 'canadian-salad[postgres]'",
        ),
        (
            ["tournament", "-b", "random,random,random,random"],
            ["openskill"],
            "error: salad tournament needs: pip install 'canadian-salad[lab]'",
        ),
        (
            ["tournament", "-b", "random,random,random,random"],
            ["matplotlib"],
            "error: salad tournament needs: pip install 'canadian-salad[lab]'",
        ),
    ],
)
def test_a_missing_extra_is_one_line(args: list[str], blocked: list[str], line: str) -> None:
    proc = salad_without(blocked, *args)
    assert one_error_line(proc) == line
    assert proc.stdout == ""


def test_tournament_without_plots_needs_no_matplotlib(tmp_path: Path) -> None:
    out = str(tmp_path / "t")
    args = ["tournament", "-n", "3", "-b", "random,random,random", "-g", "3", "-w", "1"]
    proc = salad_without(["matplotlib"], *args, "--out", out, "--no-plots")
    assert proc.returncode == 0, proc.stderr
    assert "played 3 games" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["rules", "skip-the-salad", "-n", "5"],
        ["simulate", "-n", "4", "-g", "3"],
        ["demo", "-s", "3"],
        ["match", "-b", "random,random,random", "-n", "3", "-d", "1", "-w", "1"],
        ["record", "--help"],
        ["score", "--help"],
        ["tournament", "--help"],
        ["serve", "--help"],
    ],
)
def test_a_lean_install_runs_the_core_commands(args: list[str]) -> None:
    proc = salad_without(EVERY_EXTRA, *args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout


@pytest.mark.parametrize("command", [[], ["record"]])
def test_no_arguments_show_the_help_once(command: list[str]) -> None:
    """`salad` and `salad record` alone show their help, once (it came twice)."""
    proc = salad_here(*command)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("Usage: salad") == 1 and proc.stderr == ""
    assert proc.stdout.rstrip() == salad_here(*command, "--help").stdout.rstrip()


@pytest.mark.parametrize("command", [[], ["score"], ["record", "show"], ["serve"]])
def test_h_is_help_everywhere(command: list[str]) -> None:
    """-h is --help, for the command and every command under it (it was refused)."""
    short = salad_here(*command, "-h")
    assert short.returncode == 0, short.stderr
    assert short.stdout.rstrip() == salad_here(*command, "--help").stdout.rstrip()
    assert "-h" in short.stdout


def test_a_move_time_of_nothing_is_refused_by_play_as_by_match() -> None:
    """play --move-time 0 was accepted where match refused it: both refuse it, in the same
    words."""
    play = subprocess.run(
        [sys.executable, "-m", "salad.cli", "play", "--plain", "--move-time", "0"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    match = salad_here("match", "-b", "random,random,random,random", "--move-time", "0")
    said = "error: move time: must be a positive number of seconds, not 0.0"
    assert one_error_line(play) == one_error_line(match) == said


def test_a_dumb_terminal_is_called_so() -> None:
    """Under TERM=dumb, play falls back to plain lines saying why (it said "not a terminal")."""
    proc = subprocess.run(
        [sys.executable, "-m", "salad.cli", "play", "--bots", "random"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TERM": "dumb"},
    )
    first = proc.stderr.splitlines()[0]
    assert first == "a dumb terminal (TERM=dumb): playing as plain lines (--plain)"


def test_piped_runs_tell_their_progress_on_stderr() -> None:
    """On a pipe, simulate's progress comes as lines on stderr (it said nothing until the end;
    Rich draws its bar only on a terminal); stdout holds only the summary."""
    proc = salad_without([], "simulate", "-g", "3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("simulating: 3/3 games, ")
    assert "simulating" not in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "100000000000000000000000000"],
        ["match", "--bots", "random,random,random,random", "--deals", "100000000000"],
        ["tournament", "--bots", "random,basic", "-n", "3", "--games", "99999999999"],
    ],
)
def test_absurd_counts_are_refused_at_once(args: list[str]) -> None:
    """A run of more than ten million games is a typo: one line, at once (it ran for ever)."""
    proc = salad_here(*args)
    assert proc.returncode == 2 and "10000000" in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_the_command_loads_no_extra() -> None:
    """Starting `salad` imports none of the extras' modules (they load when a command needs)."""
    code = "import sys, salad.cli; print(' '.join(m for m in sys.argv[1:] if m in sys.modules))"
    proc = subprocess.run(
        [sys.executable, "-c", code, *EVERY_EXTRA], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""


def test_require_extra() -> None:
    require_extra("rules", "core", "json", "typer")
    with pytest.raises(
        SaladError, match=r"^salad serve needs: pip install 'canadian-salad\[web\]'$"
    ):
        require_extra("serve", "web", "json", "no_such_module_anywhere")
    with pytest.raises(SaladError, match=r"^salad x needs: pip install 'canadian-salad\[y\]'$"):
        require_extra("x", "y", "no_such_package.sub")


# -- bad input: one line, exit status 1 -----------------------------------------------------------


def error_line(args: list[str]) -> str:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]


def test_bad_options_are_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    assert "nosuch" in error_line(["rules", "nosuch"])
    assert "12" in error_line(["rules", "canadian", "--players", "12"])
    assert "nope" in error_line(["simulate", "--toppings", "nope", "-g", "1"])
    assert "swap" in error_line(["demo", "--swap", "nonsense"])
    assert "unknown bot 'nosuch'" in error_line(["simulate", "--bots", "nosuch", "-g", "1"])
    assert error_line(["record", "verify", str(missing)]) == f"error: {missing}: no such file"
    assert error_line(["record", "show", str(missing)]).startswith(f"error: {missing}:")
    assert "--load takes the rules" in error_line(["score", "--load", "x.json", "-r", "canadian"])
    assert error_line(["score", "--load", str(missing)]) == (
        f"error: {missing}: No such file or directory"
    )
    assert "name the entrants" in error_line(["tournament", "--out", str(tmp_path / "t")])


# -- the whole command: one line per error, --version, a closed pipe ----------------------------


def test_usage_errors_are_one_line_through_main() -> None:
    proc = salad_without([], "simulate", "--games", "x")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "error: invalid value for '--games' / '-g': 'x' is not a valid integer range "
        "(see salad simulate --help)"
    ]
    assert "Usage" not in proc.stdout + proc.stderr


def test_version() -> None:
    from salad import __version__

    proc = salad_here("--version")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"salad {__version__}"


def test_a_closed_pipe_is_not_an_error(tmp_path: Path) -> None:
    """``salad record show FILE | head`` ended with "error: Broken pipe"."""
    many = tmp_path / "many.jsonl"
    sim = salad_here("simulate", "-g", "20", "--record", str(many))
    assert sim.returncode == 0, sim.stderr
    proc = subprocess.Popen(
        [sys.executable, "-m", "salad.cli", "record", "show", str(many)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # what `head -1` does
    err = proc.stderr.read()
    proc.wait(timeout=60)
    assert "error" not in err and "Traceback" not in err, err


def test_a_wild_card_is_named_by_its_code_once() -> None:
    """salad rules showed `Wild (W, W)`: the symbol only where it is not the code."""
    proc = salad_here("rules", "skip-the-salad", "--toppings", "all")
    assert proc.returncode == 0, proc.stderr
    assert "Wild: 4 x Wild (W)" in proc.stdout and "(W, W)" not in proc.stdout


def test_rules_say_how_a_trick_is_played() -> None:
    """salad rules listed the penalties but not how a trick is played: who leads, following
    suit, what wins (trumps where the ruleset has them) and its wild cards, from the ruleset."""
    plain = salad_here("rules").stdout
    assert "Play: the player at the dealer's left leads the first trick" in plain
    assert "The highest card of the led suit wins the trick (no trumps)" in plain
    spicy = salad_here("rules", "skip-the-salad", "--toppings", "all").stdout
    assert "The highest trump wins the trick" in spicy
    assert "Wild: may be played at any time, even when you could follow suit, declared" in spicy
    assert "Salad Dressing: may be played at any time" in spicy
