"""What a table keeps on a cluster besides its game (TableStore.keep): its chat lines and chat
setting, and who has pressed Next hand, follow the table to the node that takes it over; a node
that no longer holds a table keeps nothing of it (fenced); a table that leaves memory for being
idle gets them back when it is loaded again."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidStatus

from salad.formats.rules import load_ruleset
from salad.server.store import MemoryStore
from salad.server.tables import Conn
from salad.view import SPECTATOR

from .cluster_clients import ok, reach
from .test_cluster import BOT, HUMAN, holder
from .test_cluster_leases import node_on
from .test_talk import next_of


async def _reconnect(proxy: Any, table_id: str, token: str | None, first: str) -> Any:
    """A websocket through the balancer once a node serves the table again, and the first
    message of type ``first`` it gets: ``(socket, message)``."""
    for _ in range(50):
        try:
            sock = await reach(proxy, proxy, table_id, token)
            return sock, await next_of(sock, first)
        except TimeoutError:
            raise AssertionError(f"no {first} from the node that took the table over") from None
        except (OSError, InvalidStatus, ConnectionClosed):  # no node for it yet
            await asyncio.sleep(0.2)
    raise AssertionError("no node took the table over")


def test_the_chat_follows_its_table_when_the_node_dies(start_cluster: Any) -> None:
    """kill -9 of the node holding a table whose host and a spectator have chatted (the
    spectator through another node, allowed by the host): both reconnect through the balancer
    to the node that takes the table over, which gives them every line and the setting back,
    and the spectator may still write."""
    nodes, proxy = start_cluster(3)
    body = {"name": "Host", "seats": [HUMAN, HUMAN, {"kind": "bot"}]}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host_token = created["table_id"], created["token"]

    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        host = await reach(nodes[0], proxy, table_id, host_token)
        spectator = await reach(nodes[2], proxy, table_id, None)
        for sock in (host, spectator):
            await sock.until(lambda m: True)
        await host.send({"type": "chat_settings", "spectators": True})
        await next_of(spectator, "chat_settings")
        await host.send({"type": "chat", "text": "hello"})
        await spectator.send({"type": "chat", "emote": "gg"})
        for _ in range(2):
            await next_of(host, "chat")
        nodes[0].kill()
        _, host_log = await _reconnect(proxy, table_id, host_token, "chat_log")
        sock, spectator_log = await _reconnect(proxy, table_id, None, "chat_log")
        await sock.send({"type": "chat", "text": "still here"})  # the spectator, on the new node
        return host_log, spectator_log, await next_of(sock, "chat")

    host_log, spectator_log, line = asyncio.run(go())
    assert host_log == spectator_log
    assert host_log["spectators"] is True
    said = [(m["seat"], m.get("text") or m.get("emote")) for m in host_log["lines"]]
    assert said == [(0, "hello"), (SPECTATOR, "gg")]
    assert (line["seat"], line["text"]) == (SPECTATOR, "still here")
    assert len(holder(nodes[1:])) == 1


def test_a_seats_chat_count_follows_its_table_when_the_node_dies(
    start_cluster: Any, monkeypatch: Any
) -> None:
    """The host says as many chat lines as its bucket holds; its table's node is killed. On the
    node that takes the table over it is still refused (its count is in Redis), where that node
    counting on its own would have given it a full bucket."""
    monkeypatch.setenv("SALAD_RATE_LIMITS", "chat=2/60")  # the nodes are started with it
    nodes, proxy = start_cluster(2)
    body = {"name": "Host", "seats": [HUMAN, HUMAN, {"kind": "bot"}]}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host_token = created["table_id"], created["token"]

    async def go() -> dict[str, Any]:
        host = await reach(nodes[0], proxy, table_id, host_token)
        await host.until(lambda m: True)
        for text in ("one", "two"):
            await host.send({"type": "chat", "text": text})
            await next_of(host, "chat")
        nodes[0].kill()
        sock, _ = await _reconnect(proxy, table_id, host_token, "chat_log")
        await sock.send({"type": "chat", "text": "three"})
        while True:  # its answer: the line said, or an error
            m: dict[str, Any] = await sock.recv(10)
            if m["type"] in ("chat", "error"):
                return m

    answer = asyncio.run(go())
    assert answer["type"] == "error", f"the line was said: {answer}"
    assert answer["message"].startswith("chat: too many messages (at most 2 per 60 s)")
    assert holder(nodes[1:]) == [0]


TWO_HANDS = 'preset = "canadian"\nhands = ["no-tricks", "no-hearts"]\n'


def test_who_pressed_next_hand_is_not_asked_again_after_the_node_dies(
    start_cluster: Any,
) -> None:
    """Two humans on different nodes play a hand to its end; one presses Next hand; the node
    holding the table is killed. Reconnected through the balancer, both find the summary still
    waiting for the other one only, and once that one presses, the next hand is played."""
    nodes, proxy = start_cluster(3, bot_delay=0.02)
    body = {"name": "Host", "rules_toml": TWO_HANDS, "seats": [HUMAN, BOT, HUMAN, BOT]}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host = created["table_id"], created["token"]
    guest = ok(proxy, "POST", f"/api/tables/{table_id}/join", {"name": "Guest"}, node=nodes[1])[
        "token"
    ]
    ok(proxy, "POST", f"/api/tables/{table_id}/start", token=host, node=nodes[1])
    assert holder(nodes) == [0]

    async def to_hand_end(sock: Any, seed: int) -> None:
        """Play the seat at random until the first hand's summary waits."""
        rng, sent_for = random.Random(seed), -1
        while True:
            m = await sock.recv(30)
            if m["type"] != "state" or m["view"] is None:
                continue
            if m["hand_end"] is not None and m["hand_end"]["waiting"]:
                return
            view = m["view"]
            if view["to_move"] == m["you"] and view["legal"] and m["moves"] != sent_for:
                sent_for = m["moves"]
                await sock.send({"type": "play", "move": rng.choice(view["legal"])})

    async def go() -> tuple[list[int], list[int], dict[str, Any]]:
        a = await reach(nodes[0], proxy, table_id, host)
        b = await reach(nodes[1], proxy, table_id, guest)
        await asyncio.gather(to_hand_end(a, 1), to_hand_end(b, 2))
        await a.send({"type": "next"})
        await b.until(lambda m: (m["hand_end"] or {}).get("waiting") == [2])
        nodes[0].kill()
        (a, _), (b, _) = [await _reconnect(proxy, table_id, t, "state") for t in (host, guest)]
        waiting = [sock.state["hand_end"]["waiting"] for sock in (a, b)]
        assert waiting == [[2], [2]], f"the host is asked again: waiting {waiting}"
        await b.send({"type": "next"})
        dealt = await a.until(lambda m: m["hand_end"] is None and m["view"]["hand"] == 2)
        return waiting[0], waiting[1], dealt

    seen_by_host, seen_by_guest, dealt = asyncio.run(go())
    assert seen_by_host == seen_by_guest == [2]
    assert dealt["view"]["phase"] in ("pass", "play")
    assert len(holder(nodes[1:])) == 1


