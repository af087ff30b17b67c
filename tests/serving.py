"""Starting a server in a test: a free port to give it, and waiting until it answers.

For the tests that start ``salad serve`` themselves, outside tests/server/conftest.py's
``Server`` and the browser tests' ``running_server`` (a wheel's command, a copy of the package,
a server restarted on its database)."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Protocol

import httpx


class Process(Protocol):
    """What of ``subprocess.Popen`` (or a forked server) the wait looks at."""

    def poll(self) -> int | None: ...


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_serving(base: str, proc: Process, log: Path, seconds: float = 60) -> None:
    """Wait until the server at ``base`` answers ``/api/options``; AssertionError, with the end
    of its ``log``, if its process ends first or ``seconds`` go by."""
    deadline = time.monotonic() + seconds
    while True:
        code = proc.poll()
        assert code is None, f"the server exited ({code}): {log.read_text()[-2000:]}"
        try:
            if httpx.get(f"{base}/api/options", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        said = f"the server did not answer in {seconds:g} s: {log.read_text()[-2000:]}"
        assert time.monotonic() < deadline, said
        time.sleep(0.05)
