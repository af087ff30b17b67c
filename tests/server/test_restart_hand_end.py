"""A hand's summary and the wait for Next hand survive a restart and an unload (issue 14): the
table rebuilds them from the game's event log when it loads, and who had pressed Next hand
from what the table kept (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from .test_hand_end import check_summary, play_to_hand_end
from .test_play import HUMAN, RANDOM
from .test_unload import finished_table, in_memory, wait_for


def restarted_at_hand_end(
    start_server: Any, ws: Any, host_presses: bool
) -> tuple[Any, str, list[str], dict[str, Any]]:
    """A table of two humans (host, guest) and two bots played to its first hand's end (the
    host pressing Next hand if ``host_presses``), then its server killed and started again on
    its database: the new server, the table's id, its tokens and the last state seen before."""
    srv = start_server()
    tid, tokens = srv.table([HUMAN, HUMAN, RANDOM, RANDOM], seed=7)

    async def before() -> dict[str, Any]:
        a = await ws(srv, tid, tokens[0], "host")
        b = await ws(srv, tid, tokens[1], "guest")
        state = await play_to_hand_end([a, b], random.Random(2))
        assert state["hand_end"]["waiting"] == [0, 1]
        if host_presses:
            await a.send({"type": "next"})
            state = await b.until(lambda m: (m["hand_end"] or {}).get("waiting") == [1])
        return state

    seen = asyncio.run(before())
    srv.kill()
    return start_server(srv.database), tid, tokens, seen


def test_a_restart_keeps_the_summary_and_the_wait(start_server: Any, ws: Any) -> None:
    srv2, tid, tokens, seen = restarted_at_hand_end(start_server, ws, False)

    async def after() -> None:
        a = await ws(srv2, tid, tokens[0], "host")
        first = await a.recv()
        assert first["hand_end"] == seen["hand_end"]
        check_summary(first["hand_end"], first)
        assert first["moves"] == seen["moves"] and first["view"] == seen["view"]
        # Still waiting: no bot moves, a move is refused, until both press Next hand.
        assert all(m["moves"] == seen["moves"] for m in await a.quiet(0.5) if m["type"] == "state")
        if first["view"]["to_move"] == 0:
            await a.send({"type": "play", "move": first["view"]["legal"][0]})
            refused = await a.recv()
            assert refused["type"] == "error" and "Next hand" in refused["message"]
        b = await ws(srv2, tid, tokens[1], "guest")
        await a.send({"type": "next"})
        await a.until(lambda m: m["hand_end"] is not None and m["hand_end"]["waiting"] == [1])
        await b.send({"type": "next"})
        done = await a.until(lambda m: m["hand_end"] is None)
        assert done["view"]["hand"] == 2 and done["moves"] == seen["moves"]
        await a.ws.close()
        await b.ws.close()

    asyncio.run(after())


def test_a_finished_game_keeps_its_last_summary_when_unloaded(start_server: Any, ws: Any) -> None:
    srv = start_server(args=("--unload-after", "0.5"))
    tid = finished_table(srv)

    async def look() -> dict[str, Any]:
        spec = await ws(srv, tid, None, "spectator")
        state = await spec.recv()
        await spec.ws.close()
        return state

    over = asyncio.run(look())
    assert over["hand_end"] is not None and over["hand_end"]["waiting"] == []
    wait_for(lambda: in_memory(srv) == 0)
    again = asyncio.run(look())
    assert again["hand_end"] == over["hand_end"] and again["moves"] == over["moves"]


def test_a_restart_asks_only_those_who_had_not_pressed(start_server: Any, ws: Any) -> None:
    """The host presses Next hand, the guest has not; the server is killed. Started again on
    its database, the summary waits for the guest only (the host is not asked again), and the
    guest's press deals the next hand."""
    srv2, tid, tokens, seen = restarted_at_hand_end(start_server, ws, True)

    async def after() -> None:
        a = await ws(srv2, tid, tokens[0], "host")
        first = await a.recv()
        assert first["hand_end"]["waiting"] == [1], first["hand_end"]
        assert first["moves"] == seen["moves"]
        b = await ws(srv2, tid, tokens[1], "guest")
        await b.send({"type": "next"})
        done = await a.until(lambda m: m["hand_end"] is None)
        assert done["view"]["hand"] == 2
        await a.ws.close()
        await b.ws.close()

    asyncio.run(after())
