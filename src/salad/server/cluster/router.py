"""The cluster's ASGI middleware: a request for a table another node holds goes there.

It sits inside the body limit and outside everything else (the table websockets, the routes),
so what it forwards is run on the holder by the same app, and nothing is forwarded twice.
Requests that name no table (the pages, ``POST /api/tables``, the score sheets) are served
where they arrive; a new table is held where it is made, so the answer that makes it names
that node as a table's answers do.
"""

from __future__ import annotations

import re

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.server.cluster.node import Cluster
from salad.server.errors import ActionError
from salad.server.tables.manager import NO_TABLE
from salad.server.tables.wire import error_message

__all__ = ["TABLE_PATH", "ClusterRouter"]

TABLE_PATH = re.compile(r"/(?:api|ws)/tables/([A-Za-z0-9_-]{1,32})(?:/.*)?")
"""The paths of one table's requests (its id is the group)."""

MAKERS = frozenset({"/api/tables", "/api/quickplay"})
"""The paths whose ``POST`` makes a table, on the node that answers it."""


def with_headers(
    message: Message, headers: list[tuple[bytes, bytes]], ok_only: bool = False
) -> Message:
    """``message``, with ``headers`` added if it starts an HTTP answer (``ok_only``: a
    successful one)."""
    if message["type"] != "http.response.start" or (ok_only and message["status"] >= 300):
        return message
    return {**message, "headers": [*message.get("headers", ()), *headers]}


class ClusterRouter:
    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster
        cluster.bridge.inner = app

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
            owner = await self.cluster.owner_for(found.group(1))
        except ActionError as exc:
            await self.refuse(exc, scope, receive, send)
            return
        if owner == self.cluster.node:
            named = self.cluster.headers
            if kind == "http" and named:
                await self.app(scope, receive, lambda m: send(with_headers(m, named)))
            else:  # a websocket's handshake says the name in TableSockets
                await self.app(scope, receive, send)
        elif kind == "http":
            await self.cluster.bridge.http(owner, scope, receive, send)
        else:
            await self.cluster.bridge.websocket(owner, scope, receive, send)

    @staticmethod
    async def refuse(exc: ActionError, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            again = {"retry-after": "1"} if exc.status == 503 else None
            answer = JSONResponse({"error": exc.message}, exc.status, again)
            await answer(scope, receive, send)
            return
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": error_message(exc.message)})
        # As TableSockets closes: 4404 for good (the web client stops), else try again later.
        code = NO_TABLE if exc.status == 404 else 1013
        await send({"type": "websocket.close", "code": code, "reason": ""})