class _Socket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, data: str) -> None:
        self.texts.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_only_the_holder_keeps_the_talk_and_an_idle_table_gets_it_back(
    redis_server: Any, tmp_path: Path
) -> None:
    """In process, two nodes on one Redis and one store: the node holding a table keeps its
    chat; the next holder gets it when it loads the table; the copy of the node that lost the
    table (say frozen past its lease) keeps nothing more (its epoch is fenced out); a table let
    go for being idle lets its lease go and keeps its talk, back when it is loaded again."""

    async def run() -> None:
        storage = MemoryStore()  # one database for both nodes
        a = node_on(redis_server.url, storage)
        b = node_on(redis_server.url, storage)

        async def talk(table_id: str) -> Any:
            row = await storage.load_table(table_id)
            assert row is not None
            return row.talk

        try:
            made = await a.manager.create(load_ruleset("canadian"), "Host", [("open", None)] * 3)
            t1 = made.table_id
            assert await a.link.owner(t1) == a.node
            table = await a.manager.get(t1)
            host = Conn(_Socket(), 0)
            await a.manager.connect(table, host)
            await a.manager.handle(table, host, json.dumps({"type": "chat", "text": "hi"}))
            kept = await talk(t1)
            assert [line["text"] for line in kept["lines"]] == ["hi"]
            # a lets the table go (not idle: another node plays it now); b takes it and
            # finds the line.
            await a.link.release_many([t1])
            assert await b.holder_name(t1) is None  # b serves it
            again = await b.manager.get(t1)
            assert [line["text"] for line in b.manager.talk.rooms[t1].lines] == ["hi"]
            # a's copy no longer holds the table: what it says is not kept.
            await a.manager.handle(table, host, json.dumps({"type": "chat", "text": "stale"}))
            assert await talk(t1) == kept
            # Idle, b lets it go: its lease goes, its talk stays kept.
            b.manager.registry.unload_after = 0.0
            assert b.manager.sweep() == [again.id]
            await asyncio.gather(*b._tasks)
            assert await b.link.owner(t1) is None
            assert t1 not in b.manager.talk.rooms
            assert await b.holder_name(t1) is None  # b serves it
            await b.manager.get(t1)
            assert [line["text"] for line in b.manager.talk.rooms[t1].lines] == ["hi"]
        finally:
            for node in (a, b):
                await node.link.close()

    asyncio.run(run())
