"""Server load: many tables at once, every seat a websocket client playing as fast as it can.

Starts ``salad serve`` on a free loopback port with a fresh SQLite file (or uses ``--url``),
creates ``--tables`` four-seat tables (the host creates, three guests join, the host starts),
opens four websockets per table and lets every client play a random legal card the moment its
``state`` says it is to move, until every game is over (six hands, 312 moves a table).

For each move it measures the time from the client sending ``play`` to the last of the table's
four clients receiving the ``state`` that holds it (its ``moves`` count), i.e. play-to-broadcast
latency as the players see it, client processing included. Printed: moves per second over the
whole run, p50/p90/p99/max latency, the server's CPU time per move and the machine's load; the
last line is one JSON object with ``tables``, ``moves_per_s``, ``p50_ms`` and ``p99_ms``.

    python benchmarks/server_load.py                 # 200 tables (make bench-server)
    python benchmarks/server_load.py --tables 20 --games 1
    python benchmarks/server_load.py --url http://127.0.0.1:8000
    python benchmarks/server_load.py --workers 2     # salad serve --workers 2

The clients run in this one process (asyncio, uvloop when installed), by default on the
sans-I/O core of the ``websockets`` library, each message handled in the callback that reads
it (``--client aiohttp`` or ``websockets`` for the libraries' own asyncio clients, which need
more CPU); every client parses every message it gets. On a small machine the clients compete
with the server for the CPU, which is part of what is measured; the CPU time per move of the
server process and of the clients is printed too. The clients' own garbage collector is kept
from scanning the set-up objects again and again (``gc.freeze``), as the server does.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

SEATS = 4


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: list[str] = []


class TableRun:
    """One table: four clients, the moves in flight and their send times."""

    def __init__(self, table_id: str, tokens: list[str], stats: Stats, rng: random.Random):
        self.table_id = table_id
        self.tokens = tokens
        self.stats = stats
        self.rng = rng
        self.pending: dict[int, list[float]] = {}
        """moves count -> [sent at, clients still to see it]"""
        self.go = asyncio.Event()

    def on_message(self, seat: int, text: str, sent_for: list[int]) -> str | None:
        """Account for one message a seat received; the play to send, if it is to move."""
        message = json.loads(text)
        if message["type"] == "error":
            self.stats.errors.append(message["message"])
            return None
        if message["type"] != "state":
            return None
        moves = message["moves"]
        entry = self.pending.get(moves)
        if entry is not None:
            entry[1] -= 1
            if entry[1] == 0:
                self.stats.latencies.append(time.perf_counter() - entry[0])
                del self.pending[moves]
        view = message["view"]
        if view["phase"] == "over":
            raise GameOver
        if view["to_move"] == seat and view["legal"] and sent_for[0] != moves:
            sent_for[0] = moves
            self.pending[moves + 1] = [time.perf_counter(), SEATS]
            self.stats.moves += 1
            card: str = self.rng.choice(view["legal"])
            return '{"type":"play","move":"' + card + '"}'
        return None

    async def client(self, ws_base: str, seat: int, connected: list[int]) -> None:
        """A seat's client on the `websockets` library."""
        url = f"{ws_base}/ws/tables/{self.table_id}?token={self.tokens[seat]}"
        async with websockets.connect(url, compression=None, max_size=2**22) as ws:
            connected[0] += 1
            await self.go.wait()  # states sent meanwhile wait in the socket
            sent_for = [-1]
            try:
                async for text in ws:
                    play = self.on_message(seat, str(text), sent_for)
                    if play is not None:
                        await ws.send(play)
            except GameOver:
                return

    async def client_sansio(self, ws_base: str, seat: int, connected: list[int]) -> None:
        """A seat's client on the sans-I/O core of ``websockets`` driven by an asyncio protocol:
        every message is handled in the callback that reads it, with no task or future per
        message (the least client CPU, so that the server gets the most of the machine)."""
        url = f"{ws_base}/ws/tables/{self.table_id}?token={self.tokens[seat]}"
        loop = asyncio.get_running_loop()
        client = SansIOClient(self, seat, url, loop)
        host, port = url.split("/")[2].split(":")
        await loop.create_connection(lambda: client, host, int(port))
        await client.opened
        connected[0] += 1
        await self.go.wait()
        client.start()
        await client.done

    async def client_aiohttp(self, ws_base: str, seat: int, connected: list[int]) -> None:
        """A seat's client on aiohttp (its websocket reader is compiled: less client CPU)."""
        url = f"{ws_base}/ws/tables/{self.table_id}?token={self.tokens[seat]}"
        async with SESSION[0].ws_connect(url, compress=0, max_msg_size=2**22) as ws:
            connected[0] += 1
            await self.go.wait()
            sent_for = [-1]
            try:
                async for msg in ws:
                    play = self.on_message(seat, msg.data, sent_for)
                    if play is not None:
                        await ws.send_str(play)
            except GameOver:
                return


