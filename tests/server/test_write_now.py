"""The table websockets' one write path: every message goes out through the ASGI ``send``,
a turn's writes in one task; a connection whose send waits (its socket full) falls back to its
outbox and holds up no other; no module of the server reaches into uvicorn's protocols; and an
error that ends a websocket is logged with its table's id."""

from __future__ import annotations

import asyncio
import logging
import re
from pathlib import Path
from typing import Any

import pytest

from salad.server.ratelimit import RateLimits
from salad.server.sockets import RawSocket, TableSockets
from salad.server.tables import Conn
from salad.server.tables.connection import TurnWrites
from salad.server.tables.wire import STATE_PREFIX

from .test_tables import FakeApp, lobby

SRC = Path(__file__).resolve().parents[2] / "src" / "salad"


class Send:
    """An ASGI server's ``send`` for one websocket: every message it took, and (``full``)
    a socket that takes none until ``opened``."""

    def __init__(self, full: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.open = asyncio.Event()
        if not full:
            self.open.set()

    async def __call__(self, message: dict[str, Any]) -> None:
        await self.open.wait()
        self.sent.append(message)

    def texts(self) -> list[str]:
        return [m["text"] for m in self.sent if m["type"] == "websocket.send"]


def state(n: int) -> str:
    return STATE_PREFIX + f',"moves":{n}' + "}"


async def steps(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_messages_go_through_the_asgi_send() -> None:
    async def run() -> None:
        send = Send()
        conn = Conn(RawSocket(send), 0, TurnWrites())
        conn.push(state(1))
        conn.push('{"type":"pong"}')
        await steps()
        assert send.sent == [
            {"type": "websocket.send", "text": state(1)},
            {"type": "websocket.send", "text": '{"type":"pong"}'},
        ]
        conn.kick(4429, "too many messages")
        await steps()
        assert send.sent[-1] == {
            "type": "websocket.close",
            "code": 4429,
            "reason": "too many messages",
        }

    asyncio.run(run())


def test_a_full_socket_falls_back_to_the_outbox_and_holds_up_no_other() -> None:
    async def run() -> None:
        writes = TurnWrites()
        slow_send, fast_send, last_send = Send(full=True), Send(), Send()
        slow = Conn(RawSocket(slow_send), 0, writes)
        fast = Conn(RawSocket(fast_send), 1, writes)
        last = Conn(RawSocket(last_send), 2, writes)
        for conn in (slow, fast, last):
            conn.push(state(1))
        await steps()
        # The slow one's send waits; the ones after it in the turn are written all the same.
        assert slow_send.texts() == [] and slow.task is not None
        assert fast_send.texts() == [state(1)] and last_send.texts() == [state(1)]
        # Its later messages wait in its outbox: a newer state replaces one waiting there.
        for n in (2, 3, 4):
            slow.push(state(n))
            fast.push(state(n))
            await steps()
        assert fast_send.texts() == [state(n) for n in (1, 2, 3, 4)]
        assert slow.waiting is not None and slow.waiting.text == state(4)
        slow_send.open.set()
        await steps()
        assert slow_send.texts() == [state(1), state(4)]
        assert slow.task is None and not slow.outbox and slow.size == 0
        slow.push(state(5))  # written at the end of the turn again
        await steps()
        assert slow_send.texts()[-1] == state(5)

    asyncio.run(run())


def test_no_module_reaches_into_another_librarys_internals() -> None:
    """No import of uvicorn's protocol classes, no ``send.__self__``, no coroutine stepped by
    hand: the server is written against uvicorn's public options and the ASGI calls."""
    found = []
    for path in SRC.rglob("*.py"):
        text = path.read_text()
        for pattern in (r"uvicorn\.protocols", r"__self__", r"\.send\(None\)"):
            if re.search(pattern, text):
                found.append(f"{path.relative_to(SRC)}: {pattern}")
    assert found == []


@pytest.mark.parametrize("error", [RuntimeError("a bug"), ConnectionResetError("gone")])
def test_an_error_that_ends_a_websocket_is_logged_with_its_table(
    error: Exception, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A message whose handling raises ends its websocket with one log line naming the table
    (it ended without a word); a client going away (an ``OSError``) is no error."""

    async def run() -> str:
        async with lobby(tmp_path, 3) as (manager, joined):

            async def handle(*_: Any) -> bool:
                raise error

            manager.handle = handle  # type: ignore[method-assign]
            sockets = TableSockets(FakeApp(), manager, RateLimits({}))
            inbox = [
                {"type": "websocket.connect"},
                {"type": "websocket.receive", "text": '{"type":"ping"}'},
                {"type": "websocket.receive", "text": '{"type":"ping"}'},
            ]

            async def receive() -> dict[str, Any]:
                return inbox.pop(0) if inbox else {"type": "websocket.disconnect"}

            scope = {"type": "websocket", "path": f"/ws/tables/{joined.table_id}"}
            await sockets(scope, receive, Send())
            return joined.table_id

    with caplog.at_level(logging.ERROR, logger="salad.server"):
        table_id = asyncio.run(run())
    said = [r for r in caplog.records if r.name == "salad.server"]
    if isinstance(error, OSError):
        assert said == []
    else:
        assert [r.getMessage() for r in said] == [
            f"table {table_id}: a websocket ended by an error"
        ]
        assert said[0].exc_info is not None and said[0].exc_info[1] is error
