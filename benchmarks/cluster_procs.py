"""The processes a server benchmark starts and measures: `salad serve` nodes, redis-server,
HAProxy in front, a fresh database on a running PostgreSQL, and their CPU time.

Used by ``server_load.py``; everything listens on loopback ports picked free at start.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import httpx

# One client address opens every table: the server's limits per address (new tables, joins,
# new websockets, websockets held open) are for people, and raised out of the way here. The
# limits per connection (its messages, and those refused) stay as a server has them: they are
# counted at every message, part of what a move costs.
PER_ADDRESS = "tables=1000000/1,joins=1000000/1,sockets=1000000/1,open=1000000"
ENV = {**os.environ, "SALAD_RATE_LIMITS": PER_ADDRESS}

DEPLOYED = Path(__file__).resolve().parents[1] / "deploy" / "haproxy.cfg"
"""The one HAProxy configuration: ``make cluster`` runs it as it is, the cluster tests and this
benchmark run it through :func:`haproxy_config`."""


def haproxy_config(
    port: int, nodes: dict[str, int], *, per_address: bool = True, quick_checks: bool = False
) -> str:
    """deploy/haproxy.cfg for nodes on this machine: its frontend on ``port``, and ``nodes``
    (server name -> port; each node's ``--node-name``) in place of its node1..node3 on
    8001..8003. ``per_address=False``: without its limits per client address (a benchmark
    opens every table from one address); ``quick_checks``: a node checked every 500 ms and back
    after one good check, so that a test sees a node die or come back within a second."""
    text = DEPLOYED.read_text()
    for old, new in [("bind 127.0.0.1:8000", f"bind 127.0.0.1:{port}")] + (
        [("inter 1s fall 2 rise 2", "inter 500ms fall 2 rise 1")] if quick_checks else []
    ):
        if old not in text:
            raise ValueError(f"{DEPLOYED} has no {old!r} to replace")
        text = text.replace(old, new)
    lines = []
    made = 0
    for line in text.splitlines():
        words = line.split()
        if not per_address and words[:1] in (["stick-table"], ["http-request"]):
            continue
        if words[:1] in (["server"], ["use-server"]) and words[1].startswith("node"):
            if words[1] == "node1":  # its lines made for each node; node2's and node3's go
                lines += [
                    line.replace("node1", name).replace(":8001", f":{node_port}")
                    for name, node_port in nodes.items()
                ]
                made += 1
            continue
        lines.append(line)
    if not made:
        raise ValueError(f"{DEPLOYED} has no server node1 to make the nodes' servers from")
    return "\n".join(lines) + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and of its children now running (PostgreSQL's backends)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


class Meter:
    """CPU seconds per process (label -> pid) since :meth:`start`; a process killed meanwhile
    counts what it had used when last sampled (sample just before killing it)."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = dict(pids)
        self.first: dict[str, float] = {}
        self.last: dict[str, float] = {}

    def sample(self) -> None:
        for label, pid in self.pids.items():
            if Path(f"/proc/{pid}/stat").exists():
                self.last[label] = cpu_seconds(pid)

    def start(self) -> None:
        self.sample()
        self.first = dict(self.last)

    def used(self) -> dict[str, float]:
        self.sample()
        return {k: self.last[k] - self.first.get(k, 0.0) for k in self.pids if k in self.last}


def wait_ok(
    url: str, proc: subprocess.Popen[bytes], what: str, log: Path, seconds: float = 60
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace").strip().splitlines()[-5:]
            raise SystemExit(
                f"{what} exited at start (exit status {proc.returncode}): " + " | ".join(tail)
            )
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{what} did not answer {url} in {seconds:.0f} s")


class Node:
    """One `salad serve` process (bots play at once, unless ``bot_delay`` says otherwise)."""

    def __init__(
        self,
        database: str,
        log: Path,
        redis: str | None = None,
        name: str | None = None,
        code: str | None = None,
        bot_delay: float | None = 0.0,
        env: dict[str, str] | None = None,
    ) -> None:
        """``code``: the folder of another checkout's ``salad`` package to run instead of this
        one (``server_load.py --against``); ``bot_delay`` None: the tables' paces rule;
        ``env``: more of its environment."""
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.name = name
        """Its server name in HAProxy's configuration (``--node-name``)."""
        cmd = [sys.executable, "-m", "salad.cli", "serve", "--port", str(self.port)]
        cmd += ["--database", database]
        cmd += [] if bot_delay is None else ["--bot-delay", str(bot_delay)]
        if redis:
            cmd += ["--redis", redis]
        if name:
            cmd += ["--node-name", name]
        self.log = log
        self._log = log.open("a")
        environ = {**ENV, **(env or {})}
        if code is not None:
            environ["PYTHONPATH"] = code
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=environ)

    def ready(self) -> Node:
        what = f"salad serve on port {self.port}"
        wait_ok(self.base + "/api/options", self.proc, what, self.log)
        return self

    def tables_in_memory(self) -> int:
        try:
            return int(httpx.get(self.base + "/healthz", timeout=2).json()["tables_in_memory"])
        except (httpx.HTTPError, KeyError, ValueError):
            return -1

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()


def need(tool: str) -> str:
    binary = shutil.which(tool)
    if binary is None:
        raise SystemExit(f"{tool} is not installed (make system-deps installs it)")
    return binary


class Redis:
    """A throwaway redis-server (no persistence)."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        cmd = [need("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no", "--logfile", str(directory / "redis.log")]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise SystemExit("redis-server did not start in 10 s")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


class HAProxy:
    """deploy/haproxy.cfg in front of the nodes (:func:`haproxy_config`, without the limits
    per address, with quick checks)."""

    def __init__(self, nodes: list[Node], directory: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        names = {n.name or f"node{i}": n.port for i, n in enumerate(nodes)}
        config = directory / f"haproxy{self.port}.cfg"
        config.write_text(haproxy_config(self.port, names, per_address=False, quick_checks=True))
        log = directory / f"haproxy{self.port}.log"
        self._log = log.open("a")
        self.proc = subprocess.Popen(
            [need("haproxy"), "-db", "-f", str(config)], stdout=self._log, stderr=subprocess.STDOUT
        )
        wait_ok(self.base + "/healthz", self.proc, "haproxy", log, 20)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self._log.close()


def fresh_database(pg_url: str) -> str:
    """A new, empty database on the PostgreSQL server of ``pg_url``; its URL."""
    from sqlalchemy import create_engine, text  # the server extra, as salad serve needs it
    from sqlalchemy.exc import SQLAlchemyError

    from salad.server.store import database_url

    admin = create_engine(database_url(pg_url), isolation_level="AUTOCOMMIT")
    name = f"salad_bench_{uuid.uuid4().hex[:8]}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except SQLAlchemyError as exc:
        why = (str(exc.orig or exc).strip().splitlines() or [""])[0]
        raise SystemExit(f"cannot make a database on PostgreSQL at {pg_url}: {why}") from None
    finally:
        admin.dispose()
    return f"{pg_url.rpartition('/')[0]}/{name}"


def postmaster_pid(pg_url: str) -> int | None:
    """The pid of the PostgreSQL server listening on the URL's port (to count its CPU), if it
    runs on this machine."""
    port = urlsplit(pg_url).port or 5432
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and argv[0].endswith(b"postgres") and f"-p {port}".encode() in b" ".join(argv):
            return int(entry.name)
    return None