class GameOver(Exception):
    pass


class SansIOClient(asyncio.Protocol):
    """One websocket client: ``websockets``' sans-I/O ``ClientProtocol`` over a transport."""

    def __init__(self, run: TableRun, seat: int, url: str, loop: asyncio.AbstractEventLoop) -> None:
        self.run, self.seat = run, seat
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.request = self.ws.connect()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[None] = loop.create_future()
        self.waiting: list[bytes] | None = []  # messages that came before the start
        self.sent_for = [-1]
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.ws.send_request(self.request)
        self.flush()

    def flush(self) -> None:
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)

    def start(self) -> None:
        waiting, self.waiting = self.waiting or [], None
        for data in waiting:
            if self.handle(data):
                return
        self.flush()

    def handle(self, data: bytes) -> bool:
        """Handle one message; True once the game is over (the connection is then closed)."""
        try:
            play = self.run.on_message(self.seat, data.decode(), self.sent_for)
        except GameOver:
            self.ws.send_close()
            self.flush()
            self.transport.close()
            if not self.done.done():
                self.done.set_result(None)
            return True
        if play is not None:
            self.ws.send_text(play.encode())
        return False

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if self.ws.handshake_exc is not None:
                    self.opened.set_exception(self.ws.handshake_exc)
                else:
                    self.opened.set_result(None)
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                if self.waiting is not None:
                    self.waiting.append(bytes(event.data))
                elif self.handle(bytes(event.data)):
                    return
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        for future in (self.opened, self.done):
            if not future.done():
                future.set_exception(exc or ConnectionError("the server closed the connection"))


SESSION: list[Any] = []
"""The aiohttp client session, when aiohttp clients are used."""


