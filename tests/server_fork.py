"""A process that has loaded what ``salad serve`` loads and forks a server on demand: each
``salad serve`` the tests start then costs its own start-up work, not a second of loading
(forked_servers.py's ``Forks``, when ``SALAD_TEST_FORK_SERVERS=1``, as ``make test`` and
``make test-fast`` set).

Run as ``python server_fork.py``: it loads ``salad.cli`` and ``salad.server.run`` as ``salad
serve`` does (its garbage collector off, see ``main``), says ``ready``, then reads requests, one
JSON object a line on stdin: ``{"args": [...], "log": path, "env": {...}, "cwd": path}``. For
each it forks a child that takes that environment and working directory, its stdin from
/dev/null and its stdout and stderr to the end of ``log``, and runs ``python -m salad.cli
ARGS`` (``runpy``, as ``-m`` does: the bot pool's spawned workers load ``salad.cli.__main__``
as they do under a real ``-m``), then exits as that interpreter would (its exit handlers run).
The answer is ``pid PID``; when a child ends, ``exit PID STATUS`` (``STATUS`` as
``subprocess.Popen.returncode`` has it: minus the signal for one killed by a signal). At the
end of stdin it exits (servers still running are left running, as a parent that exits leaves
its ``Popen`` children).

Why not multiprocessing's forkserver, which also forks from a process that preloaded modules:
its children are multiprocessing children, not fresh interpreters. They share the forkserver's
resource tracker (a server's bot pool then starts none of its own) and leave through
``os._exit`` (no ``atexit``), so a server forked by it is not the process ``salad serve`` is
(tests/server/test_hostile_process.py's bot-worker test sees the difference). Here a child
forks from a process that never used multiprocessing and ends as ``python -m`` ends.

Only the loading is shared: a child reads its environment at run time as a process of its own
would (forked_servers.py forks only when the environment differs from this process's in ``SALAD_*``
and ``PYTEST_*`` variables at most; else it starts a process). Each child reseeds ``random``
(Python does so at every fork); they share this process's hash seed.
"""

from __future__ import annotations

import gc
import json
import os
import runpy
import signal
import sys
from typing import Any


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def reap(_signum: int, _frame: Any) -> None:
    """Every child that has ended: ``exit PID STATUS``."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        say(f"exit {pid} {os.waitstatus_to_exitcode(status)}")


def requests() -> Any:
    """The requests on stdin, read unbuffered (a child keeps no request of another's)."""
    pending = b""
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            return
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            yield json.loads(line)


def become(request: dict[str, Any]) -> None:
    """In the child: the process ``python -m salad.cli ARGS`` would be, then run it."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    sys.argv = ["-m", *request["args"]]
    runpy.run_module("salad.cli", run_name="__main__", alter_sys=True)


def main() -> None:
    # As the gc module's documentation advises for a process that forks without exec: the
    # collector off in the parent, what it holds frozen before each fork, on again in the child.
    # A child's collections then leave the loaded modules' objects alone, and their memory
    # stays shared (a server's start to its first answers: about 0.15 s of CPU and a third of
    # its page faults less).
    gc.disable()
    import salad.cli  # noqa: F401
    import salad.server.run  # noqa: F401

    signal.signal(signal.SIGCHLD, reap)
    say("ready")
    for request in requests():
        gc.freeze()
        pid = os.fork()
        if pid == 0:
            gc.enable()
            become(request)  # its SystemExit, if any, ends the child as it ends `python -m`
            return
        say(f"pid {pid}")
    # Nothing of its own to save: ending without tearing the loaded modules down (half a second
    # of the end of each pytest-xdist worker, which waits for it).
    os._exit(0)


if __name__ == "__main__":
    main()
