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
import contextlib
import copy
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
import websockets
from forked_servers import ForkedProcess, forks
from serving import free_port
from websockets.client import ClientProtocol
from websockets.protocol import State as WsState
from websockets.uri import parse_uri

from salad.server.protocol import complete_state
from salad.server.store import SqlStore

PG_ENV = "SALAD_TEST_POSTGRES_URL"

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _cluster_procs() -> ModuleType:
    """benchmarks/cluster_procs.py, whose ``haproxy_config`` makes deploy/haproxy.cfg for nodes
    on this machine (for the benchmarks and these tests alike)."""
    spec = importlib.util.spec_from_file_location("cluster_procs", BENCHMARKS / "cluster_procs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


haproxy_config: Callable[..., str] = _cluster_procs().haproxy_config

# The tests create tables far faster than any family: no rate limits in the servers they start
# (test_hostile_rate.py sets its own).
os.environ.setdefault("SALAD_RATE_LIMITS", "off")


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def raw_websocket(port: int, path: str) -> tuple[socket.socket, ClientProtocol]:
    """An open websocket on a plain blocking socket, for a client that sends frames and never
    reads (the websockets library's clients read on their own); frames are made with its
    sans-I/O ``ClientProtocol`` (``send_text``/``send_ping``, then ``data_to_send``)."""
    client = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"))
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    client.send_request(client.connect())
    sock.sendall(b"".join(client.data_to_send()))
    while client.state is WsState.CONNECTING:
        client.receive_data(sock.recv(65536))
    assert client.state is WsState.OPEN, client.handshake_exc
    client.events_received()  # the handshake's response
    return sock, client


FLOOD_SECONDS = 2.0
"""How long :func:`flood` floods: a guard against floods cuts within a fraction of a second,
so two seconds tell a connection cut from one the server goes on taking."""

XFAIL_FLOOD = 0.5
"""How long the floods that no guard cuts today (xfail) go on: long enough to see a guard that
cuts within a fraction of a second (the xfail then passes, strict: a failure that says so),
short enough not to spend seconds of both cores on a known miss."""


def flood(sock: socket.socket, burst: bytes, seconds: float = FLOOD_SECONDS) -> float | None:
    """Send ``burst`` again and again for at most ``seconds``, never reading; the seconds
    until the server cut the connection, or None if it never did."""
    sock.settimeout(0.5)  # a send the server does not take (it reads when the app does)
    start = time.monotonic()
    try:
        while time.monotonic() - start < seconds:
            with contextlib.suppress(TimeoutError):
                sock.sendall(burst)
    except OSError:  # reset by the server
        return time.monotonic() - start
    finally:
        sock.close()
    return None


class Server:
    """A `salad serve` subprocess on a free loopback port."""

    def __init__(
        self,
        database: str,
        log_path: Path,
        bot_delay: float | None = 0.0,
        args: tuple[str, ...] = (),
        port: int | None = None,
        wait: bool = True,
    ) -> None:
        """Start the process; ``wait``: return once it answers (else call ``wait_ready``, e.g.
        after starting several, so that they start side by side). ``bot_delay`` None: the
        bots play at each table's pace."""
        self.database = database
        self.bot_delay = bot_delay
        self.args = args
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path
        cmd = ["serve", "--port", str(self.port), "--database", database]
        cmd += [] if bot_delay is None else ["--bot-delay", str(bot_delay)]
        cmd += args
        self._log = log_path.open("a")
        self.proc: subprocess.Popen[bytes] | ForkedProcess
        forked = forks()
        if forked is not None:
            self.proc = forked.start(cmd, log_path)
        else:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "salad.cli", *cmd],
                stdout=self._log,
                stderr=subprocess.STDOUT,
            )
        self.http = httpx.Client(base_url=self.base, timeout=30)
        self.source = "127.0.0.1"  # the loopback address its requests come from (seen_from)
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        """Wait until the server answers ``/api/options`` (at most 60 s; killed if it does not,
        RuntimeError with its log's end if it exits)."""
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                log = self.log_path.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the server exited: {log}")
            try:
                if self.http.get("/api/options").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("the server did not start in 60 s")
            time.sleep(0.05)

    def again(self) -> Server:
        """The same server started anew, on the same port with the same options (a node that
        comes back after a crash); its log goes on in the same file."""
        return Server(self.database, self.log_path, self.bot_delay, self.args, self.port)

    def seen_from(self, source: str) -> Server:
        """This server as a client at another loopback address sees it (``127.0.0.2`` and up:
        Linux routes all of 127/8 to the loopback): REST helpers whose requests come from
        ``source``, which websockets take as ``local_addr=(server.source, 0)``. A server's
        limits count per address, so each test may come from its own. Never stopped itself:
        close its ``http`` client."""
        other = copy.copy(self)
        transport = httpx.HTTPTransport(local_address=source)
        other.http = httpx.Client(base_url=self.base, timeout=30, transport=transport)
        other.source = source
        return other

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
        self.states: list[dict[str, Any]] = []
        """Every state received, completed as the web client completes it."""

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.messages.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            complete_state(message, self.state)  # as the web client does
            self.state = message
            self.states.append(message)
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


