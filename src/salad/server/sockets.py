"""The table websocket ``/ws/tables/{id}`` (docs/protocol.md), served on plain ASGI calls.

A seat's token comes in the connection's first message (``{"type": "hello", "token": ...}``)
or, as in the protocol's first version, in the URL (``?token=``, masked in the logs by
:mod:`salad.server.logmask`). A connection without one whose handshake carries the cookie of
the player who sits at a seat (:mod:`salad.server.players`) is that seat, if the handshake
comes from this site's own pages (its ``Origin``: no cross-site websocket hijacking) and does
not ask to watch (``?watch=1``); any other is a spectator's.

This is the server's hot path, so it is ASGI middleware, outside the framework's routing and
exception layers (which wrap every message sent). Each connection is served in a task of its
own; its messages of one turn of the event loop go out through the ASGI ``send`` at its end
(:class:`~salad.server.tables.connection.TurnWrites`). The game is the
:class:`~salad.server.tables.TableManager`'s; which websockets may open at all,
:class:`SocketGate`'s. An error that ends a connection is logged with the table's id.
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
from collections import Counter
from collections.abc import Awaitable
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from salad.locale import _
from salad.server.errors import ActionError
from salad.server.incoming import read_hello
from salad.server.players.identity import Identities
from salad.server.players.origin import foreign_origin
from salad.server.ratelimit import WHAT_CLOSED, RateLimits
from salad.server.tables import Conn, Table, TableManager
from salad.server.tables.connection import GONE, TurnWrites
from salad.server.tables.damage import DAMAGED, Damaged
from salad.server.tables.registry import NO_TABLE, STALE
from salad.server.tables.table import PlayerClaim
from salad.server.tables.wire import error_message
from salad.view import SPECTATOR

log = logging.getLogger("salad.server")

PATH = re.compile(r"/ws/tables/([^/]*)")

CLOSE_WAIT = 5.0
"""Seconds a connection the server closes has to read its last error and the close."""


class RawSocket:
    """What a :class:`~salad.server.tables.Conn` needs of a websocket, on the ASGI ``send``."""

    __slots__ = ("_send",)

    def __init__(self, send: Send) -> None:
        self._send = send

    def send_text(self, data: str) -> Awaitable[None]:
        return self._send({"type": "websocket.send", "text": data})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason or ""})


class Reader:
    """The receiving side of a connection, which the server can stop while it waits (a client
    that never reads may never send either)."""

    __slots__ = ("_receive", "_task", "_waiting", "_stopped")

    def __init__(self, receive: Receive) -> None:
        self._receive = receive
        self._task = asyncio.current_task()
        self._waiting = False
        self._stopped = False

    async def receive(self) -> Message | None:
        """The client's next ASGI message; None once :meth:`stop` ended the wait."""
        self._waiting = True
        try:
            return await self._receive()
        except asyncio.CancelledError:
            if not self._stopped or self._task is None:
                raise
            self._task.uncancel()
            return None
        finally:
            self._waiting = False

    def stop(self) -> None:
        """End the wait for the client's next message (only that await is ever cancelled: a
        move being stored runs to its end)."""
        if self._waiting and not self._stopped and self._task is not None:
            self._stopped = True
            self._task.cancel()


class SocketGate:
    """ASGI middleware: every new websocket of a client address is admitted or refused here,
    first: the rate of new ones (``sockets``) and the cap on those held open
    (``RateLimits.open``). A refused one gets one ``error`` that says so, then close 4429.

    On a cluster it sits outside the router (:mod:`salad.server.cluster.router`): a websocket
    is counted once, where it connected, even one for a table that does not exist.
    """

    def __init__(self, app: ASGIApp, rates: RateLimits) -> None:
        self.app = app
        self.rates = rates
        self.open: Counter[str] = Counter()  # each client address's open websockets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        cap = self.rates.open
        if cap is not None and self.open[address] >= cap:
            said = _(
                "too many open websocket connections from this address (at most {n}): "
                "close one first"
            ).format(n=cap)
            await refuse(receive, send, said, 4429)
            return
        wait = await self.rates.take("sockets", address)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            said = _(
                "too many websocket connections from this address: retry in {seconds} s"
            ).format(seconds=seconds)
            await refuse(receive, send, said, 4429)
            return
        self.open[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]


