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

HAPROXY_CONFIG = """\
global
    maxconn 8000
    nbthread 1
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option http-server-close
frontend salad
    bind 127.0.0.1:{port}
    use_backend tables if {{ path_reg ^/(api|ws)/tables/[A-Za-z0-9_-]+(/|$) }}
    default_backend nodes
backend tables
    balance hash path,field(4,/)
    hash-type consistent
    option redispatch
    retries 3
    option httpchk GET /healthz
    default-server inter 500ms fall 2 rise 1
{servers}
backend nodes
    balance roundrobin
    option redispatch
    retries 3
    option httpchk GET /healthz
    default-server inter 500ms fall 2 rise 1
{servers}
"""
"""As tests/server/conftest.py's (deploy/haproxy.cfg's, less the per-address limit)."""


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
    """One `salad serve` process (bots play at once)."""

    def __init__(
        self, database: str, log: Path, redis: str | None = None, name: str | None = None
    ) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.name = name
        """Its server name in HAProxy's configuration (``--node-name``)."""
        cmd = [sys.executable, "-m", "salad.cli", "serve", "--port", str(self.port)]
        cmd += ["--database", database, "--bot-delay", "0"]
        if redis:
            cmd += ["--redis", redis]
        if name:
            cmd += ["--node-name", name]
        self.log = log
        self._log = log.open("a")
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, env=ENV)

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
    """HAProxy in front of the nodes: round robin, no sticky sessions; a request that names a
    node (``?node=``, as a table's websocket does) goes to it while it is up."""

    def __init__(self, nodes: list[Node], directory: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        names = [n.name or f"node{i}" for i, n in enumerate(nodes)]
        servers = "\n".join(
            [f"    use-server {name} if {{ urlp(node) -m str {name} }}" for name in names]
            + [
                f"    server {name} 127.0.0.1:{n.port} check"
                for name, n in zip(names, nodes, strict=True)
            ]
        )
        config = directory / f"haproxy{self.port}.cfg"
        config.write_text(HAPROXY_CONFIG.format(port=self.port, servers=servers))
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
