"""The table websockets' hot path: a message written at once by salad's uvicorn protocol
(GuardedWebSocket.write_text) is what the ASGI send writes; where that send would wait or do
anything else, nothing is written and the caller goes through the ASGI send."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.protocol import State
from websockets.server import ServerProtocol

from salad.server.process import UVICORN_OPTIONS, GuardedWebSocket
from salad.server.sockets import RawSocket
from salad.server.tables import Conn


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default


async def app(scope: Any, receive: Any, send: Any) -> None:
    pass


def protocol() -> GuardedWebSocket:
    """A websocket of salad's server whose handshake is made (its app is not run)."""
    options = {k: v for k, v in UVICORN_OPTIONS.items() if k != "http"}
    config = Config(app=app, **options)
    config.load()
    p = GuardedWebSocket(config, ServerState(), config.loaded_app)
    p.transport = Transport()  # type: ignore[assignment]
    p.conn = ServerProtocol(state=State.OPEN)
    p.handshake_complete = True
    p.writable.set()
    return p


def written(p: GuardedWebSocket) -> list[bytes]:
    return p.transport.written  # type: ignore[attr-defined,no-any-return]


def test_write_text_writes_what_the_asgi_send_writes() -> None:
    async def run() -> None:
        p = protocol()
        assert p.write_text('{"type":"state","é":1}')
        await p.send({"type": "websocket.send", "text": '{"type":"state","é":1}'})
        assert len(written(p)) == 2 and written(p)[0] == written(p)[1]
        assert written(p)[0].endswith('{"type":"state","é":1}'.encode())

    asyncio.run(run())


def test_write_text_does_nothing_where_the_asgi_send_would_wait_or_refuse() -> None:
    async def run() -> None:
        for change in (
            lambda p: p.writable.clear(),  # the socket is full: the send waits
            lambda p: setattr(p, "handshake_complete", False),
            lambda p: setattr(p, "close_sent", True),
            lambda p: setattr(p, "disconnected", True),
            lambda p: setattr(p.conn, "state", State.CLOSING),
        ):
            p = protocol()
            change(p)
            assert not p.write_text("x")
            assert written(p) == []

    asyncio.run(run())


def test_a_connection_on_salads_protocol_writes_at_once_and_others_go_through_asgi() -> None:
    async def run() -> None:
        p = protocol()
        ours = Conn(RawSocket(p.send), 0)
        assert ours.write_now == p.write_text
        ours.push("one")
        assert len(written(p)) == 1
        p.writable.clear()  # full: the outbox takes it, and sends it once the socket drains
        ours.push("two")
        assert len(written(p)) == 1 and ours.task is not None
        p.writable.set()
        for _ in range(3):
            await asyncio.sleep(0)
        assert len(written(p)) == 2 and written(p)[1].endswith(b"two")

        sent: list[Any] = []

        async def send(message: Any) -> None:  # another ASGI server's send
            sent.append(message)

        other = Conn(RawSocket(send), 0)
        assert other.write_now is None
        other.push("three")
        assert sent == [{"type": "websocket.send", "text": "three"}]

    asyncio.run(run())
