"""The server process holds against a hostile client and a hard kill (issue 15): bot workers
die with their server, idle connections cannot lock everyone out, and a huge body is refused.

Every test runs a real ``salad serve`` on loopback, bounded in time.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

BASIC = {"kind": "bot", "bot": "basic"}


def test_bot_workers_exit_when_the_server_is_killed(start_server: Any, ws: Any) -> None:
    """``kill -9`` of the server: its bot worker processes go within a few seconds."""
    srv = start_server()
    # Nobody connects and bots take over at once: the game is played by the pool's workers.
    table_id, _ = srv.table([{"kind": "human"}, BASIC, BASIC, BASIC], bot_takeover=0, seed=5)

    async def watch() -> None:
        sock = await ws(srv, table_id, None)
        await sock.until(lambda m: m["moves"] >= 8, timeout=60)
        await sock.ws.close()

    asyncio.run(watch())
    workers = child_pids(srv.proc.pid)  # the pool's workers (and its resource tracker)
    assert workers, "no bot worker process was started"
    srv.kill()
    wait_gone(workers, seconds=5)


def proc_stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (``[0]`` the state, ``[1]`` the
    parent); OSError when there is no such process."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(proc_stat(int(entry.name))[1])
            except OSError:
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def running(pids: list[int]) -> list[int]:
    """Those of ``pids`` that still run (a zombie has stopped)."""
    alive = []
    for pid in pids:
        try:
            if proc_stat(pid)[0] != "Z":
                alive.append(pid)
        except OSError:
            pass
    return alive


def wait_gone(pids: list[int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while running(pids):
        assert time.monotonic() < deadline, f"still running: {running(pids)}"
        time.sleep(0.05)
