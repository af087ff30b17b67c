"""A table's requests, carried over Redis to the node that holds the table, and its answers back.

A node that gets a request for a table another node holds (see
:class:`~salad.server.cluster.node.Cluster`) does not play it: it sends the request's ASGI
calls to the holder, which runs them through its own app as if the client were its own, and
sends back what its app answers. An HTTP request goes whole and comes back whole; a websocket
is relayed message by message both ways, so that the holder's connection logic (seat tokens,
moves, the outbox that coalesces states for a slow client) is the same code for every client
wherever it connected. Between two nodes the messages of one moment go in one Redis publish.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.server.cluster.link import Link
from salad.server.sockets import CLOSE_WAIT, RawSocket, Reader
from salad.server.tables.connection import Conn
from salad.server.tables.wire import error_message
from salad.view import SPECTATOR

__all__ = ["AWAY", "HTTP_TIMEOUT", "NODE_HEADER", "Bridge"]

log = logging.getLogger("salad.server.cluster")

HTTP_TIMEOUT = 10.0
"""Seconds a forwarded HTTP request waits for the holder's answer before a ``503``."""

AWAY = 1012
"""The close code of a relayed websocket whose table's node went away: reconnect (the table
is taken over by another node from the database)."""

MOVED = "this table moves to another server: reconnect"

NODE_HEADER = "salad-node"
"""The header of a table's answers that names the node holding it (when nodes are named)."""

_SCOPE_KEYS = ("type", "http_version", "method", "scheme", "path", "root_path")


def _text_headers(headers: list[tuple[bytes, bytes]]) -> list[list[str]]:
    return [[k.decode("latin-1"), v.decode("latin-1")] for k, v in headers]


def portable(scope: Scope) -> dict[str, Any]:
    """What of an ASGI scope another node needs to serve the request, as JSON."""
    out: dict[str, Any] = {k: scope[k] for k in _SCOPE_KEYS if k in scope}
    out["query_string"] = scope.get("query_string", b"").decode("latin-1")
    out["headers"] = _text_headers(scope["headers"])
    out["client"] = list(scope["client"]) if scope.get("client") else None
    out["server"] = list(scope["server"]) if scope.get("server") else None
    return out


class _Outbox:
    """The messages for one node: whatever is queued while a publish is under way goes in the
    next one, in order. Putting never waits (a table's broadcast must not)."""

    def __init__(self, link: Link, node: str, deaf: Callable[[str], None]) -> None:
        self.link = link
        self.node = node
        self.deaf = deaf
        """Told the node's id when nobody read a publish to it."""
        self.items: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    def put(self, message: dict[str, Any]) -> None:
        self.items.append(message)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self.items:
                items, self.items = self.items, []
                if not await self.link.send_many(self.node, items):
                    self.deaf(self.node)
        except Exception as exc:  # Redis is away: the reader's reset tells every side
            log.warning("cluster: %d message(s) to node %s lost: %s", len(items), self.node, exc)
        finally:
            self.task = None


