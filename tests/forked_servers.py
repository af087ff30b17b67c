"""Servers forked from one process that has loaded what ``salad serve`` loads
(server_fork.py): each is a process of its own that runs ``python -m salad.cli serve ...``
from its start, less the loading (1.2 s of CPU a start). tests/server/conftest.py's ``Server``
and the browser tests' own servers start theirs through :func:`forks` when ``FORK_ENV`` is
``1``; anything else starts a process from scratch."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FORK_ENV = "SALAD_TEST_FORK_SERVERS"
"""``1``: the servers the tests start are forked (:func:`forks`), 1.2 s of CPU less a start
(``make test`` and ``make test-fast`` set it); else each is a process of its own, from the
interpreter's start (as each browser worker's session server always is, tests/e2e)."""

FORKED_ENV_PREFIXES = ("SALAD_", "PYTEST_", "RAY_", "PYTHONBREAKPOINT")
"""The environment variables a forked server may have other than the forking process's: read
at run time, not when the modules load (another difference starts a process of its own). Ray's
are there because ``ray.init`` sets them in the process that calls it for good (a tournament
test on Ray: every server its worker started after it was started whole), and the server never
loads Ray; ``PYTHONBREAKPOINT`` is read when ``breakpoint()`` is called."""


class ForkedProcess:
    """A server forked by :class:`Forks`: what the tests use of ``subprocess.Popen``."""

    def __init__(self, forks: Forks, pid: int) -> None:
        self.forks = forks
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.forks.read(0)
            self.returncode = self.forks.ended.get(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout or 0)
            self.forks.read(left)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Forks:
    """server_fork.py, started once a process (a pytest-xdist worker's) when first asked."""

    _running: Forks | None = None

    @classmethod
    def get(cls) -> Forks:
        if cls._running is None or cls._running.proc.poll() is not None:
            cls._running = Forks()
        return cls._running

    def __init__(self) -> None:
        self.env = dict(os.environ)
        self.errors = tempfile.TemporaryFile()  # noqa: SIM115  (as long as it runs)
        script = Path(__file__).with_name("server_fork.py")
        self.proc = subprocess.Popen(
            [sys.executable, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout.fileno()
        self.pending = b""
        self.started: list[int] = []
        self.ended: dict[int, int] = {}
        """The servers that have ended: their status, as ``Popen.returncode`` has it."""
        while not self.started:
            self.read(60)
        self.started.clear()  # the "ready"
        atexit.register(self.end)

    def end(self) -> None:
        """The end of its stdin ends it (and its servers' CPU time is counted in this
        process's children's, as a ``Popen`` server's is)."""
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.stdin.close()
            self.proc.wait(10)

    def can_fork(self) -> bool:
        """Whether a server with this process's environment now may be forked."""
        keys = set(self.env) ^ set(os.environ)
        keys |= {k for k in self.env.keys() & os.environ.keys() if self.env[k] != os.environ[k]}
        return all(key.startswith(FORKED_ENV_PREFIXES) for key in keys)

    def read(self, timeout: float | None) -> None:
        """Take what it has said within ``timeout`` seconds (None: until it says something)."""
        if not select.select([self.stdout], [], [], timeout)[0]:
            return
        chunk = os.read(self.stdout, 65536)
        if not chunk:
            self.errors.seek(0)
            said = self.errors.read().decode(errors="replace")[-2000:]
            raise RuntimeError(f"server_fork.py exited: {said}")
        self.pending += chunk
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            match line.decode().split():
                case ["ready"]:
                    self.started.append(0)
                case ["pid", pid]:  # a pid used again: the exit said before is another's
                    self.started.append(int(pid))
                    self.ended.pop(int(pid), None)
                case ["exit", pid, status]:
                    self.ended[int(pid)] = int(status)

    def start(self, args: list[str], log_path: Path, cwd: Path | None = None) -> ForkedProcess:
        """``python -m salad.cli ARGS`` in ``cwd`` (else this process's), its output at the end
        of ``log_path``."""
        request = {
            "args": args,
            "log": str(log_path),
            "env": dict(os.environ),
            "cwd": str(cwd or os.getcwd()),
        }
        self.stdin.write(json.dumps(request).encode() + b"\n")
        self.stdin.flush()
        while not self.started:
            self.read(60)
        return ForkedProcess(self, self.started.pop(0))


def forks() -> Forks | None:
    """This process's :class:`Forks` when servers are to be forked (``FORK_ENV``) and may be
    (its environment differs from the forking process's in ``FORKED_ENV_PREFIXES`` at most);
    else None: start the server as a process of its own."""
    if os.environ.get(FORK_ENV) != "1":
        return None
    running = Forks.get()
    return running if running.can_fork() else None