async def connect(
    server: Server, table_id: str, token: str | None, name: str = "", node: str | None = None
) -> Socket:
    """A recording websocket to a table; ``node``: the cluster node it names for the balancer
    (``?node=``)."""
    query = [f"token={token}"] if token else []
    query += [f"node={node}"] if node else []
    url = f"{server.ws_base}/ws/tables/{table_id}" + ("?" + "&".join(query) if query else "")
    ws = await websockets.connect(url, max_size=2**22)
    sock = Socket(ws, name or (token or "spectator")[:6])
    return sock


def stored_pace(database: str, table_id: str) -> str | None:
    """The pace the database holds for a table (None: no such table)."""

    async def load() -> str | None:
        store = SqlStore(database)
        try:
            row = await store.load_table(table_id)
            return None if row is None else row.pace
        finally:
            await store.close()

    return asyncio.run(load())


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
        bot_delay: float | None = 0.0,
        args: tuple[str, ...] = (),
    ) -> Server:
        db = database or f"sqlite:///{tmp_path / 'salad.db'}"
        srv = Server(db, tmp_path / f"server{len(started)}.log", bot_delay, args)
        started.append(srv)
        return srv

    yield start
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[tuple[Any, str]]:
    """The test PostgreSQL server, once a session (a worker's, under xdist): an engine on its
    database ``salad_test`` that can create and drop databases, and the URL's part before the
    database name; skipped when ``SALAD_TEST_POSTGRES_URL`` is not set or it cannot be used."""
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"PostgreSQL is not available ({PG_ENV} is not set; see scripts/postgres.sh)")
    from sqlalchemy import create_engine, make_url, text

    # psycopg 3 (the postgres extra), which the servers use too.
    driver = make_url(url).set(drivername="postgresql+psycopg")
    admin = create_engine(driver, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:
        admin.dispose()
        pytest.skip(f"PostgreSQL at {PG_ENV} cannot be used: {exc}")
    yield admin, url.rpartition("/")[0]
    admin.dispose()


@contextlib.contextmanager
def fresh_database(pg_admin: tuple[Any, str]) -> Iterator[str]:
    """A new, empty database on the test PostgreSQL server, named by a random id (xdist's
    workers never share one), dropped at the end."""
    from sqlalchemy import text

    admin, base = pg_admin
    name = f"salad_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def pg_url(pg_admin: tuple[Any, str]) -> Iterator[str]:
    """A fresh, empty database on the test PostgreSQL server (dropped afterwards). Empty on
    purpose: the servers make their schema at start as on a new deployment (40 ms; copying a
    template database with the schema made would save nothing, measured, and would leave that
    path untested)."""
    with fresh_database(pg_admin) as url:
        yield url


@pytest.fixture
def ws() -> Callable[..., Any]:
    """``await ws(server, table_id, token)``: a recording websocket to a table."""
    return connect


# -- a cluster: Redis, nodes on PostgreSQL, HAProxy in front (test_cluster*.py) ---------------


class RedisServer:
    """A throwaway `redis-server` on a free loopback port (no persistence), restartable."""

    def __init__(self, log_path: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (make system-deps installs it)")
        self.binary = binary
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no", "--logfile", str(self.log_path)]
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
                raise RuntimeError("redis-server did not start in 10 s")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@pytest.fixture(scope="session")
def session_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One Redis for the session (a worker's own under xdist: pub/sub channels are not
    separated by database numbers, so workers cannot share a server)."""
    srv = RedisServer(tmp_path_factory.mktemp("redis") / "redis.log")
    yield srv
    srv.stop()


@pytest.fixture
def redis_server(session_redis: RedisServer) -> RedisServer:
    """The session's Redis, empty (``FLUSHALL``) and running. A test may stop and start it
    (``stop``/``start``: the same port, as a restarted Redis); one that leaves it stopped has it
    started again for the next test."""
    import redis

    if not session_redis.running():
        session_redis.start()
    with redis.Redis.from_url(session_redis.url, socket_timeout=10) as client:
        client.flushall()
    return session_redis


BALANCED = httpx.Limits(keepalive_expiry=2.0)
"""A client of the balancer keeps an idle connection for less than HAProxy's ``timeout
http-keep-alive`` (5 s, deploy/haproxy.cfg): else a request may go down a connection as HAProxy
closes it, and find no answer (httpx's own expiry is 5 s too)."""


class HAProxy:
    """deploy/haproxy.cfg in front of the nodes (named node0, node1, ...), on a free port, with
    quick health checks (``haproxy_config``)."""

    def __init__(self, nodes: list[Server], directory: Path) -> None:
        binary = shutil.which("haproxy")
        if binary is None:
            pytest.skip("haproxy is not installed (make system-deps installs it)")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        names = {f"node{i}": node.port for i, node in enumerate(nodes)}
        config = directory / "haproxy.cfg"
        config.write_text(haproxy_config(self.port, names, quick_checks=True))
        self._log = (directory / "haproxy.log").open("a")
        self.proc = subprocess.Popen(
            [binary, "-db", "-f", str(config)], stdout=self._log, stderr=subprocess.STDOUT
        )
        self.http = httpx.Client(base_url=self.base, timeout=30, limits=BALANCED)
        # As long as a node's start may take (Server.wait_ready): a fresh clone's make test
        # starts its first cluster beside the other workers' collections and the browsers.
        deadline = time.monotonic() + 60
        while True:
            try:
                if self.http.get("/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                said = (directory / "haproxy.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"haproxy did not answer /healthz in 60 s: {said}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.http.close()
        self._log.close()


def start_nodes(
    n: int, database: str, redis_url: str, directory: Path, bot_delay: float = 0.0
) -> list[Server]:
    """n cluster nodes (node0, node1, ...) on one database and Redis, started side by side:
    all started, then all waited for."""
    nodes = []
    for i in range(n):
        args = ("--redis", redis_url, "--node-name", f"node{i}", "--proxy", "127.0.0.1")
        nodes.append(Server(database, directory / f"node{i}.log", bot_delay, args, wait=False))
    for node in nodes:
        node.wait_ready()
    return nodes


def say_node_logs(request: pytest.FixtureRequest, nodes: list[Server]) -> None:
    """If the test failed, what each node said last, for the failure's report."""
    report = getattr(request.node, "report_call", None)
    if report is None or not report.failed:
        return
    for i, srv in enumerate(nodes):
        lines = srv.log_path.read_text(errors="replace").splitlines()
        tail = [line for line in lines if "/healthz" not in line][-40:]
        print(f"--- node{i} ({srv.log_path}), last lines:", *tail, sep="\n")


@pytest.fixture
def start_cluster(
    request: pytest.FixtureRequest, tmp_path: Path, pg_url: str, redis_server: RedisServer
) -> Iterator[Callable[..., tuple[list[Server], HAProxy]]]:
    """``start_cluster(n)``: n nodes on one PostgreSQL database and Redis, and HAProxy: a
    cluster of the test's own, for a test that kills, freezes or cuts off a part of it or
    starts its nodes with other options (else ``cluster``)."""
    started: list[Server] = []
    proxies: list[HAProxy] = []

    def start(
        n: int = 3, bot_delay: float = 0.0, database: str | None = None
    ) -> tuple[list[Server], HAProxy]:
        nodes = start_nodes(n, database or pg_url, redis_server.url, tmp_path, bot_delay)
        started.extend(nodes)
        proxies.append(HAProxy(nodes, tmp_path))
        return nodes, proxies[-1]

    yield start
    for proxy in proxies:
        proxy.stop()
    for srv in started:
        srv.stop()
    say_node_logs(request, started)


@pytest.fixture(scope="session")
def session_cluster(
    tmp_path_factory: pytest.TempPathFactory, pg_admin: tuple[Any, str]
) -> Iterator[tuple[list[Server], HAProxy]]:
    """Three nodes (bots play at once) on a database and a Redis of their own, and HAProxy,
    once a session: see ``cluster``."""
    directory = tmp_path_factory.mktemp("cluster")
    with contextlib.ExitStack() as stack:
        redis = RedisServer(directory / "redis.log")
        stack.callback(redis.stop)
        url = stack.enter_context(fresh_database(pg_admin))
        nodes = start_nodes(3, url, redis.url, directory)
        for srv in nodes:  # stopped before their database is dropped
            stack.callback(srv.stop)
        proxy = HAProxy(nodes, directory)
        stack.callback(proxy.stop)
        yield nodes, proxy


@pytest.fixture
def cluster(
    request: pytest.FixtureRequest, session_cluster: tuple[list[Server], HAProxy]
) -> Iterator[tuple[list[Server], HAProxy]]:
    """``nodes, proxy = cluster``: three running nodes and HAProxy shared by the tests that
    play on tables of their own and leave every node as it was (no kill, no freeze, no other
    options); each of them is in one ``xdist_group`` (tests/conftest.py), so a session starts
    these nodes once, not three for each test. Every node must still be running after it."""
    nodes, _proxy = session_cluster
    yield session_cluster
    say_node_logs(request, nodes)
    stopped = [f"node{i}" for i, node in enumerate(nodes) if node.proc.poll() is not None]
    assert not stopped, f"the shared cluster lost {stopped}: a test left it broken"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """The call's report, on the item, for fixtures that say more when a test failed."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.report_call = report  # type: ignore[attr-defined]


class TcpProxy:
    """HAProxy in TCP mode in front of a server (e.g. PostgreSQL), to cut it off and back."""

    def __init__(self, target_port: int, directory: Path) -> None:
        binary = shutil.which("haproxy")
        if binary is None:
            pytest.skip("haproxy is not installed (make system-deps installs it)")
        self.binary = binary
        self.port = free_port()
        self.config = directory / f"tcp{self.port}.cfg"
        self.config.write_text(
            "defaults\n    mode tcp\n    timeout connect 2s\n    timeout client 1h\n"
            f"    timeout server 1h\nlisten pg\n    bind 127.0.0.1:{self.port}\n"
            f"    server target 127.0.0.1:{target_port}\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [self.binary, "-db", "-f", str(self.config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("haproxy (tcp) did not start in 10 s") from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Cut every connection through it, and refuse new ones."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