class Bridge:
    """Both ends of every forwarded request of one node.

    As the node a client reached, it sends the client's request to the holder (:meth:`http`,
    :meth:`websocket`) and hands back what comes; as the holder it runs what another node sends
    through ``inner`` (the app inside the cluster's router, so nothing is forwarded twice).
    """

    def __init__(self, link: Link, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        self.link = link
        self.node = link.node
        self.named = _text_headers(headers or [])
        """The header naming this node, added to the answers it gives as the holder."""
        self.inner: ASGIApp | None = None
        self.app: Any = None
        """The FastAPI app, for the ``app`` of the scopes it runs (its routes read its state)."""
        self._out: dict[str, _Outbox] = {}
        self._ids = itertools.count()
        # The client's side: requests waiting for an answer, websockets relayed.
        self._replies: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._relays: dict[str, tuple[str, Conn]] = {}
        # The holder's side: websockets of other nodes' clients, served here.
        self._virtual: dict[str, tuple[str, asyncio.Queue[Message]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "http": self._serve_http,
            "resp": self._answered,
            "ws": self._serve_websocket,
            "in": self._client_sent,
            "end": self._client_left,
            "out": self._holder_sent,
            "close": self._holder_closed,
        }

    def send(self, node: str, message: dict[str, Any]) -> None:
        outbox = self._out.get(node)
        if outbox is None:
            outbox = self._out[node] = _Outbox(self.link, node, self._deaf)
        outbox.put(message)

    def _new_id(self) -> str:
        return f"{self.node}:{next(self._ids)}"

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def peers(self) -> set[str]:
        """The other nodes this one has requests or websockets with."""
        nodes = {owner for owner, _ in self._replies.values()}
        nodes.update(owner for owner, _ in self._relays.values())
        nodes.update(node for node, _ in self._virtual.values())
        return nodes

    def receive(self, data: str) -> None:
        """A publish on this node's channel: a list of messages."""
        try:
            messages = json.loads(data)
        except ValueError:
            log.warning("cluster: unreadable message on node %s's channel", self.node)
            return
        for message in messages:
            handler = self._handlers.get(message.get("t"))
            if handler is not None:
                handler(message)

    def node_gone(self, node: str) -> None:
        """``node`` is gone: its clients' websockets here end, ours to it close for a reconnect
        and our requests to it fail.

        Each end is also said to ``node``, in case it was only slow (its liveness lapsed while
        it was starved of CPU): then both sides end the websocket, and its client reconnects,
        instead of one side sending into what the other has forgotten.
        """
        for owner, future in list(self._replies.values()):
            if owner == node and not future.done():
                future.set_exception(ConnectionError(f"node {node} is gone"))
        for cid, (owner, relay) in list(self._relays.items()):
            if owner == node:
                del self._relays[cid]
                self.send(node, {"t": "end", "c": cid})
                relay.kick(AWAY, MOVED)
        for cid, (peer, queue) in list(self._virtual.items()):
            if peer == node:
                queue.put_nowait({"type": "websocket.disconnect", "code": AWAY})
                del self._virtual[cid]
                self.send(node, {"t": "close", "c": cid, "code": AWAY, "reason": MOVED})

    def _deaf(self, node: str) -> None:
        """Nobody read what was sent to ``node`` (killed, or its channel is being opened again
        after a break): what is under way with it is lost, so it ends now, and its clients
        reconnect, instead of waiting for its liveness to lapse."""
        if node in self.peers():
            log.warning("cluster: node %s does not read its channel; ending what was with it", node)
            self.node_gone(node)

    def reset(self) -> None:
        """Messages may have been lost (Redis went away): end everything under way."""
        for node in self.peers():
            self.node_gone(node)

    async def close(self) -> None:
        self.reset()
        for task in list(self._tasks):
            task.cancel()

    # -- the node the client reached ------------------------------------------------------
    async def http(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Send an HTTP request to the holder and its answer to the client."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        rid = self._new_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[rid] = (owner, future)
        self.send(
            owner,
            {
                "t": "http",
                "r": rid,
                "n": self.node,
                "s": portable(scope),
                "b": body.decode("latin-1"),
            },
        )
        try:
            answer = await asyncio.wait_for(future, HTTP_TIMEOUT)
        except (TimeoutError, ConnectionError):
            answer = {
                "st": 503,
                "h": [["content-type", "application/json"], ["retry-after", "1"]],
                "b": json.dumps({"error": "the server holding this table did not answer: retry"}),
            }
        finally:
            self._replies.pop(rid, None)
        headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["h"]]
        await send({"type": "http.response.start", "status": answer["st"], "headers": headers})
        await send({"type": "http.response.body", "body": answer["b"].encode("latin-1")})

    async def websocket(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Relay a websocket to the holder: the client's messages there, its messages here."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        reader = Reader(receive)
        relay = Conn(RawSocket(send), SPECTATOR)
        relay.coalesce = False  # the holder built each text for what this client has
        relay.on_kick = reader.stop
        cid = self._new_id()
        self._relays[cid] = (owner, relay)
        self.send(owner, {"t": "ws", "c": cid, "n": self.node, "s": portable(scope)})
        try:
            while not relay.closed:
                event = await reader.receive()
                if event is None or event["type"] == "websocket.disconnect":
                    break
                self.send(owner, {"t": "in", "c": cid, "x": event.get("text")})
        except Exception:  # the connection broke
            pass
        finally:
            if self._relays.pop(cid, None) is not None:  # not closed by the holder
                self.send(owner, {"t": "end", "c": cid})
            if relay.kicked:
                await relay.finish(CLOSE_WAIT)
            else:
                relay.stop()

    def _answered(self, m: dict[str, Any]) -> None:
        found = self._replies.get(m["r"])
        if found is not None and not found[1].done():
            found[1].set_result(m)

    def _holder_sent(self, m: dict[str, Any]) -> None:
        found = self._relays.get(m["c"])
        if found is not None:
            found[1].push(m["x"])
        # else: the client left; the holder was told ("end") when it did.

    def _holder_closed(self, m: dict[str, Any]) -> None:
        found = self._relays.pop(m["c"], None)
        if found is not None:
            found[1].close_after(int(m["code"]), str(m.get("reason", "")))

    # -- the holder ---------------------------------------------------------------------------
    def _scope(self, m: dict[str, Any]) -> Scope:
        s: dict[str, Any] = dict(m["s"])
        s["query_string"] = s["query_string"].encode("latin-1")
        s["headers"] = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in s["headers"]]
        s["client"] = tuple(s["client"]) if s.get("client") else None
        s["server"] = tuple(s["server"]) if s.get("server") else None
        s["raw_path"] = s["path"].encode()
        s["asgi"] = {"version": "3.0"}
        s["app"] = self.app
        s["state"] = {}
        s["extensions"] = {}
        return s

    def _serve_http(self, m: dict[str, Any]) -> None:
        self._spawn(self._run_http(m))

    async def _run_http(self, m: dict[str, Any]) -> None:
        body = m["b"].encode("latin-1")
        given = False
        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def receive() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal status, headers
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = _text_headers(message["headers"]) + self.named
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        assert self.inner is not None
        try:
            await self.inner(self._scope(m), receive, send)
        except Exception:
            log.exception("cluster: a forwarded request failed")
            status, headers = 500, [["content-type", "application/json"]]
            chunks = [b'{"error":"internal server error"}']
        answer = b"".join(chunks).decode("latin-1")
        self.send(m["n"], {"t": "resp", "r": m["r"], "st": status, "h": headers, "b": answer})

    def _serve_websocket(self, m: dict[str, Any]) -> None:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        queue.put_nowait({"type": "websocket.connect"})
        self._virtual[m["c"]] = (m["n"], queue)
        self._spawn(self._run_websocket(m, queue))

    async def _run_websocket(self, m: dict[str, Any], queue: asyncio.Queue[Message]) -> None:
        cid, node = m["c"], m["n"]

        async def send(message: Message) -> None:  # never waits: see _Outbox
            kind = message["type"]
            if kind == "websocket.send":
                self.send(node, {"t": "out", "c": cid, "x": message.get("text")})
            elif kind == "websocket.close":
                code, reason = message.get("code", 1000), message.get("reason") or ""
                self.send(node, {"t": "close", "c": cid, "code": code, "reason": reason})
                self._virtual.pop(cid, None)

        assert self.inner is not None
        try:
            await self.inner(self._scope(m), queue.get, send)
        except Exception:
            log.exception("cluster: a relayed websocket failed")
            self.send(node, {"t": "out", "c": cid, "x": error_message("internal server error")})
            self.send(node, {"t": "close", "c": cid, "code": 1011, "reason": ""})
        finally:
            self._virtual.pop(cid, None)

    def _client_sent(self, m: dict[str, Any]) -> None:
        found = self._virtual.get(m["c"])
        if found is not None:
            found[1].put_nowait({"type": "websocket.receive", "text": m["x"]})
            return
        # A websocket this node no longer serves (it ended it, or never had it): never drop
        # the client's message silently; close the relay, and the client reconnects.
        sender = m["c"].rpartition(":")[0]
        if sender:
            self.send(sender, {"t": "close", "c": m["c"], "code": AWAY, "reason": MOVED})

    def _client_left(self, m: dict[str, Any]) -> None:
        found = self._virtual.pop(m["c"], None)
        if found is not None:
            found[1].put_nowait({"type": "websocket.disconnect", "code": 1000})
