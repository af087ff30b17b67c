"""``salad serve --workers 2``: one port, tables shared out over processes by their id."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import time
from typing import Any

import httpx
import pytest

from salad.server.tables import shard_of

from .test_restart import HUMAN, RANDOM, child_pids, proc_stat, wait_gone


def test_tables_live_in_the_worker_their_id_names(start_server: Any, ws: Any) -> None:
    srv = start_server(workers=2)
    tables = [srv.table([HUMAN, RANDOM, HUMAN, RANDOM], seed=i) for i in range(6)]
    # Tables are created by the workers in turn, each with an id of its own shard.
    assert {shard_of(tid, 2) for tid, _ in tables} == {0, 1}
    for tid, _ in tables:
        for path in (f"/api/tables/{tid}", f"/api/tables/{tid}/games"):
            r = srv.http.get(path)
            assert r.status_code == 200, r.text
            assert r.headers["x-salad-worker"] == str(shard_of(tid, 2)), path
            assert r.headers["connection"] == "close"  # the next request goes through the parent
    assert srv.http.get("/api/tables/nosuchtable").status_code == 404

    async def play() -> None:
        # Two seats of every table over websockets: each gets its table, and a move made at
        # one reaches the other.
        for tid, tokens in tables:
            a = await ws(srv, tid, tokens[0], "host")
            b = await ws(srv, tid, tokens[2], "guest")
            first = await a.until(lambda m: m["view"] is not None)
            assert first["table"]["table_id"] == tid and first["you"] == 0
            mover = {0: a, 2: b}.get(first["view"]["to_move"])
            if mover is not None:
                own = await mover.until(lambda m: m["view"]["legal"] != [])
                await mover.send({"type": "play", "move": own["view"]["legal"][0]})
                k = own["moves"]
                await a.until(lambda m, k=k: m["moves"] > k)
                await b.until(lambda m, k=k: m["moves"] > k)
            await a.ws.close()
            await b.ws.close()

    asyncio.run(play())


def test_the_parent_drops_what_is_not_http_and_goes_on(start_server: Any) -> None:
    srv = start_server(workers=2)
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        s.sendall(b"\x16\x03\x01" + b"x" * 9000)  # no request line within 8 KiB
        with contextlib.suppress(ConnectionResetError):  # (reset: the bytes are left unread)
            assert s.recv(100) == b""  # closed by the parent
    with socket.create_connection(("127.0.0.1", srv.port), timeout=10) as s:
        s.sendall(b"GET /api/opt")  # half a request line: it waits for the rest
        cpu = cpu_seconds(srv.proc.pid)
        time.sleep(1.0)
        # ... without spinning on the bytes it has only peeked at.
        assert cpu_seconds(srv.proc.pid) - cpu < 0.3
        s.sendall(b"ions HTTP/1.1\r\nHost: x\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 200")
    assert srv.http.get("/api/options").status_code == 200


def cpu_seconds(pid: int) -> float:
    fields = proc_stat(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_dead_worker_stops_the_server(start_server: Any) -> None:
    srv = start_server(workers=2)
    children = child_pids(srv.proc.pid)
    assert len(children) == 2
    os.kill(children[1], signal.SIGKILL)
    assert srv.proc.wait(15) == 1
    wait_gone(children)
    assert "stopped (exit status" in srv.log_path.read_text()
    with pytest.raises(httpx.HTTPError):
        httpx.get(srv.base + "/api/options", timeout=2)
