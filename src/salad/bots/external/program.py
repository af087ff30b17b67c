"""Running one bot program: its command line, its pipes, a reader thread, the game it is in."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import shutil
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from salad import __version__
from salad.bots.external.protocol import PROTOCOL, dumps
from salad.errors import SaladError
from salad.ruleset import Ruleset
from salad.view import Phase, View

PREFIX = "cmd:"
"""How a bot name says it is an outside program: ``cmd:PROGRAM [ARGS]``."""
STOP_GRACE = 2.0
"""Seconds a program has to exit after ``bye`` before it is terminated."""


def parse_command(spec: str | Sequence[str]) -> tuple[str, ...]:
    """``"cmd:node bot.js --fast"`` → ``("node", "bot.js", "--fast")`` (shell-style quoting).

    >>> parse_command("cmd:python3 'my bot.py' -v")
    ('python3', 'my bot.py', '-v')
    >>> parse_command(["./bot", "x"])
    ('./bot', 'x')
    """
    if not isinstance(spec, str):
        argv = tuple(str(a) for a in spec)
    else:
        text = spec.strip()
        if text[: len(PREFIX)].lower() == PREFIX:
            text = text[len(PREFIX) :]
        try:
            argv = tuple(shlex.split(text))
        except ValueError as exc:
            raise SaladError(f"bots: cannot read the command {text!r} ({exc})") from None
    if not argv:
        raise SaladError("bots: cmd: needs a program, e.g. cmd:./mybot or cmd:node bot.js")
    return argv


def check_program(argv: Sequence[str]) -> None:
    """Refuse a command whose program cannot be found (before any game starts)."""
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.isfile(program):
            raise SaladError(f"bots: cmd: no program {program!r} (from {os.getcwd()})")
        if not os.access(program, os.X_OK):
            raise SaladError(f"bots: cmd: {program!r} is not executable (chmod +x it)")
    elif shutil.which(program) is None:
        raise SaladError(f"bots: cmd: program {program!r} is not on the PATH")


class ProgramFailure(Exception):
    """The program crashed (``kind == "crash"``) or did not answer in time (``"timeout"``)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def _progress(view: View) -> tuple[int, int, int, int]:
    """Grows with every decision one seat makes in one game."""
    return (view.hand_index, int(view.phase), len(view.tricks), view.passed.bit_count())


@dataclass
class GameContext:
    """The game a program is playing, as far as salad has told it."""

    ruleset: Ruleset
    players: int
    seat: int
    last: View
    hands_told: int
    done: bool = False
    """The seat has made its last decision of the game."""

    def continues(self, view: View) -> bool:
        """Whether ``view`` is a later decision of the same game and seat."""
        last = self.last
        if (
            view.seat != self.seat
            or view.players != self.players
            or (view.ruleset is not self.ruleset and view.ruleset != self.ruleset)
            or _progress(view) <= _progress(last)
            or view.hand_points[: len(last.hand_points)] != last.hand_points
        ):
            return False
        if view.hand_index != last.hand_index:
            return True
        if view.tricks[: len(last.tricks)] != last.tricks:
            return False
        return last.phase == Phase.TRUMP or view.trump == last.trump


class Program:
    """One running bot program: its pipes, a reader thread, the game it is in."""

    def __init__(self, argv: tuple[str, ...]) -> None:
        self.argv = argv
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.owner = os.getpid()
        """The process that started it (a forked child leaves it alone)."""
        self.next_id = 1
        self.stray = 0
        """Lines dropped: written when nothing was asked, or answers to an older request."""
        self.context: GameContext | None = None
        self.released = 0.0
        self.reader: threading.Thread | None = None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.owner == os.getpid() and self.proc.poll() is None

    def start(self, start_time: float) -> str:
        """Start the program and say hello; the program's answer (its first line)."""
        try:
            proc = subprocess.Popen(
                list(self.argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as exc:
            raise SaladError(
                f"bots: cannot start {shlex.join(self.argv)!r} ({exc.strerror or exc})"
            ) from None
        self.proc = proc
        assert proc.stdout is not None
        self.reader = threading.Thread(
            target=_read_lines, args=(proc.stdout, self.lines), daemon=True, name="salad-bot-io"
        )
        self.reader.start()
        hello = {"type": "hello", "protocol": PROTOCOL, "salad": __version__}
        return self.ask(hello, start_time)

    def send(self, message: dict[str, Any]) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None:
            raise ProgramFailure("crash", "is not running")
        try:
            proc.stdin.write(dumps(message) + "\n")
            proc.stdin.flush()
        except (OSError, ValueError):
            raise ProgramFailure("crash", self.exit_text("closed its input")) from None

    def ask(self, message: dict[str, Any], timeout: float) -> str:
        """Send ``message`` and wait at most ``timeout`` seconds for one line back.

        A JSON answer carrying an ``id`` other than the message's is a late answer to an older
        request and is skipped; blank lines are skipped.
        """
        ident = message.get("id")
        self.send(message)
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ProgramFailure("timeout", f"did not answer within {timeout:g} s")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                raise ProgramFailure("timeout", f"did not answer within {timeout:g} s") from None
            if line is None:
                self.lines.put(None)  # stays at end of file
                raise ProgramFailure("crash", self.exit_text("closed its output"))
            if not line.strip():
                continue
            if ident is not None and line.lstrip().startswith("{"):
                try:
                    answer = json.loads(line)
                except ValueError:
                    return line
                if isinstance(answer, dict) and "id" in answer and answer["id"] != ident:
                    self.stray += 1
                    continue
            return line

    def drain(self) -> None:
        """Drop the lines the program wrote when nothing was asked (counted in ``stray``)."""
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self.lines.put(None)
                return
            if line.strip():
                self.stray += 1

    def exit_text(self, what: str) -> str:
        proc = self.proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        if code is None:
            return what
        if code < 0:
            return f"{what} (killed by signal {-code})"
        return f"{what} (exit code {code})"

    def say_bye(self) -> None:
        """Send ``bye`` and close the program's input: a well-behaved program exits now."""
        proc = self.proc
        if proc is None or proc.stdin is None or self.owner != os.getpid():
            return
        try:
            if proc.poll() is None:
                proc.stdin.write(dumps({"type": "bye"}) + "\n")
                proc.stdin.flush()
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()

    def stop(self, grace: float = STOP_GRACE) -> None:
        """``bye`` and wait up to ``grace`` seconds; then terminate it, and kill it if need be."""
        proc = self.proc
        if proc is None or self.owner != os.getpid():
            return
        if grace > 0:
            self.say_bye()
        elif proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        self.proc = None
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.reader is not None:
            self.reader.join(timeout=1.0)
        if proc.stdout is not None:
            with contextlib.suppress(OSError, ValueError):
                proc.stdout.close()


def _read_lines(stream: Any, lines: queue.Queue[str | None]) -> None:
    try:
        for line in stream:
            lines.put(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    finally:
        lines.put(None)
