"""Server tests: a real `salad serve` process on loopback, driven with httpx and websockets.

Fixtures:

- ``server``: one server for the whole session (fresh SQLite file, bots play at once);
- ``start_server``: start (and later stop) more servers, e.g. to kill one and start another on the
  same database;
- ``pg_url``: the PostgreSQL URL from ``SALAD_TEST_POSTGRES_URL`` (set by
  ``scripts/postgres.sh``, which ``make test`` uses), or the test is skipped.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from salad.server.protocol import complete_state

PG_ENV = "SALAD_TEST_POSTGRES_URL"

# The tests create tables far faster than any family: no rate limits in the servers they start
# (test_hostile_rate.py sets its own).
os.environ.setdefault("SALAD_RATE_LIMITS", "off")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `salad serve` subprocess on a free loopback port."""

    def __init__(
        self,
        database: str,
        log_path: Path,
        bot_delay: float = 0.0,
        workers: int = 1,
        args: tuple[str, ...] = (),
    ) -> None:
        self.database = database
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path
        cmd = [sys.executable, "-m", "salad.cli", "serve", "--port", str(self.port)]
        cmd += ["--database", database, "--bot-delay", str(bot_delay), "--workers", str(workers)]
        cmd += args
        self._log = log_path.open("a")
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT)
        self.http = httpx.Client(base_url=self.base, timeout=30)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log_path.read_text()[-2000:]}")
            try:
                if self.http.get("/api/options").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("the server did not start in 60 s")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.http.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.http.close()
        self._log.close()

    # -- REST helpers ---------------------------------------------------------------------
    def post(self, path: str, body: Any = None, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(path, json=body, headers=headers)

    def ok(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.http.request(method, path, json=body, headers=headers)
        assert r.status_code == 200, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()

    def table(
        self, seats: list[dict[str, Any]], start: bool = True, **options: Any
    ) -> tuple[str, list[str | None]]:
        """A table with these seats (seat 0 is the host); every "human" seat is joined.
        Returns the table id and a token per seat (None for bots)."""
        created = self.ok("POST", "/api/tables", {"name": "Host", "seats": seats, **options})
        table_id = created["table_id"]
        tokens: list[str | None] = [created["token"]] + [None] * (len(seats) - 1)
        for i, spec in enumerate(seats[1:], start=1):
            if spec["kind"] == "human":
                joined = self.ok("POST", f"/api/tables/{table_id}/join", {"name": f"P{i}"})
                assert joined["seat"] == i
                tokens[i] = joined["token"]
        if start:
            self.ok("POST", f"/api/tables/{table_id}/start", token=tokens[0])
        return table_id, tokens


class Socket:
    """A websocket to a table that records every message it receives."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.messages: list[str] = []
        self.state: dict[str, Any] | None = None

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.messages.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            complete_state(message, self.state)  # as the web client does
            self.state = message
        return message

    async def until(
        self, check: Callable[[dict[str, Any]], bool], timeout: float = 20
    ) -> dict[str, Any]:
        """Read until a state message passes ``check`` (the latest state is checked first)."""
        if self.state is not None and check(self.state):
            return self.state
        end = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.01, end - time.monotonic()))
            if message["type"] == "state" and check(message):
                return message

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Every message that arrives within ``seconds``."""
        out: list[dict[str, Any]] = []
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return out
            try:
                out.append(await self.recv(left))
            except TimeoutError:
                return out


async def connect(server: Server, table_id: str, token: str | None, name: str = "") -> Socket:
    url = f"{server.ws_base}/ws/tables/{table_id}"
    if token:
        url += f"?token={token}"
    ws = await websockets.connect(url, max_size=2**22)
    sock = Socket(ws, name or (token or "spectator")[:6])
    return sock


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    tmp = tmp_path_factory.mktemp("server")
    srv = Server(f"sqlite:///{tmp / 'salad.db'}", tmp / "server.log")
    yield srv
    srv.stop()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def start(
        database: str | None = None,
        bot_delay: float = 0.0,
        workers: int = 1,
        args: tuple[str, ...] = (),
    ) -> Server:
        db = database or f"sqlite:///{tmp_path / 'salad.db'}"
        srv = Server(db, tmp_path / f"server{len(started)}.log", bot_delay, workers, args)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.stop()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh database on the test PostgreSQL server (dropped afterwards)."""
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"PostgreSQL is not available ({PG_ENV} is not set; see scripts/postgres.sh)")
    from sqlalchemy import create_engine, text

    from salad.server.storage import database_url

    admin = create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    name = f"salad_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at {PG_ENV} cannot be used: {exc}")
    base, _, _ = url.rpartition("/")
    yield f"{base}/{name}"
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def ws() -> Callable[..., Any]:
    """``await ws(server, table_id, token)``: a recording websocket to a table."""
    return connect
