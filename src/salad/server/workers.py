"""``salad serve --workers N``: several server processes behind one port, each holding its tables.

A table lives in the memory of one process (its game, websockets, bots and timers), so every
request about a table has to reach that process. The parent process accepts each connection,
reads its request line without taking it off the socket (``MSG_PEEK``), and hands the
connected socket itself to a worker over a Unix socket (``SCM_RIGHTS``): the worker that owns
the table the path names (:func:`~salad.server.tables.shard_of`), or the next worker in turn
for anything else. The worker serves it with uvicorn as if it had accepted it, so the parent
never sees a byte of a game: a websocket costs it nothing after its first line.

HTTP responses close their connection in this mode (a kept-alive connection could carry its
next request about another worker's table); websockets stay open. The workers share the
database; each resumes its own tables after a restart. If the parent dies, even by SIGKILL,
its workers see their channel close and exit at once, as if killed with it; if a worker dies,
the parent stops the others and exits with an error, for a supervisor to restart the lot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import uvicorn

from salad.errors import SaladError
from salad.server.app import create_app
from salad.server.process import UVICORN_OPTIONS, tune_gc
from salad.server.tables import shard_of
from salad.server.tables.manager import UNLOAD_AFTER

__all__ = ["route", "serve_workers"]

TABLE_PATH = re.compile(rb"^[A-Z]+ /(?:ws|api)/tables/([A-Za-z0-9_-]{1,32})(?:[/?# ]|$)")
"""A request line naming a table: the websocket and the REST calls about one table."""
HEAD_LIMIT = 8192
"""A request line longer than this is not HTTP the server would answer: the connection is
closed."""
HEAD_TIMEOUT = 10.0
"""Seconds a new connection has to send its request line."""


def route(request_line: bytes, workers: int, turn: int) -> int:
    """The worker for a connection whose request begins with ``request_line``.

    >>> route(b"GET /ws/tables/abc?token=x HTTP/1.1", 2, 1)
    0
    >>> route(b"POST /api/tables/abd/join HTTP/1.1", 2, 0)
    1
    >>> route(b"GET /static/css/salad.css HTTP/1.1", 2, 1)
    1
    """
    found = TABLE_PATH.match(request_line)
    if found is None:
        return turn % workers
    return shard_of(found.group(1).decode(), workers)


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; SaladError (one line) if it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except OSError as exc:
        listener.close()
        raise SaladError(f"serve: cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    listener.setblocking(False)
    return listener


def serve_workers(
    listener: socket.socket,
    workers: int,
    options: dict[str, Any],
    echo: Callable[[str], Any] = print,
) -> int:
    """Run ``workers`` server processes behind ``listener`` (see :func:`listen`) until
    interrupted; the exit status.

    ``options`` go to each worker's :func:`salad.server.app.create_app` (``database_url``,
    ``bot_delay``) and uvicorn (``log_level``).
    """

    procs: list[subprocess.Popen[bytes]] = []
    channels: list[socket.socket] = []
    for index in range(workers):
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        settings = json.dumps({**options, "index": index, "workers": workers})
        cmd = [sys.executable, "-m", "salad.server.workers", str(theirs.fileno()), settings]
        procs.append(subprocess.Popen(cmd, pass_fds=[theirs.fileno()]))
        theirs.close()
        channels.append(mine)

    stopping: list[int] = []

    def stop(signum: int, _frame: Any) -> None:
        stopping.append(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    status = 0
    try:
        status = _dispatch(listener, channels, procs, stopping, echo)
    finally:
        listener.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for chan in channels:
            chan.close()
    return status


def _dispatch(
    listener: socket.socket,
    channels: list[socket.socket],
    procs: list[subprocess.Popen[bytes]],
    stopping: list[int],
    echo: Callable[[str], Any],
) -> int:
    """Hand every connection to its worker until a signal arrives or a worker dies."""
    pending = _Pending(channels)
    pending.selector.register(listener, selectors.EVENT_READ)
    last_sweep = time.monotonic()
    while not stopping:
        for key, _ in pending.selector.select(timeout=0.05 if pending.polled else 0.5):
            sock = key.fileobj
            if sock is listener:
                pending.accept(listener)
            else:
                assert isinstance(sock, socket.socket)
                pending.hand_over(sock)
        for conn in list(pending.polled):
            pending.hand_over(conn)
        now = time.monotonic()
        if now - last_sweep >= 0.5:
            last_sweep = now
            pending.sweep(now)
            for index, proc in enumerate(procs):
                code = proc.poll()
                if code is not None:
                    echo(f"salad server: worker {index} stopped (exit status {code}); stopping")
                    return 1
    return 0


class _Pending:
    """The connections accepted whose request line has not come in whole yet.

    A connection is watched by the selector until its first bytes come; one that has sent
    part of a line is taken off the selector (its bytes, only peeked at, would wake it again
    and again) and peeked at every 50 ms instead, until its line is whole or its time is up.
    """

    def __init__(self, channels: list[socket.socket]) -> None:
        self.channels = channels
        self.selector = selectors.DefaultSelector()
        self.since: dict[socket.socket, float] = {}
        self.polled: set[socket.socket] = set()
        self.turn = 0

    def accept(self, listener: socket.socket) -> None:
        while True:
            try:
                conn, _addr = listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of file descriptors, say: try again later
                return
            conn.setblocking(False)
            self.since[conn] = time.monotonic()
            self.selector.register(conn, selectors.EVENT_READ)

    def hand_over(self, conn: socket.socket) -> None:
        """Send ``conn`` to its worker if its request line has come."""
        try:
            head = conn.recv(HEAD_LIMIT, socket.MSG_PEEK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self.drop(conn)
            return
        end = head.find(b"\n")
        if not head or (end < 0 and len(head) >= HEAD_LIMIT):
            self.drop(conn)  # closed, or no request line to be had
            return
        if end < 0:  # the line is still coming: peek again later (see sweep for the limit)
            if conn not in self.polled:
                self.selector.unregister(conn)
                self.polled.add(conn)
            return
        index = route(head[:end].rstrip(b"\r"), len(self.channels), self.turn)
        self.turn += 1
        self.forget(conn)
        with contextlib.suppress(OSError):  # the worker is gone: the sweep stops the server
            socket.send_fds(self.channels[index], [b"c"], [conn.fileno()])
        conn.close()  # the worker holds its own copy now

    def sweep(self, now: float) -> None:
        """Drop the connections that have not sent a request line in :data:`HEAD_TIMEOUT`."""
        for conn, since in list(self.since.items()):
            if now - since > HEAD_TIMEOUT:
                self.drop(conn)

    def forget(self, conn: socket.socket) -> None:
        del self.since[conn]
        if conn in self.polled:
            self.polled.discard(conn)
        else:
            self.selector.unregister(conn)

    def drop(self, conn: socket.socket) -> None:
        self.forget(conn)
        conn.close()


# -- a worker process --------------------------------------------------------------------------


def _worker(fd: int, settings: dict[str, Any]) -> None:
    """Serve the connections the parent sends over ``fd``, with the app of one shard."""
    channel = socket.socket(fileno=fd)
    channel.setblocking(False)
    app = create_app(
        settings["database_url"],
        bot_delay=settings["bot_delay"],
        shard=(settings["index"], settings["workers"]),
        unload_after=settings.get("unload_after", UNLOAD_AFTER),
    )
    tune_gc()
    config = uvicorn.Config(app, log_level=settings["log_level"], **UVICORN_OPTIONS)
    server = uvicorn.Server(config)

    async def main() -> None:
        serving = asyncio.ensure_future(server.serve(sockets=[]))
        while not server.started:
            if serving.done():
                await serving
                return
            await asyncio.sleep(0.01)
        loop = asyncio.get_running_loop()

        def protocol() -> asyncio.Protocol:
            # What uvicorn's own listening sockets make for each connection (Server.startup).
            made: asyncio.Protocol = config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=server.server_state, app_state=server.lifespan.state
            )
            return made

        def receive() -> None:
            while True:
                try:
                    data, fds, _flags, _addr = socket.recv_fds(channel, 16, 64)
                except (BlockingIOError, InterruptedError):
                    return
                except OSError:
                    data, fds = b"", []
                if not data:
                    # The parent is gone (stopped, or killed): go at once, as if killed with it.
                    os._exit(0)
                for conn_fd in fds:
                    conn = socket.socket(fileno=conn_fd)
                    conn.setblocking(False)
                    loop.create_task(loop.connect_accepted_socket(protocol, conn))

        loop.add_reader(channel.fileno(), receive)
        try:
            await serving
        finally:
            loop.remove_reader(channel.fileno())

    with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
        runner.run(main())


if __name__ == "__main__":
    _worker(int(sys.argv[1]), json.loads(sys.argv[2]))
