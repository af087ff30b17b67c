"""Where a move's server CPU goes: salad's own code, and the web stack under it.

``make bench-server`` measures the whole server (``benchmarks/server_load.py``). This splits it
in two parts, measured side by side in alternating rounds (the machine's speed drifts):

* **salad**: the table manager with its storage on SQLite, driven directly, its websockets
  taking every message at once (no sockets, no ASGI): reading a move, checking it, storing it,
  playing it, and building and handing out the four ``state`` messages. Measured as this
  process's CPU time a move while 200 tables play out at random, as in the load benchmark.
* **floor**: the same traffic on the web stack alone: uvicorn (with the options ``salad serve``
  runs it with, uvloop) serving a bare ASGI app; four websockets a table, and each message a
  client sends makes the app send one text of a state's size to all four. Measured as the
  uvicorn process's CPU time a move. No server built on uvicorn and ASGI websockets can spend
  less a move than this.

The two add up to about what ``make bench-server`` measures (it adds the load on a busy
scheduler); the floor says how much of the issue's 150 us a move is left for salad's own work.

    python benchmarks/server_share.py            # 200 tables, 3 rounds
    python benchmarks/server_share.py --tables 50 --rounds 1
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import uvicorn
import websockets

from salad.formats.rules import load_ruleset
from salad.server.run import UVICORN_OPTIONS
from salad.server.store import SqlStore
from salad.server.tables import Conn, Table, TableManager
from salad.server.tables.connection import TurnWrites

sys.path.insert(0, str(Path(__file__).parent))
from cluster_procs import cpu_seconds, free_port, wait_ok  # noqa: E402  (a sibling file)

SEATS = 4
MOVES = 312  # a four-player game of six hands


# -- salad's own part ------------------------------------------------------------------------
class _TakesAll:
    """A websocket that takes every message at once."""

    __slots__ = ("chars",)

    def __init__(self) -> None:
        self.chars = 0

    def send_text(self, data: str) -> Any:
        self.chars += len(data)
        return _done()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


async def _done() -> None:
    return None


async def _salad(tables: int, seed: int, directory: str) -> tuple[float, int, int]:
    """CPU seconds, moves, and characters sent, for ``tables`` games played out at random."""
    manager = TableManager(SqlStore(f"sqlite:///{directory}/share-{seed}.db"))
    await manager.open()
    rules = load_ruleset("canadian")
    socket = _TakesAll()
    writes = TurnWrites()  # a server's: a turn's messages written together at its end
    runs: list[tuple[Table, list[Conn]]] = []
    for _ in range(tables):
        joined = await manager.create(rules, "Host", [("open", None)] * (SEATS - 1))
        for k in range(SEATS - 1):
            await manager.join(joined.table_id, f"Guest {k + 1}", None)
        table = await manager.get(joined.table_id)
        conns = []
        for seat in range(SEATS):
            conn = Conn(socket, seat, writes)
            table = await manager.connect(table, conn)
            conns.append(conn)
        await manager.start(joined.table_id, joined.token)
        runs.append((table, conns))
    rng = random.Random(seed)

    async def play(table: Table, conns: list[Conn]) -> int:
        moves = 0
        while table.game is not None and not table.game.is_over():
            game = table.game
            if table.waiting():  # a hand's summary: everyone presses Next hand
                for conn in conns:
                    await manager.handle(table, conn, '{"type":"next"}')
                continue
            move = table.json_codes().text(rng.choice(game.legal_moves()))
            await manager.handle(table, conns[game.to_move], f'{{"type":"play","move":"{move}"}}')
            moves += 1
        return moves

    gc.collect()
    gc.freeze()
    socket.chars = 0
    start = time.process_time()
    moves = sum(await asyncio.gather(*(play(t, c) for t, c in runs)))
    used = time.process_time() - start
    await manager.close()
    gc.unfreeze()
    return used, moves, socket.chars


# -- the web stack's floor -------------------------------------------------------------------
async def bare_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Groups of four websockets (``/ws/GROUP?size=N``): a message from one sends a text of
    ``N`` characters, with the group's message count, to all four."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["type"] != "websocket":
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
        return
    group = scope["path"].rsplit("/", 1)[1]
    size = int(scope["query_string"].decode().partition("=")[2] or 600)
    await receive()
    await send({"type": "websocket.accept"})
    members = _GROUPS.setdefault(group, [])
    members.append(send)
    pad = "x" * size
    while (await receive())["type"] == "websocket.receive":
        count = _COUNTS[group] = _COUNTS.get(group, 0) + 1
        text = f'{{"type":"state","moves":{count},"pad":"{pad}"}}'
        for member in members:  # awaited, as salad's connections do
            await member({"type": "websocket.send", "text": text})


_GROUPS: dict[str, list[Any]] = {}
_COUNTS: dict[str, int] = {}


def serve_floor(port: int) -> None:
    options = {k: v for k, v in UVICORN_OPTIONS.items() if k != "limit_concurrency"}
    uvicorn.run(bare_app, host="127.0.0.1", port=port, log_level="warning", **options)


async def _floor_clients(port: int, tables: int, size: int) -> tuple[float, int]:
    """The moves' wall seconds and count, every client a websocket to the bare app."""
    opened: list[int] = []
    go = asyncio.Event()

    async def seat(group: int, k: int) -> None:
        url = f"ws://127.0.0.1:{port}/ws/{group}?size={size}"
        async with websockets.connect(url, max_size=None, compression=None) as ws:
            opened.append(1)
            await go.wait()
            if k == 0:
                await ws.send('{"type":"play"}')
            async for text in ws:
                count = json.loads(text)["moves"]
                if count >= MOVES:
                    return
                if count % SEATS == k:
                    await ws.send('{"type":"play"}')

    tasks = [asyncio.create_task(seat(g, k)) for g in range(tables) for k in range(SEATS)]
    while len(opened) < SEATS * tables:
        await asyncio.sleep(0.02)
    start = time.perf_counter()
    go.set()
    await asyncio.gather(*tasks)
    return time.perf_counter() - start, tables * MOVES


