"""The writes of one turn of the event loop, made together at its end (TurnWrites): in the
order they were pushed, none lost or merged, and an error or close after what came before."""

from __future__ import annotations

import asyncio
import json

from salad.server.tables.connection import Conn, TurnWrites
from salad.server.tables.wire import STATE_PREFIX

written: list[tuple[str, str]] = []
"""Every write of the test under way, as (socket, message), in the order made."""


class Socket:
    """A websocket that takes every message at once, or (``full``) none until ``opened``."""

    def __init__(self, name: str, full: bool = False) -> None:
        self.name = name
        self.open = asyncio.Event()
        if not full:
            self.open.set()
        self.closed: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        await self.open.wait()
        written.append((self.name, data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed = (code, reason)


async def turn_ends() -> None:
    """Past the end of the turn: its flush, then the step of the task that writes."""
    for _ in range(2):
        await asyncio.sleep(0)


def state(n: int) -> str:
    return STATE_PREFIX + f',"moves":{n}' + "}"


def test_the_messages_of_a_turn_are_written_at_its_end_a_connection_at_a_time() -> None:
    async def run() -> None:
        written.clear()
        writes = TurnWrites()
        a, b = Conn(Socket("a"), 0, writes), Conn(Socket("b"), 1, writes)
        a.push(state(1))
        b.push(state(1))
        a.push('{"type":"pong"}')
        assert written == []  # nothing is written during the turn
        await turn_ends()
        assert written == [("a", state(1)), ("a", '{"type":"pong"}'), ("b", state(1))]
        b.push(state(2))  # the next turn's: written at its end
        assert len(written) == 3
        await turn_ends()
        assert written[3:] == [("b", state(2))]

    asyncio.run(run())


def test_messages_held_for_a_full_socket_wait_in_order_none_in_place_of_another() -> None:
    """Two states of one turn: the second was built knowing the first (it may leave out what
    the first holds), so it must not take the first's place in the outbox, as a newer state
    takes the place of one waiting there."""

    async def run() -> None:
        written.clear()
        sock = Socket("a", full=True)
        conn = Conn(sock, 0, TurnWrites())
        conn.push(state(1))
        conn.push(state(2))
        await turn_ends()
        assert written == [] and len(conn.outbox) == 2
        sock.open.set()
        for _ in range(5):
            await asyncio.sleep(0)
        assert written == [("a", state(1)), ("a", state(2))]
        conn.push(state(3))  # the socket takes it at once again
        await turn_ends()
        assert written[-1] == ("a", state(3))
        conn.stop()

    asyncio.run(run())


def test_an_error_and_close_come_after_what_was_pushed_before_them() -> None:
    async def run() -> None:
        written.clear()
        writes = TurnWrites()
        kept = Conn(Socket("kept"), 0, writes)
        kept.push(state(1))
        kept.kick(4429, "too many messages")
        dropped = Conn(Socket("dropped"), 1, writes)
        dropped.push(state(1))
        dropped.kick(4408, "too far behind", drop=True)
        gone = Conn(Socket("gone"), 2, writes)
        gone.push(state(1))
        gone.stop()  # the client left: nothing more is written
        for _ in range(5):
            await asyncio.sleep(0)
        assert [(s, json.loads(m)["type"]) for s, m in written] == [
            ("kept", "state"),
            ("kept", "error"),
            ("dropped", "error"),
        ]
        assert kept.ws.closed == (4429, "too many messages")  # type: ignore[attr-defined]
        assert dropped.ws.closed == (4408, "too far behind")  # type: ignore[attr-defined]

    asyncio.run(run())