async def refuse(receive: Receive, send: Send, said: str, code: int, reason: str = "") -> None:
    """Answer a websocket's handshake with one ``error`` that says ``said``, then close."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": error_message(said)})
    await send({"type": "websocket.close", "code": code, "reason": reason})


class TableSockets:
    """ASGI middleware: the table websockets; everything else goes on to ``app``."""

    def __init__(
        self,
        app: ASGIApp,
        manager: TableManager,
        rates: RateLimits,
        headers: list[tuple[bytes, bytes]] | None = None,
        identities: Identities | None = None,
    ) -> None:
        self.app = app
        self.identities = identities  # a cookie's player sits at their own seat
        self.manager = manager
        self.rates = rates  # the per-connection rates (messages, refused)
        # The handshake's answer (a cluster's named node says its name in it).
        self.accept: Message = {"type": "websocket.accept", "headers": headers or []}
        self.writes = TurnWrites()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = PATH.fullmatch(scope["path"]) if scope["type"] == "websocket" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        token = (query.get("token") or [None])[0]
        # A task of its own: the ASGI call's task holds a dozen frames (the server's protocol,
        # each middleware), which every wake-up resumed and suspended again (about 5 % of a
        # cluster node's CPU a move). Awaiting it passes a cancellation of the call on.
        watching = "watch" in query  # the watch page: a spectator, whatever its cookie
        player = None if token or watching else self.player_of(scope)
        serving = self.serve(found.group(1), token, receive, send, player)
        await asyncio.get_running_loop().create_task(serving)

    def player_of(self, scope: Scope) -> str | None:
        """The player a handshake's cookie names, if it comes from this site's own pages."""
        if self.identities is None:
            return None
        conn = HTTPConnection(scope)
        if foreign_origin(conn.headers) is not None:
            return None
        return self.identities.player_id(conn)

    async def serve(
        self,
        table_id: str,
        token: str | None,
        receive: Receive,
        send: Send,
        player: str | None = None,
    ) -> None:
        """One connection, from the handshake to the disconnect (``player``: the one its
        cookie names, whose seat it is if they sit at the table)."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send(self.accept)
        ws = RawSocket(send)
        manager = self.manager
        try:
            table = await manager.get(table_id)
        except ActionError as exc:  # NO_TABLE and DAMAGED for good (the client stops)
            await ws.send_text(error_message(exc.message))
            code = DAMAGED if isinstance(exc, Damaged) else STALE
            await ws.close(code=NO_TABLE if exc.status == 404 else code)
            return
        seat = SPECTATOR
        if token:
            found = await self.seat_of(table, token, ws)
            if found is None:
                return
            seat = found
        elif player is not None:  # the seat of the player its cookie names, if any
            found = table.seat_of_token(PlayerClaim(player))
            seat = SPECTATOR if found is None else found
        reader = Reader(receive)
        conn = Conn(ws, seat, self.writes)
        conn.on_kick = reader.stop
        table = await manager.connect(table, conn)
        first = not token
        key = str(id(reader))  # this websocket's, whichever Conn a hello makes it
        try:
            while not conn.closed:
                event = await reader.receive()
                if event is None or event["type"] == "websocket.disconnect":
                    break
                if self.closed_past("messages", key, conn):
                    break
                text: Any = event.get("text")
                if first:
                    first = False
                    try:
                        hello = read_hello(text)
                    except ActionError as exc:
                        conn.push(error_message(exc.message))
                        self.closed_past("refused", str(id(conn)), conn)
                        continue
                    if hello is not None:  # the seat's own Conn (and its whole state) instead
                        await manager.disconnect(table, conn)
                        found = await self.seat_of(table, hello.token, ws)
                        if found is None:
                            return
                        conn = Conn(ws, found, self.writes)
                        conn.on_kick = reader.stop
                        table = await manager.connect(table, conn)
                        continue
                if not await manager.handle(table, conn, text):
                    self.closed_past("refused", str(id(conn)), conn)
        except GONE:  # the client went away
            pass
        except Exception:
            log.exception("table %s: a websocket ended by an error", table.id)
        finally:
            self.rates.forget("messages", key)
            self.rates.forget("refused", str(id(conn)))
            await manager.disconnect(table, conn)
            if conn.kicked:
                await conn.finish(CLOSE_WAIT)

    def closed_past(self, kind: str, key: str, conn: Conn) -> bool:
        """Count one of ``conn``'s messages against its rate ``kind`` (per connection); past it,
        the connection gets one last error that says so and is closed 4429 (True). A message
        answered by an error counts as ``refused`` too: a connection whose messages keep
        drawing errors (a broken or hostile client) is closed."""
        if self.rates.wait(kind, key) <= 0:
            return False
        rate = self.rates.rates[kind]
        conn.kick(4429, _(WHAT_CLOSED[kind]).format(rate=rate))
        return True

    @staticmethod
    async def seat_of(table: Table, token: str, ws: RawSocket) -> int | None:
        """The seat whose token this is; None (after an error and a close) if none is."""
        found = table.seat_of_token(token)
        if found is None:
            await ws.send_text(
                error_message(_("wrong token for table {table}").format(table=table.id))
            )
            await ws.close(code=4401)
        return found