def _floor(tables: int, size: int, directory: str) -> float:
    """The bare app's server CPU seconds a move."""
    port = free_port()
    cmd = [sys.executable, __file__, "--serve-floor", str(port)]
    log = Path(directory) / "floor.log"
    with log.open("a") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_ok(f"http://127.0.0.1:{port}/", proc, "the bare ASGI app", log)
        before = cpu_seconds(proc.pid)
        _, moves = asyncio.run(_floor_clients(port, tables, size))
        return (cpu_seconds(proc.pid) - before) / moves
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--serve-floor", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_floor:
        serve_floor(args.serve_floor)
        return
    if args.tables < 1 or args.rounds < 1:
        parser.error("--tables and --rounds must be at least 1")
    own: list[float] = []
    floor: list[float] = []
    with tempfile.TemporaryDirectory(prefix="salad-share-") as tmp:
        for r in range(args.rounds):
            used, moves, chars = asyncio.run(_salad(args.tables, r + 1, tmp))
            own.append(used / moves)
            size = round(chars / (moves * SEATS))  # the states' mean size, for the floor's
            floor.append(_floor(args.tables, size, tmp))
            print(
                f"round {r + 1}: salad {own[-1] * 1e6:.0f} us a move, web stack floor "
                f"{floor[-1] * 1e6:.0f} us a move (states of {size} characters)",
                flush=True,
            )
    salad_us = statistics.median(own) * 1e6
    floor_us = statistics.median(floor) * 1e6
    print(
        f"median of {args.rounds}: salad's own code {salad_us:.0f} us a move + the web stack's "
        f"floor {floor_us:.0f} us = {salad_us + floor_us:.0f} us (make bench-server measures "
        "the whole)"
    )
    result = {
        "tables": args.tables,
        "rounds": args.rounds,
        "salad_us_per_move": round(salad_us),
        "floor_us_per_move": round(floor_us),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
