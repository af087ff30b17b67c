"""Clients of a cluster as the web client is one: they follow the nodes' redirects to the
node holding a table (HTTP ``307``; a websocket closed with ``4307`` and ``node=NAME``)."""

from __future__ import annotations

from typing import Any

import httpx
import websockets

from salad.server.cluster.names import MOVED_TO, REDIRECT, redirect_target

from .conftest import Server, Socket

NODE = "salad-node"


def name_of(node: Server) -> str:
    """A cluster node's name in the balancer (its ``--node-name``)."""
    return node.args[node.args.index("--node-name") + 1]


def ask(
    proxy: Any,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    node: Server | None = None,
) -> httpx.Response:
    """A request through the balancer (``node``: to that node, by ``?node=``), following the
    redirects to the table's holder."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if node is not None:  # added to the path's own query (httpx's params would replace it)
        path += ("&" if "?" in path else "?") + f"node={name_of(node)}"
    client: httpx.Client = proxy.http
    return client.request(method, path, json=body, headers=headers, follow_redirects=True)


def ok(proxy: Any, *args: Any, **kwargs: Any) -> Any:
    """:func:`ask`, which must answer 200; its JSON."""
    r = ask(proxy, *args, **kwargs)
    assert r.status_code == 200, f"{r.request.method} {r.request.url}: {r.status_code} {r.text}"
    return r.json()


class Following(Socket):
    """A recording websocket to a table that follows the nodes' redirects through the balancer
    (at most ``hops`` in a row): its messages are the holder's, the redirects' own ``error``
    messages left out; ``redirects`` lists the names it was sent to."""

    def __init__(
        self, ws: Any, name: str, proxy: Any, path: str, token: str | None, hops: int = 3
    ) -> None:
        super().__init__(ws, name)
        self.proxy = proxy
        self.path = path
        self.token = token
        self.hops = hops
        self.redirects: list[str] = []

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        followed = 0
        while True:
            try:
                message = await super().recv(timeout)
            except websockets.ConnectionClosed as exc:
                code, reason = (exc.rcvd.code, exc.rcvd.reason) if exc.rcvd else (None, "")
                node = redirect_target(reason) if code == REDIRECT else None
                if node is None or followed >= self.hops:
                    raise
                followed += 1
                self.redirects.append(node)
                query = f"token={self.token}&" if self.token else ""
                url = f"{self.proxy.ws_base}{self.path}?{query}node={node}"
                self.ws = await websockets.connect(url, max_size=2**22)
                continue
            if message["type"] == "error" and message["message"].startswith(MOVED_TO):
                self.messages.pop()  # the redirect's, not the table's
                continue
            return message


async def reach(
    first: Any,
    proxy: Any,
    table_id: str,
    token: str | None,
    name: str = "",
    node: str | None = None,
) -> Following:
    """A recording websocket to a table, opened on ``first`` (a node, or the balancer; ``node``:
    naming that node, ``?node=``), following redirects through ``proxy``; the token goes in
    its URL, as ``connect`` sends it."""
    path = f"/ws/tables/{table_id}"
    query = [f"token={token}"] if token else []
    query += [f"node={node}"] if node else []
    url = f"{first.ws_base}{path}" + ("?" + "&".join(query) if query else "")
    ws = await websockets.connect(url, max_size=2**22)
    return Following(ws, name or (token or "spectator")[:6], proxy, path, token)
