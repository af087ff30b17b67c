"""Issue 18: the server keeps its responsiveness while an expert thinks (bots think in the bot
worker processes, never on the event loop): pings are answered at once meanwhile."""

from __future__ import annotations

import asyncio
import statistics
import time

from .conftest import Server, connect

EXPERT = {"kind": "bot", "bot": "expert"}
ANSWER_S = 0.25
"""The slowest a pong may be while the experts think (a few ms measured on a busy 2-core
machine; an expert thinking on the event loop would hold a ping for up to 0.7 s)."""


def test_pings_are_answered_at_once_while_experts_think(server: Server) -> None:
    srv = server  # bots at once; afterwards its game waits for the human, taking no CPU
    table_id, tokens = srv.table([{"kind": "human"}, EXPERT, EXPERT, EXPERT])

    async def run() -> tuple[list[float], int, int]:
        me = await connect(srv, table_id, tokens[0])
        state = await me.until(lambda m: m["view"] is not None)
        first = state["moves"]
        rtts: list[float] = []
        end = time.monotonic() + 4.0
        while time.monotonic() < end:
            if len(rtts) >= 30 and me.state and me.state["moves"] - first >= 6:
                break  # enough seen: two rounds of expert moves, thirty pings among them
            st = me.state
            view = st["view"] if st else None
            if st and view and view["to_move"] == st["you"] and view["legal"]:
                await me.send({"type": "play", "move": view["legal"][0]})
            sent = time.perf_counter()
            await me.send({"type": "ping"})
            while (await me.recv(5))["type"] != "pong":
                pass
            rtts.append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)
        await me.ws.close()
        return rtts, first, me.state["moves"] if me.state else first

    rtts, first, last = asyncio.run(run())
    assert last - first >= 3, "the experts did not play meanwhile"
    assert len(rtts) >= 20 and max(rtts) < ANSWER_S, (statistics.median(rtts), max(rtts))
