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
    python benchmarks/server_load.py --tables 20
    python benchmarks/server_load.py --url http://127.0.0.1:8000
    scripts/postgres.sh python benchmarks/server_load.py --nodes 3 --compare --failover
                                                     # make bench-cluster

Cluster runs (``--nodes N`` with N > 1, or ``--cluster``) start a redis-server, N nodes on a
fresh database of the PostgreSQL server at ``--database`` (default ``$SALAD_TEST_POSTGRES_URL``,
which ``scripts/postgres.sh`` sets) and HAProxy in front (a table's requests by a hash of its id,
the rest round robin); the clients connect through HAProxy only. As the web client does, each
table's clients name the node holding it (the ``salad-node`` header of the table's answers,
``?node=`` in the websocket's URL), and HAProxy sends them there; ``--unnamed`` (or its old name
``--relay``) leaves the name out, so each websocket goes where the table's hash sends it, and is
redirected (close 4307, ``node=NAME``: the client reconnects at once naming it) when that node
does not hold the table (a table is held where it was made, round robin: about two thirds of
them at 3 nodes). Every HTTP request follows the nodes' 307s. The server CPU per move is then
the nodes' and Redis's together, as issue #16 counts a cluster's CPU ("all nodes and Redis
together"), each listed; HAProxy's and PostgreSQL's are listed besides, and the sum with
HAProxy's is printed too. A cluster run ends with issue #16's targets, each with the figures of
this run it is checked against (at 200 tables, the default).
``--compare`` runs one node on the same PostgreSQL, Redis and HAProxy, then the N nodes,
``--rounds`` times (3), and prints the N-node figures as ratios to the one-node run just before,
and their median: absolute figures move with the machine's load, and on a shared machine its
speed drifts from one minute to the next (the clients' own CPU a move, the same work in every
run, has moved by a third between two runs). ``--failover`` kills (SIGKILL) the node holding the
most tables once half the moves are played (with ``--compare``, in a run of its own after the
rounds, so that the takeover's work is not counted in the ratios);
the clients reconnect through HAProxy when their websocket closes, as the web client does (short
backoff, nothing sent until a state comes, play on from it). Reported: the moves lost (every
move a client saw acknowledged, i.e. a state with that many moves, must be in the table's final
record) and the longest stall (from the kill to a table's next new state, max over tables).

``--against REV`` measures this code beside the code of git revision ``REV`` (its ``src``
taken with ``git archive`` into a folder of its own; the clients are this code's): ``--rounds``
pairs of one node (on SQLite, or with ``--cluster`` a cluster node), each pair's order
alternated, and prints this code's figures as ratios to the other's and their median, with
issue #32's targets (CPU a move at most x1.10, p99 at most x1.15). ``make bench-server`` and
``make bench-cluster`` run it against the code before issue #32 (``AGAINST=27266ee``).

The server runs with its limits per connection (each websocket's messages, and those refused)
as a server has them, counted at every message; its limits per address are raised out of the
way, since one address here opens every table (``cluster_procs.PER_ADDRESS``).

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
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import h11
import httpx
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

from salad.events import PASS, PLAY, TRUMP
from salad.formats.records import game_from_record
from salad.moves import format_move
from salad.server.cluster.names import MAX_HOPS as MAX_REDIRECTS
from salad.server.cluster.names import MOVED_TO, REDIRECT, redirect_target

sys.path.insert(0, str(Path(__file__).parent))
from cluster_procs import (  # noqa: E402  (a sibling file, not a package)
    HAProxy,
    Meter,
    Node,
    Redis,
    fresh_database,
    postmaster_pid,
)

PG_ENV = "SALAD_TEST_POSTGRES_URL"

SEATS = 4


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.errors: list[str] = []


class TableRun:
    """One table: four clients, the moves in flight and their send times."""

    def __init__(
        self,
        table_id: str,
        tokens: list[str],
        stats: Stats,
        rng: random.Random,
        node: str | None = None,
    ):
        self.table_id = table_id
        self.tokens = tokens
        self.node = node
        """The node holding the table, as its answers named it (``salad-node``), if any: the
        websockets name it as the web client's do (``?node=``), so the balancer sends them
        there."""
        self.ask: str | None = None
        """Where to ask which node holds the table before connecting again (failover runs):
        the balancer's base URL."""
        self.stats = stats
        self.rng = rng
        self.pending: dict[int, list[float]] = {}
        """moves count -> [sent at, clients still to see it]"""
        self.go = asyncio.Event()
        self.sent: dict[int, str] = {}
        """moves count k -> the move last sent to make it k"""
        self.acked: dict[int, str] = {}
        """moves count k -> the move sent for it when a client first saw a state with k moves"""
        self.seen = 0
        """The most moves any client of the table has seen."""
        self.backwards = 0
        """States that had fewer moves than a client had seen before (a lost move)."""
        self.killed_at: float | None = None
        """When a node was killed, if the table was playing then (failover runs)."""
        self.progress_at = 0.0
        self.stall = 0.0
        """The longest wait for a new state since the kill (from the kill or the state before):
        states already under way when the node died do not end the stall."""
        self.seat_seen = [0] * SEATS
        self.over = False
        self.reconnects = 0
        self.redirects = 0
        """Connections a cluster node closed with a redirect, and opened again on the node it
        named."""

    def on_message(self, seat: int, text: str, sent_for: list[int]) -> str | None:
        """Account for one message a seat received; the play to send, if it is to move.

        ``sent_for`` is this connection's own: the move count it last played for, and the hand
        whose Next hand it pressed (a message sent on a connection whose server died may be
        lost: a new connection sends again what the server's state asks for)."""
        message = json.loads(text)
        if message["type"] == "error" and message["message"].startswith(MOVED_TO):
            return None  # a cluster node's redirect: its close follows
        if message["type"] == "error":
            self.stats.errors.append(message["message"])
            return None
        if message["type"] != "state":
            return None
        moves = message["moves"]
        if moves not in self.acked and moves in self.sent:
            self.acked[moves] = self.sent[moves]
        if moves < self.seat_seen[seat]:
            self.backwards += 1
        self.seat_seen[seat] = max(self.seat_seen[seat], moves)
        if moves > self.seen:
            self.seen = moves
            if self.killed_at is not None:
                now = time.perf_counter()
                self.stall = max(self.stall, now - max(self.progress_at, self.killed_at))
                self.progress_at = now
        entry = self.pending.get(moves)
        if entry is not None:
            entry[1] -= 1
            if entry[1] == 0:
                self.stats.latencies.append(time.perf_counter() - entry[0])
                del self.pending[moves]
        view = message["view"]
        if view["phase"] == "over":
            self.over = True
            raise GameOver
        end = message.get("hand_end")
        if end and end["waiting"]:  # a hand's summary is up: "Next hand", once
            if seat in end["waiting"] and sent_for[1] != end["hand"]:
                sent_for[1] = end["hand"]
                return '{"type":"next"}'
            return None
        if view["to_move"] == seat and view["legal"] and sent_for[0] != moves:
            sent_for[0] = moves
            self.pending[moves + 1] = [time.perf_counter(), SEATS]
            self.stats.moves += 1
            card: str = self.rng.choice(view["legal"])
            self.sent[moves + 1] = card
            return '{"type":"play","move":"' + card + '"}'
        return None

    def url(self, ws_base: str, seat: int, node: str | None = None) -> str:
        """The seat's websocket URL, naming ``node`` (default: the node the table's answers
        named, if the clients name it)."""
        url = f"{ws_base}/ws/tables/{self.table_id}?token={self.tokens[seat]}"
        node = node or self.node
        return url + f"&node={node}" if node else url

    async def client(self, ws_base: str, seat: int, connected: list[int]) -> None:
        """A seat's client on the `websockets` library."""
        url = self.url(ws_base, seat)
        async with websockets.connect(url, compression=None, max_size=2**22) as ws:
            connected[0] += 1
            await self.go.wait()  # states sent meanwhile wait in the socket
            sent_for = [-1, -1]
            try:
                async for text in ws:
                    play = self.on_message(seat, str(text), sent_for)
                    if play is not None:
                        await ws.send(play)
            except GameOver:
                return

    async def client_sansio(
        self, ws_base: str, seat: int, connected: list[int], reconnect: bool = False
    ) -> None:
        """A seat's client on the sans-I/O core of ``websockets`` driven by an asyncio protocol:
        every message is handled in the callback that reads it, with no task or future per
        message (the least client CPU, so that the server gets the most of the machine).

        With ``reconnect``, a connection that closes before the game is over is opened again
        through the same address (the balancer) after a short backoff, as the web client does:
        it first asks which node holds the table now (``ask``, when the table's answers name
        one), and the new connection sends nothing until it gets a state, and plays on from
        it. A connection a cluster node closes with a redirect (4307, ``node=NAME``) is opened
        again at once naming that node, reconnect or not (at most :data:`MAX_REDIRECTS` in a
        row)."""
        url = self.url(ws_base, seat)
        loop = asyncio.get_running_loop()
        host, port = url.split("/")[2].split(":")
        first = True
        give_up = 0.0
        redirects = 0
        while True:
            client = SansIOClient(self, seat, url, loop, wait=first)
            try:
                await loop.create_connection(lambda c=client: c, host, int(port))
                await client.opened
            except Exception:
                if first or not reconnect or time.perf_counter() > give_up:
                    raise
                await asyncio.sleep(0.1 + 0.2 * self.rng.random())
                url = await self.ask_node(ws_base, seat, url)
                continue
            if first:
                connected[0] += 1
                await self.go.wait()
                client.start()
                first = False
            try:
                await client.done
                return
            except Exception:
                moved = client.redirect()
                if moved is not None and redirects < MAX_REDIRECTS and not self.over:
                    redirects += 1
                    self.redirects += 1
                    url = self.url(ws_base, seat, moved)
                    continue
                if not reconnect or self.over:
                    raise
                self.reconnects += 1
                give_up = time.perf_counter() + 60
                await asyncio.sleep(0.05 + 0.1 * self.rng.random())
                url = await self.ask_node(ws_base, seat, url)

    async def ask_node(self, ws_base: str, seat: int, url: str) -> str:
        """The URL to connect with again: naming the node that holds the table now, as the web
        client asks before each connection (``url`` unchanged when nobody is asked)."""
        if self.ask is None or self.node is None:
            return url
        self.node = await ask_holder(self.ask, self.table_id) or self.node
        return self.url(ws_base, seat)

    async def client_aiohttp(self, ws_base: str, seat: int, connected: list[int]) -> None:
        """A seat's client on aiohttp (its websocket reader is compiled: less client CPU)."""
        url = self.url(ws_base, seat)
        async with SESSION[0].ws_connect(url, compress=0, max_msg_size=2**22) as ws:
            connected[0] += 1
            await self.go.wait()
            sent_for = [-1, -1]
            try:
                async for msg in ws:
                    play = self.on_message(seat, msg.data, sent_for)
                    if play is not None:
                        await ws.send_str(play)
            except GameOver:
                return


class GameOver(Exception):
    pass


class HolderQuestion(asyncio.Protocol):
    """``GET /api/tables/{id}`` on h11's sans-I/O core, for the ``salad-node`` header of its
    answer. As light as :class:`SansIOClient`: the clients' process runs every other table
    flat out, and a question asked through httpx waited seconds there for its turns of the
    event loop (the clients' own delay, which a browser asking on its own does not have)."""

    def __init__(self, host: str, path: str, loop: asyncio.AbstractEventLoop) -> None:
        self.http = h11.Connection(h11.CLIENT)
        self.request = h11.Request(
            method="GET", target=path, headers=[("Host", host), ("Connection", "close")]
        )
        self.node: asyncio.Future[str | None] = loop.create_future()

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        transport.write(self.http.send(self.request) + self.http.send(h11.EndOfMessage()))

    def data_received(self, data: bytes) -> None:
        self.http.receive_data(data)
        event = self.http.next_event()
        if isinstance(event, h11.Response):
            headers = dict(event.headers)
            found = headers.get(b"salad-node")
            if event.status_code == 307:  # asked a node that does not hold it: it names one
                query = parse_qs(urlsplit(headers.get(b"location", b"").decode()).query)
                self._answer((query.get("node") or [None])[0])
                return
            self._answer(found.decode() if found and event.status_code == 200 else None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._answer(None)

    def _answer(self, node: str | None) -> None:
        if not self.node.done():
            self.node.set_result(node)
            self.transport.close()


async def ask_holder(base: str, table_id: str) -> str | None:
    """The node a cluster's answer for the table names (None if none does, or no answer)."""
    host, port = base.split("/")[2].split(":")
    loop = asyncio.get_running_loop()
    question = HolderQuestion(f"{host}:{port}", f"/api/tables/{table_id}", loop)
    try:
        await loop.create_connection(lambda: question, host, int(port))
        return await asyncio.wait_for(question.node, 30)
    except (OSError, TimeoutError, h11.ProtocolError):
        return None


class SansIOClient(asyncio.Protocol):
    """One websocket client: ``websockets``' sans-I/O ``ClientProtocol`` over a transport."""

    def __init__(
        self, run: TableRun, seat: int, url: str, loop: asyncio.AbstractEventLoop, wait: bool
    ) -> None:
        self.run, self.seat = run, seat
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.request = self.ws.connect()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.done: asyncio.Future[None] = loop.create_future()
        self.waiting: list[bytes] | None = [] if wait else None  # those before the start
        self.sent_for = [-1, -1]
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
        if play is not None and self.ws.state is State.OPEN:  # (not a closing connection)
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

    def redirect(self) -> str | None:
        """The node a cluster node's redirect named, if it closed this connection with one."""
        close = self.ws.close_rcvd
        return redirect_target(close.reason) if close and close.code == REDIRECT else None


SESSION: list[Any] = []
"""The aiohttp client session, when aiohttp clients are used."""


async def post(http: httpx.AsyncClient, path: str, **kwargs: Any) -> httpx.Response:
    """A POST, tried again on a 503 (a cluster answers so, with Retry-After, while a node or a
    table's lease is in flux: docs/protocol.md, "Many servers")."""
    for _ in range(40):
        r = await http.post(path, **kwargs)
        if r.status_code != 503:
            break
        await asyncio.sleep(0.25)
    r.raise_for_status()
    return r


async def make_table(http: httpx.AsyncClient, i: int) -> tuple[str, list[str], str | None]:
    """A table of four people, started; its id, their tokens and the node holding it (the
    ``salad-node`` header of a cluster's answers)."""
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (SEATS - 1)
    created = (await post(http, "/api/tables", json={"name": f"Host {i}", "seats": seats})).json()
    table_id = created["table_id"]
    tokens = [created["token"]]
    for k in range(1, SEATS):
        j = await post(http, f"/api/tables/{table_id}/join", json={"name": f"Guest {i}.{k}"})
        tokens.append(j.json()["token"])
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    started = await post(http, f"/api/tables/{table_id}/start", headers=auth)
    return table_id, tokens, started.headers.get("salad-node")


MOVES_PER_GAME = 312
"""Six hands of 13 tricks of 4 cards (the default ruleset): where a run's middle is."""


class Failover:
    """Kill -9 the node holding the most tables once the tables are half played."""

    def __init__(self, nodes: list[Node], meter: Meter) -> None:
        self.nodes = nodes
        self.meter = meter
        self.killed_at = 0.0
        self.victim = ""

    async def kill_in_the_middle(self, runs: list[TableRun]) -> None:
        half = len(runs) * MOVES_PER_GAME // 2
        while sum(r.seen for r in runs) < half:
            await asyncio.sleep(0.05)
        held = await asyncio.gather(*(asyncio.to_thread(n.tables_in_memory) for n in self.nodes))
        i = max(range(len(self.nodes)), key=lambda k: held[k])
        self.meter.sample()  # what the node has used up to its death
        self.nodes[i].kill()
        self.killed_at = time.perf_counter()
        for r in runs:
            if not r.over:
                r.killed_at = self.killed_at
        self.victim = f"node{i} (tables in memory per node: {held})"
        print(f"killed node{i} with kill -9; tables in memory per node were {held}", flush=True)


def record_moves(record: dict[str, Any]) -> list[str]:
    """Every move of a ``salad-record/2`` record, as the protocol writes them."""
    game = game_from_record(record)
    size = game.deck.size
    moves = []
    for entry in game.log:
        if entry[0] in (PLAY, PASS):
            moves.append(int(entry[2]))  # type: ignore[call-overload]
        elif entry[0] == TRUMP and int(entry[2]) >= 0:  # type: ignore[call-overload]
            moves.append(2 * size + int(entry[3]))  # type: ignore[call-overload]
    return [format_move(game.deck, m) for m in moves]


def missing_moves(acked: dict[int, str], played: list[str]) -> int:
    """How many acknowledged moves (moves count k -> the move that made it k) the record's
    moves (in order) do not have in their place."""
    return sum(1 for k, move in acked.items() if k > len(played) or played[k - 1] != move)


async def lost_moves(http: httpx.AsyncClient, runs: list[TableRun]) -> tuple[int, int]:
    """(moves a client saw acknowledged that the final records lack, records not readable)."""
    sem = asyncio.Semaphore(16)

    async def one(r: TableRun) -> int | None:
        async with sem:
            got = await http.get(f"/api/tables/{r.table_id}/record")
        if got.status_code != 200:
            return None
        return missing_moves(r.acked, record_moves(got.json()))

    counts = await asyncio.gather(*(one(r) for r in runs))
    return sum(c or 0 for c in counts), sum(1 for c in counts if c is None)


async def run(
    base: str,
    tables: int,
    seed: int,
    client_kind: str,
    meter: Meter | None,
    failover: Failover | None = None,
    unnamed: bool = False,
) -> dict[str, Any]:
    """One run; ``unnamed``: the clients do not name the table's node, so the balancer sends
    them by the table's hash, and the node there redirects those it does not hold (only the
    sans-I/O client follows a websocket's redirect)."""
    stats = Stats()
    ws_base = "ws" + base[len("http") :]
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(
        base_url=base, limits=limits, timeout=60, follow_redirects=True
    ) as http:
        sem = asyncio.Semaphore(32)

        async def one(i: int) -> tuple[str, list[str], str | None]:
            async with sem:
                return await make_table(http, i)

        made = await asyncio.gather(*(one(i) for i in range(tables)))
    print(f"{tables} tables created and started", flush=True)
    if client_kind == "aiohttp":
        import aiohttp

        SESSION.append(aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)))
    runs = [
        TableRun(tid, toks, stats, random.Random(seed + i), None if unnamed else node)
        for i, (tid, toks, node) in enumerate(made)
    ]
    # After a failover the clients ask which node holds their table now, as the web client
    # does before each connection.
    for r in runs:
        r.ask = base if failover else None
    connected = [0]
    connect_sem = asyncio.Semaphore(64)

    async def client(r: TableRun, seat: int) -> None:
        async with connect_sem:
            before = connected[0]
            if client_kind == "sansio":
                play = r.client_sansio(ws_base, seat, connected, reconnect=failover is not None)
            else:
                kinds = {"aiohttp": r.client_aiohttp, "websockets": r.client}
                play = kinds[client_kind](ws_base, seat, connected)
            task = asyncio.ensure_future(play)
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
    if meter is not None:
        meter.start()
    own0 = time.process_time()
    start = time.perf_counter()
    for r in runs:
        r.go.set()
    killer = asyncio.ensure_future(failover.kill_in_the_middle(runs)) if failover else None
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.perf_counter() - start
    own = time.process_time() - own0
    used = meter.used() if meter is not None else {}
    if killer is not None and not killer.done():
        killer.cancel()
    if SESSION:
        await SESSION.pop().close()
    failures = [r for r in results if isinstance(r, BaseException)]
    lat = sorted(stats.latencies)
    # A node's "reconnect" error, before it closes a websocket whose table's node went away, is
    # what a failover looks like to a client, not an error.
    errors = [e for e in stats.errors if "reconnect" not in e]
    moves = sum(r.seen for r in runs)  # applied moves (a move sent again after a kill once)

    def pct(p: float) -> float:
        return round(lat[min(len(lat) - 1, int(len(lat) * p))] * 1000, 1) if lat else 0.0

    def per_move(seconds: float) -> int:
        return round(seconds / max(1, moves) * 1e6)

    out: dict[str, Any] = {
        "tables": tables,
        "moves": moves,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(moves / elapsed, 1) if elapsed else 0.0,
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": round(lat[-1] * 1000, 1) if lat else 0.0,
        "client_cpu_us_per_move": per_move(own),
        "cpu_us_per_move": {k: per_move(v) for k, v in used.items()},
        "server_cpu_us_per_move": per_move(sum(v for k, v in used.items() if k != "postgresql"))
        if used
        else None,
        # As issue #16 counts a cluster's CPU: "all nodes and Redis together" (HAProxy apart).
        "nodes_cpu_us_per_move": per_move(
            sum(v for k, v in used.items() if k not in ("postgresql", "haproxy"))
        )
        if used
        else None,
        "errors": len(errors) + len(failures),
        "first_error": next(iter(errors + [repr(f) for f in failures]), None),
        "reconnect_notices": len(stats.errors) - len(errors),
        "redirects": sum(r.redirects for r in runs),
        "tables_naming_their_node": sum(1 for r in runs if r.node),
    }
    if failover is not None and failover.killed_at:
        hit = [r for r in runs if r.killed_at is not None]
        stalls = [r.stall for r in hit if r.progress_at]
        async with httpx.AsyncClient(base_url=base, timeout=60, follow_redirects=True) as http:
            lost, unreadable = await lost_moves(http, runs)
        out["failover"] = {
            "killed": failover.victim,
            "tables_playing_at_kill": len(hit),
            "tables_stalled_over_1s": sum(1 for s in stalls if s > 1),
            "tables_never_resumed": len(hit) - len(stalls),
            "longest_stall_s": round(max(stalls), 2) if stalls else None,
            "moves_acknowledged": sum(len(r.acked) for r in runs),
            "moves_lost": lost,
            "records_unreadable": unreadable,
            "states_going_back": sum(r.backwards for r in runs),
            "reconnects": sum(r.reconnects for r in runs),
        }
    return out


def start_server(directory: str, name: str = "bench", code: str | None = None) -> Node:
    """One `salad serve` on a fresh SQLite file (no Redis, no proxy); ``code``: see Node."""
    log = Path(directory) / f"{name}.log"
    return Node(os.path.join(directory, f"{name}.db"), log, code=code).ready()


def checkout(rev: str, directory: Path) -> str:
    """The ``src`` folder of git revision ``rev`` of this repository, written into
    ``directory``; SystemExit (one line) when git cannot give it."""
    root = Path(__file__).resolve().parents[1]
    directory.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", rev, "src"],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        said = archive.stderr.decode(errors="replace").strip().splitlines() or ["git failed"]
        raise SystemExit(f"server_load.py: --against {rev}: {said[-1]}")
    subprocess.run(["tar", "-x", "-C", str(directory)], input=archive.stdout, check=True)
    return str(directory / "src")


def show_against(rev: str, runs: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """This code's figures as ratios to those of ``rev`` run beside them, round by round, their
    medians, and issue #32's targets checked on the medians."""
    pairs = list(zip(runs[::2], runs[1::2], strict=True))
    rounds = [ratios(a, b) if ka.startswith(rev) else ratios(b, a) for (ka, a), (_, b) in pairs]
    print(f"== this code / {rev}, one pair of runs a round (each pair's order alternated)")
    for i, x in enumerate(rounds, 1):
        print(f"round {i}: " + ", ".join(f"{k} x{v}" for k, v in x.items() if v is not None))
    r = {k: median([v for x in rounds if (v := x[k]) is not None]) for k in rounds[0]}
    cpu, p99 = r["nodes_cpu_us_per_move"] or r["server_cpu_us_per_move"], r["p99_ms"]
    print(f"== median of {len(rounds)} rounds: server CPU a move x{cpu}, p99 x{p99}")
    for what, value, limit in (("CPU a move", cpu, 1.10), ("p99", p99, 1.15)):
        met = "met" if value is not None and value <= limit else "NOT MET"
        print(f"  {what} <= x{limit:.2f} the code before: x{value}: {met}")
    return {"against": rev, "rounds": rounds, "ratios": r}


class Cluster:
    """N nodes on a fresh PostgreSQL database and one Redis, HAProxy in front."""

    def __init__(
        self, n: int, pg_url: str, redis: Redis, directory: Path, code: str | None = None
    ) -> None:
        database = fresh_database(pg_url)
        logs = [directory / f"node{n}.{i}.log" for i in range(n)]
        # The first node alone creates the tables of the new database: nodes starting together
        # on an empty PostgreSQL database can collide creating them (a duplicate pg_type key).
        self.nodes = [Node(database, logs[0], redis.url, "node0", code).ready()]
        self.nodes += [Node(database, logs[i], redis.url, f"node{i}", code) for i in range(1, n)]
        for node in self.nodes[1:]:
            node.ready()
        self.proxy = HAProxy(self.nodes, directory)
        pids = {f"node{i}": node.proc.pid for i, node in enumerate(self.nodes)}
        pids |= {"redis-server": redis.proc.pid, "haproxy": self.proxy.proc.pid}
        postgres = postmaster_pid(pg_url)
        if postgres is not None:
            pids["postgresql"] = postgres
        self.meter = Meter(pids)

    def stop(self) -> None:
        self.proxy.stop()
        for node in self.nodes:
            node.stop()


def show(result: dict[str, Any], label: str) -> None:
    print(f"== {label}")
    print(
        f"{result['tables']} tables, {result['moves']} moves in {result['seconds']} s: "
        f"{result['moves_per_s']} moves/s"
    )
    print(
        f"play -> broadcast at all 4 clients: p50 {result['p50_ms']} ms, "
        f"p90 {result['p90_ms']} ms, p99 {result['p99_ms']} ms, max {result['max_ms']} ms"
    )
    used = result["cpu_us_per_move"]
    if result["server_cpu_us_per_move"] is not None and "haproxy" in used:
        # Issue #16 counts a cluster's CPU as "all nodes and Redis together": HAProxy (and
        # PostgreSQL, which the embedded server does not have either) are listed besides.
        inner = ", ".join(f"{k} {v}" for k, v in used.items() if k not in SERVICES)
        besides = ", ".join(f"{k} {v}" for k, v in used.items() if k in SERVICES)
        print(
            f"server CPU per move (nodes and Redis): {result['nodes_cpu_us_per_move']} us "
            f"({inner}); besides: {besides} us; with HAProxy: "
            f"{result['server_cpu_us_per_move']} us"
        )
    elif result["server_cpu_us_per_move"] is not None:
        parts = ", ".join(f"{k} {v}" for k, v in used.items())
        print(f"server CPU per move: {result['server_cpu_us_per_move']} us ({parts})")
    print(
        f"client CPU per move (all 4 clients, this process): {result['client_cpu_us_per_move']} us"
    )
    print(f"load average before/after: {result['load_before']} / {result['load_after']}")
    print(
        f"errors: {result['errors']}"
        + (f" ({result['first_error']})" if result["errors"] else "")
        + (
            f"; 'reconnect' notices: {result['reconnect_notices']}"
            if result.get("reconnect_notices")
            else ""
        )
    )
    if "failover" in result:
        f = result["failover"]
        print(
            f"failover: killed {f['killed']}; {f['tables_playing_at_kill']} tables playing, "
            f"{f['tables_stalled_over_1s']} stalled over 1 s, longest stall "
            f"{f['longest_stall_s']} s, never resumed {f['tables_never_resumed']}; "
            f"moves lost {f['moves_lost']} of {f['moves_acknowledged']} acknowledged "
            f"(records unreadable {f['records_unreadable']}, states going back "
            f"{f['states_going_back']}); {f['reconnects']} reconnects"
        )


SERVICES = ("haproxy", "postgresql")
"""The processes a cluster run meters besides the nodes and Redis."""

TARGETS = {"p99_1": 100.0, "cpu_1": 150, "p99_n": 150.0, "ratio_n": 1.5, "stall": 5.0}
"""Issue #16's targets: one node's p99 (ms) and CPU a move (us, nodes and Redis), the nodes'
p99 (ms) and CPU a move as a ratio to one node's, and a failover's longest stall (s)."""


def show_targets(runs: list[tuple[str, dict[str, Any]]], ratio: float | None) -> None:
    """Each of issue #16's targets in this run: the figures it is checked against, and whether
    every one of them meets it."""

    def line(what: str, figures: list[float], limit: float, shown: str | None = None) -> None:
        """A target met when there are figures and none is above ``limit``."""
        ok = bool(figures) and all(x <= limit for x in figures)
        shown = shown or ", ".join(str(f) for f in figures) or "not measured"
        print(f"  {what}: {shown}: {'met' if ok else 'NOT MET'}")

    one = [v for k, v in runs if k.startswith("1 node")]
    many = [v for k, v in runs if not k.startswith("1 node") and not k.endswith("one killed")]
    killed = [v["failover"] for k, v in runs if "failover" in v]
    t = TARGETS
    tables = {v["tables"] for _, v in runs}
    if tables != {200}:
        print(
            f"== issue #16's targets are for 200 tables; this run had {', '.join(map(str, tables))}"
        )
        return
    print("== issue #16's targets in this run (CPU a move: nodes and Redis together)")
    line(f"1 node, p99 <= {t['p99_1']:g} ms", [v["p99_ms"] for v in one], t["p99_1"])
    cpu = [v["nodes_cpu_us_per_move"] for v in one]
    line(f"1 node, CPU a move <= {t['cpu_1']} us", cpu, t["cpu_1"])
    if many:
        line(f"more nodes, p99 <= {t['p99_n']:g} ms", [v["p99_ms"] for v in many], t["p99_n"])
        median = [] if ratio is None else [ratio]
        shown = None if ratio is None else f"x{ratio} (median)"
        line(f"more nodes, CPU a move <= {t['ratio_n']}x one node's", median, t["ratio_n"], shown)
    if killed:
        stall = [f["longest_stall_s"] for f in killed]
        line(f"failover, longest stall <= {t['stall']:g} s", stall, t["stall"])
        line("failover, moves lost = 0", [f["moves_lost"] for f in killed], 0)


def ratios(base: dict[str, Any], other: dict[str, Any]) -> dict[str, float | None]:
    def ratio(key: str) -> float | None:
        a, b = base.get(key), other.get(key)
        return round(b / a, 2) if a and b is not None else None

    return {
        "moves_per_s": ratio("moves_per_s"),
        "p50_ms": ratio("p50_ms"),
        "p99_ms": ratio("p99_ms"),
        "server_cpu_us_per_move": ratio("server_cpu_us_per_move"),
        "nodes_cpu_us_per_move": ratio("nodes_cpu_us_per_move"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--url", help="use a running server instead of starting one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--nodes",
        type=int,
        default=1,
        help="salad nodes behind HAProxy on PostgreSQL and Redis (1: one node on SQLite, "
        "unless --cluster)",
    )
    parser.add_argument(
        "--cluster", action="store_true", help="cluster mode (PostgreSQL, Redis, HAProxy) for 1"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="run 1 node on the same PostgreSQL+Redis+HAProxy, then --nodes, --rounds times; "
        "print the ratios",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="with --compare: pairs of runs (1 node, then --nodes) whose ratios' median is printed",
    )
    parser.add_argument(
        "--failover",
        action="store_true",
        help="kill -9 the node holding the most tables in the middle of the --nodes run (with "
        "--compare, a run of its own after the rounds)",
    )
    parser.add_argument(
        "--unnamed",
        "--relay",
        action="store_true",
        help="clients do not name the node holding their table (as a client that ignores the "
        "salad-node header): HAProxy sends them by the table's hash, and a node that does not "
        "hold the table redirects them (4307) to the one that does",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="measure one node (or with --cluster a cluster node) beside the code of git "
        "revision REV, --rounds pairs, and print the ratios",
    )
    parser.add_argument(
        "--database",
        default=os.environ.get(PG_ENV),
        help=f"PostgreSQL server URL (default ${PG_ENV}, as scripts/postgres.sh sets it); "
        "each run gets a fresh database on it",
    )
    parser.add_argument(
        "--client",
        choices=["sansio", "aiohttp", "websockets"],
        default="sansio",
        help="websocket client: websockets' sans-I/O core on an asyncio protocol (default, the "
        "least CPU), aiohttp, or the websockets library's asyncio client",
    )
    args = parser.parse_args()
    cluster = args.cluster or args.nodes > 1 or args.compare or args.failover
    if args.nodes < 1:
        parser.error("--nodes must be at least 1")
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if cluster and args.url:
        parser.error("--url measures a running server: no --nodes, --compare or --failover")
    if cluster and not args.database:
        parser.error(
            f"cluster runs need PostgreSQL: run under scripts/postgres.sh or give --database "
            f"(${PG_ENV} is not set)"
        )
    if args.against and (args.url or args.nodes > 1 or args.compare or args.failover):
        parser.error("--against compares one node: no --url, --nodes, --compare or --failover")
    if args.failover and args.client != "sansio":
        parser.error("--failover needs the sansio client (the one that reconnects)")
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    results: list[tuple[str, dict[str, Any]]] = []

    def measure(base: str, meter: Meter | None, failover: Failover | None = None) -> dict[str, Any]:
        load0 = os.getloadavg()[0]
        result: dict[str, Any] = runner(
            run(base, args.tables, args.seed, args.client, meter, failover, args.unnamed)
        )
        result["client"] = args.client
        result["load_before"] = round(load0, 2)
        result["load_after"] = round(os.getloadavg()[0], 2)
        result["cpus"] = os.cpu_count()
        return result

    with tempfile.TemporaryDirectory(prefix="salad-bench-") as tmp:
        if args.url:
            try:
                results.append(("server at " + args.url, measure(args.url.rstrip("/"), None)))
            except (httpx.HTTPError, OSError, websockets.exceptions.WebSocketException) as exc:
                what = f"{type(exc).__name__}: {(str(exc).splitlines() or [''])[0]}"
                raise SystemExit(f"server_load.py: --url {args.url}: {what}") from None
        elif args.against:
            against(args.against, args, Path(tmp), results, measure)
        elif not cluster:
            node = start_server(tmp)
            try:
                meter = Meter({"node0": node.proc.pid})
                results.append(("1 node on SQLite, no proxy", measure(node.base, meter)))
            finally:
                node.stop()
        else:
            redis = Redis(Path(tmp))
            try:
                for n, kill in plan(args.nodes, args.compare, args.failover, args.rounds):
                    label = f"{n} node{'s' if n > 1 else ''} on PostgreSQL + Redis, via HAProxy"
                    if kill:
                        label += ", one killed"
                    if args.unnamed:
                        label += ", clients unnamed (hash, redirects)"
                    print(f"starting {label}", flush=True)
                    c = Cluster(n, args.database, redis, Path(tmp))
                    try:
                        failover = Failover(c.nodes, c.meter) if kill else None
                        results.append((label, measure(c.proxy.base, c.meter, failover)))
                        show(*reversed(results[-1]))
                    finally:
                        c.stop()
            finally:
                redis.stop()
    if not cluster and not args.against:
        show(*reversed(results[-1]))
    summary: dict[str, Any] = {"runs": [{"label": k, **v} for k, v in results]}
    if args.against:
        summary |= show_against(args.against, results)
    if args.compare:
        steady = [v for k, v in results if not k.endswith("one killed")]
        rounds = [ratios(a, b) for a, b in zip(steady[::2], steady[1::2], strict=True)]
        summary["rounds"] = rounds
        summary["ratios_to_1_node"] = r = {
            k: median([x[k] for x in rounds if x[k] is not None]) for k in rounds[0]
        }
        for i, x in enumerate(rounds, 1):
            print(f"round {i}: " + ", ".join(f"{k} x{v}" for k, v in x.items()))
        print(
            f"== {args.nodes} nodes / 1 node, median of {len(rounds)} rounds: moves/s "
            f"x{r['moves_per_s']}, p50 x{r['p50_ms']}, p99 x{r['p99_ms']}, server CPU per move "
            f"x{r['nodes_cpu_us_per_move']} (nodes and Redis; with HAProxy "
            f"x{r['server_cpu_us_per_move']})"
        )
    if cluster and not args.unnamed and not args.against:
        show_targets(results, summary.get("ratios_to_1_node", {}).get("nodes_cpu_us_per_move"))
    print(json.dumps(summary if len(results) > 1 else results[0][1]))


def against(
    rev: str,
    args: argparse.Namespace,
    tmp: Path,
    results: list[tuple[str, dict[str, Any]]],
    measure: Any,
) -> None:
    """``--against``: ``--rounds`` pairs of one node, the code of ``rev`` and this code, each
    pair's order alternated (the machine's speed drifts), each run shown as it ends."""
    other = checkout(rev, tmp / "against")
    redis = Redis(tmp) if args.cluster else None
    try:
        for i in range(args.rounds):
            for code in (other, None) if i % 2 == 0 else (None, other):
                label = (rev if code else "this code") + (
                    ", a cluster node on PostgreSQL + Redis, via HAProxy"
                    if redis
                    else ", 1 node on SQLite, no proxy"
                )
                print(f"starting {label}", flush=True)
                if redis is not None:
                    c = Cluster(1, args.database, redis, tmp, code)
                    try:
                        results.append((label, measure(c.proxy.base, c.meter)))
                    finally:
                        c.stop()
                else:
                    node = start_server(str(tmp), f"run{len(results)}", code)
                    try:
                        results.append((label, measure(node.base, Meter({"node0": node.proc.pid}))))
                    finally:
                        node.stop()
                show(*reversed(results[-1]))
    finally:
        if redis is not None:
            redis.stop()


def plan(nodes: int, compare: bool, failover: bool, rounds: int) -> list[tuple[int, bool]]:
    """The cluster runs, as (nodes, whether one is killed): with ``compare``, ``rounds`` pairs
    of one node then ``nodes`` nodes, none killed (the machine's speed drifts: the ratios of
    runs side by side, and their median, hold where absolute figures do not), then the
    ``failover`` run; without, one run of ``nodes`` nodes."""
    if not compare:
        return [(nodes, failover and nodes > 1)]
    runs = [(n, False) for _ in range(rounds) for n in (1, nodes)]
    return runs + ([(nodes, True)] if failover and nodes > 1 else [])


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


if __name__ == "__main__":
    main()