async def make_table(http: httpx.AsyncClient, i: int) -> tuple[str, list[str]]:
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (SEATS - 1)
    r = await http.post("/api/tables", json={"name": f"Host {i}", "seats": seats})
    r.raise_for_status()
    created = r.json()
    table_id = created["table_id"]
    tokens = [created["token"]]
    for k in range(1, SEATS):
        j = await http.post(f"/api/tables/{table_id}/join", json={"name": f"Guest {i}.{k}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    s = await http.post(
        f"/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
    )
    s.raise_for_status()
    return table_id, tokens


async def run(
    base: str, tables: int, seed: int, client_kind: str, pid: int | None
) -> dict[str, Any]:
    stats = Stats()
    ws_base = "ws" + base[len("http") :]
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        sem = asyncio.Semaphore(32)

        async def one(i: int) -> tuple[str, list[str]]:
            async with sem:
                return await make_table(http, i)

        made = await asyncio.gather(*(one(i) for i in range(tables)))
    print(f"{tables} tables created and started", flush=True)
    if client_kind == "aiohttp":
        import aiohttp

        SESSION.append(aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)))
    runs = [
        TableRun(tid, toks, stats, random.Random(seed + i)) for i, (tid, toks) in enumerate(made)
    ]
    connected = [0]
    connect_sem = asyncio.Semaphore(64)

    async def client(r: TableRun, seat: int) -> None:
        async with connect_sem:
            before = connected[0]
            play = {
                "aiohttp": r.client_aiohttp,
                "websockets": r.client,
                "sansio": r.client_sansio,
            }[client_kind]
            task = asyncio.ensure_future(play(ws_base, seat, connected))
            while connected[0] == before and not task.done():
                await asyncio.sleep(0.001)
        await task

    tasks = [asyncio.ensure_future(client(r, s)) for r in runs for s in range(SEATS)]
    while connected[0] < len(tasks) and not any(t.done() for t in tasks):
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)  # let the connect broadcasts settle
    gc.collect()
    gc.freeze()
    print(f"{len(tasks)} websockets open; playing", flush=True)
    # CPU time is counted from here: the play only, not the setting up.
    server0 = cpu_seconds(pid) if pid else float("nan")
    own0 = time.process_time()
    start = time.perf_counter()
    for r in runs:
        r.go.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - start
    own = time.process_time() - own0
    server = cpu_seconds(pid) - server0 if pid else float("nan")
    if SESSION:
        await SESSION.pop().close()
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(len(lat) * p))] * 1000, 1) if lat else 0.0

    return {
        "tables": tables,
        "moves": stats.moves,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(stats.moves / elapsed, 1) if elapsed else 0.0,
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": round(lat[-1] * 1000, 1) if lat else 0.0,
        "client_cpu_us_per_move": round(own / max(1, stats.moves) * 1e6),
        "server_cpu_us_per_move": None
        if pid is None
        else round(server / max(1, stats.moves) * 1e6),
        "errors": len(stats.errors) + len(failures),
        "first_error": next(iter(stats.errors + [repr(f) for f in failures]), None),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and of its children now running (the server's workers)."""
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


def start_server(directory: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    db = os.path.join(directory, "bench.db")
    cmd = [sys.executable, "-m", "salad.cli", "serve", "--port", str(port)]
    cmd += ["--database", db, "--bot-delay", "0", "--workers", str(workers)]
    # One client address opens every table: the server's per-address rate limits are for people.
    env = {**os.environ, "SALAD_RATE_LIMITS": "off"}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if httpx.get(base + "/api/options", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (salad serve --workers N)",
    )
    parser.add_argument(
        "--client",
        choices=["sansio", "aiohttp", "websockets"],
        default="sansio",
        help="websocket client: websockets' sans-I/O core on an asyncio protocol (default, the "
        "least CPU), aiohttp, or the websockets library's asyncio client",
    )
    args = parser.parse_args()
    client_kind = args.client
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    with tempfile.TemporaryDirectory(prefix="salad-bench-") as tmp:
        proc = None
        if args.url:
            base = args.url.rstrip("/")
        else:
            proc, base = start_server(tmp, args.workers)
        try:
            load0 = os.getloadavg()[0]
            pid = proc.pid if proc else None
            result = runner(run(base, args.tables, args.seed, client_kind, pid))
            result["client"] = client_kind
            result["workers"] = args.workers
            result["load_before"] = round(load0, 2)
            result["load_after"] = round(os.getloadavg()[0], 2)
            result["cpus"] = os.cpu_count()
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
    print(
        f"{result['tables']} tables, {result['moves']} moves in {result['seconds']} s: "
        f"{result['moves_per_s']} moves/s"
    )
    print(
        f"play -> broadcast at all 4 clients: p50 {result['p50_ms']} ms, "
        f"p90 {result['p90_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms"
    )
    if result["server_cpu_us_per_move"] is not None:
        print(f"server CPU per move: {result['server_cpu_us_per_move']} us")
    print(
        f"client CPU per move (all 4 clients, this process): {result['client_cpu_us_per_move']} us"
    )
    print(f"load average before/after: {result['load_before']} / {result['load_after']}")
    print(
        f"errors: {result['errors']}" + (f" ({result['first_error']})" if result["errors"] else "")
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
