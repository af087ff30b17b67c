"""The cluster's ASGI middleware: a request for a table another node holds is sent there.

The balancer sends a table's requests to a node by a hash of its id, usually the node holding
its lease; when it is not (the node set changed, the holder died), the node answers with a
redirect naming the holder, which the balancer routes (``?node=NAME``, deploy/haproxy.cfg):

- HTTP: ``307`` to the same path and query with ``node=NAME`` (and ``hop=N``, the redirects so
  far), which clients follow with the same method and body.
- Websocket: one ``error`` message, then close :data:`REDIRECT` with the reason ``node=NAME``.

A request redirected :data:`MAX_HOPS` times already gets a ``503`` with ``Retry-After`` (a
websocket: close ``1013``). Requests that name no table are served where they arrive; a new
table is held where it is made, so the answer that makes it names that node.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.locale import _
from salad.server.cluster.names import MAX_HOPS, MOVED_TO, REDIRECT
from salad.server.cluster.node import Cluster
from salad.server.errors import ActionError
from salad.server.sockets import refuse
from salad.server.tables.manager import NO_TABLE

TABLE_PATH = re.compile(r"/(?:api|ws)/tables/([A-Za-z0-9_-]{1,32})(?:/.*)?")  # group: the id
MAKERS = frozenset({"/api/tables", "/api/quickplay"})  # a POST here makes a table


def with_headers(
    message: Message, headers: list[tuple[bytes, bytes]], ok_only: bool = False
) -> Message:
    """``message``, with ``headers`` added if it starts an HTTP answer (``ok_only``: a
    successful one)."""
    if message["type"] != "http.response.start" or (ok_only and message["status"] >= 300):
        return message
    return {**message, "headers": [*message.get("headers", ()), *headers]}


class ClusterRouter:
    """ASGI middleware inside the body limit and outside everything else."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        found = TABLE_PATH.fullmatch(scope["path"]) if kind in ("http", "websocket") else None
        if found is None:
            named = self.cluster.headers
            if named and kind == "http" and scope["method"] == "POST" and scope["path"] in MAKERS:
                await self.app(scope, receive, lambda m: send(with_headers(m, named, True)))
            else:
                await self.app(scope, receive, send)
            return
        try:
            holder = await self.cluster.holder_name(found.group(1))
            if holder is not None:
                await self.redirect(holder, scope, receive, send)
                return
        except ActionError as exc:
            await self.refuse(exc, scope, receive, send)
            return
        named = self.cluster.headers
        if kind == "http" and named:
            await self.app(scope, receive, lambda m: send(with_headers(m, named)))
        else:  # a websocket's handshake says the name in TableSockets
            await self.app(scope, receive, send)

    @staticmethod
    async def redirect(holder: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Send the client to ``holder`` (see the module's docstring); an :class:`ActionError`
        (503) if this request has been redirected :data:`MAX_HOPS` times already."""
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), True)
        hops = next((int(v) for k, v in query if k == "hop" and v.isdigit()), 0)
        if any(k == "node" for k, _ in query):
            hops += 1  # it named a node that does not hold the table (or no longer does)
        if hops > MAX_HOPS:
            raise ActionError(_("the table is changing servers: retry"), 503)
        message = f"{MOVED_TO}{holder}: reconnect there"
        if scope["type"] == "websocket":
            await refuse(receive, send, message, REDIRECT, f"node={holder}")
            return
        kept = [(k, v) for k, v in query if k not in ("node", "hop")]
        kept += [("node", holder)] + ([("hop", str(hops))] if hops else [])
        location = scope.get("root_path", "") + scope["path"] + "?" + urlencode(kept)
        answer = JSONResponse({"error": message, "node": holder}, 307, {"location": location})
        await answer(scope, receive, send)

    @staticmethod
    async def refuse(exc: ActionError, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            again = {"retry-after": "1"} if exc.status == 503 else None
            answer = JSONResponse({"error": exc.message}, exc.status, again)
            await answer(scope, receive, send)
            return
        # As TableSockets closes: 4404 for good (the web client stops), else try again later.
        await refuse(receive, send, exc.message, NO_TABLE if exc.status == 404 else 1013)
