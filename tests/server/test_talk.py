"""Table talk (issue 14, item 11): chat lines and reactions go to everyone at the table, are
at most 200 characters, rate-limited, kept for a reconnecting client (in the table's row: a
restart or an unload gives them back), never in the record; spectators write only once the
host allows it. Real server processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from salad.server.ratelimit import ENV

from .conftest import Server, connect
from .test_unload import in_memory, wait_for

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]


async def next_of(sock: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of type ``kind`` (others are read and skipped)."""
    while True:
        m = await sock.recv(timeout)
        if m["type"] == kind:
            return m


def test_a_chat_line_goes_to_every_seat_and_spectator_and_a_newcomer_sees_it(
    server: Server,
) -> None:
    table_id, tokens = server.table(SEATS, start=False)

    async def go() -> None:
        host = await connect(server, table_id, tokens[0])
        p1 = await connect(server, table_id, tokens[1])
        spec = await connect(server, table_id, None)
        for s in (host, p1, spec):
            await s.until(lambda m: True)
        await p1.send({"type": "chat", "text": "  <b>hello</b>   there "})
        for s in (host, p1, spec):
            line = await next_of(s, "chat")
            assert line["seat"] == 1 and line["name"] == "P1"
            assert line["text"] == "<b>hello</b> there"  # text is text: the page escapes it
        await host.send({"type": "chat", "emote": "gg"})
        assert (await next_of(spec, "chat"))["emote"] == "gg"
        late = await connect(server, table_id, None)
        log = await next_of(late, "chat_log")
        assert [x.get("text") or x.get("emote") for x in log["lines"]] == [
            "<b>hello</b> there",
            "gg",
        ]
        assert log["spectators"] is False

    asyncio.run(go())


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ({"type": "chat", "text": "x" * 201}, "chat.text: at most 200 characters, not 201"),
        ({"type": "chat", "text": "   "}, "chat.text: must not be empty"),
        ({"type": "chat", "emote": "boo"}, "chat: emote must be one of nice, haha"),
        ({"type": "chat"}, 'chat: send either "text" or "emote"'),
    ],
)
def test_a_bad_chat_line_is_refused_with_one_line_and_goes_nowhere(
    server: Server, message: dict[str, Any], words: str
) -> None:
    table_id, tokens = server.table(SEATS, start=False)

    async def go() -> None:
        host = await connect(server, table_id, tokens[0])
        p1 = await connect(server, table_id, tokens[1])
        await host.until(lambda m: True)
        await p1.until(lambda m: True)
        await p1.send(message)
        error = await next_of(p1, "error")
        assert words in error["message"]
        assert "\n" not in error["message"]
        assert [m for m in await host.quiet(0.5) if m["type"] == "chat"] == []

    asyncio.run(go())
    ok = {"type": "chat", "text": "x" * 200}

    async def fits() -> None:
        p1 = await connect(server, table_id, tokens[1])
        await p1.send(ok)
        assert (await next_of(p1, "chat"))["text"] == "x" * 200

    asyncio.run(fits())


def test_spectators_read_but_write_only_once_the_host_allows(server: Server) -> None:
    table_id, tokens = server.table(SEATS)

    async def go() -> None:
        host = await connect(server, table_id, tokens[0])
        p1 = await connect(server, table_id, tokens[1])
        spec = await connect(server, table_id, None)
        for s in (host, p1, spec):
            await s.until(lambda m: True)
        await spec.send({"type": "chat", "text": "hi"})
        refused = await next_of(spec, "error")
        assert (
            "spectators may read the chat; only the host can let them write" in (refused["message"])
        )
        await p1.send({"type": "chat_settings", "spectators": True})
        assert "only the host" in (await next_of(p1, "error"))["message"]
        await host.send({"type": "chat_settings", "spectators": True})
        for s in (host, p1, spec):
            assert (await next_of(s, "chat_settings"))["spectators"] is True
        await spec.send({"type": "chat", "text": "hi all"})
        line = await next_of(host, "chat")
        assert (line["seat"], line["name"], line["text"]) == (-1, "Spectator", "hi all")
        await host.send({"type": "chat_settings", "spectators": False})
        await next_of(spec, "chat_settings")
        await spec.send({"type": "chat", "text": "again"})
        assert "only the host" in (await next_of(spec, "error"))["message"]

    asyncio.run(go())


def test_chat_is_rate_limited_per_seat(
    monkeypatch: pytest.MonkeyPatch, start_server: Callable[..., Server]
) -> None:
    monkeypatch.setenv(ENV, "chat=3/30")
    srv = start_server()
    table_id, tokens = srv.table(SEATS, start=False)

    async def go() -> None:
        host = await connect(srv, table_id, tokens[0])
        p1 = await connect(srv, table_id, tokens[1])
        await host.until(lambda m: True)
        for i in range(3):
            await host.send({"type": "chat", "text": f"line {i}"})
            assert (await next_of(host, "chat"))["text"] == f"line {i}"
        await host.send({"type": "chat", "emote": "wow"})
        error = await next_of(host, "error")
        assert "chat: too many messages (at most 3 per 30 s): wait" in error["message"]
        await p1.send({"type": "chat", "text": "mine"})  # another seat has its own bucket
        while (line := await next_of(p1, "chat"))["seat"] != 1:
            pass
        assert line["text"] == "mine"

    asyncio.run(go())


def test_a_whole_game_with_chat_and_an_undo_keeps_the_chat_out_of_the_record(
    start_server: Callable[..., Server], tmp_path: Any
) -> None:
    srv = start_server()
    joined = srv.ok("POST", "/api/quickplay", {"name": "Ann", "bot": "basic", "players": 3})
    table_id, token = joined["table_id"], joined["token"]
    rng = random.Random(5)
    secret = "pass the croutons 7f3a9"

    async def go() -> None:
        me = await connect(srv, table_id, token)
        await me.send({"type": "chat", "text": secret})
        await next_of(me, "chat")
        undone = False
        sent_for = -1
        m = await me.until(lambda m: m["view"] is not None)
        nexted = -1
        while m["view"]["phase"] != "over":
            view = m["view"]
            end = m.get("hand_end")
            if end and end["waiting"]:  # a hand's summary: "Next hand", then wait for the deal
                if 0 in end["waiting"] and end["hand"] != nexted:
                    nexted = end["hand"]
                    await me.send({"type": "next"})
                m = await me.until(lambda x: not (x.get("hand_end") or {}).get("waiting"))
                continue
            if not undone and m["moves"] > 10 and view["to_move"] == 0 and view["legal"]:
                undone = True
                await me.send({"type": "undo"})
                note = await next_of(me, "undone")
                assert note["seat"] == 0 and note["count"] >= 1
                m = await me.until(lambda x, k=note["moves"]: x["moves"] == k)
                sent_for = -1  # the move taken back is to be made again
                continue
            if view["to_move"] == 0 and view["legal"] and m["moves"] != sent_for:
                sent_for = m["moves"]
                await me.send({"type": "play", "move": rng.choice(view["legal"])})
            m = await me.until(lambda x, k=m["moves"]: x["moves"] != k, timeout=60)
        assert undone

    asyncio.run(go())
    record = srv.ok("GET", f"/api/tables/{table_id}/record")
    assert secret not in str(record) and "chat" not in record
    assert record["players"][0]["undos"] == 1
    db = tmp_path / "salad.db"
    srv.stop()
    assert db.exists()
    with contextlib.closing(sqlite3.connect(db)) as conn:
        (talk,) = conn.execute("SELECT talk FROM salad_tables WHERE id = ?", (table_id,)).fetchone()
        assert [line["text"] for line in json.loads(talk)["lines"]] == [secret]  # the table's
        for name in ("salad_games", "salad_moves"):  # never a game's
            assert secret not in str(conn.execute(f"SELECT * FROM {name}").fetchall())


def test_the_chat_comes_back_after_a_restart_and_an_unload(
    start_server: Callable[..., Server],
) -> None:
    """The host says a line and lets spectators write; the server is killed. The server started
    again on its database gives a spectator the line and the setting (and lets it write); the
    table left memory for being idle and loaded again gives them back too."""
    srv = start_server()
    table_id, tokens = srv.table(SEATS, start=False)

    async def before() -> None:
        host = await connect(srv, table_id, tokens[0])
        await host.until(lambda m: True)
        await host.send({"type": "chat_settings", "spectators": True})
        await next_of(host, "chat_settings")
        await host.send({"type": "chat", "text": "hello"})
        await next_of(host, "chat")

    async def log_of_a_spectator(srv: Server, say: str | None = None) -> dict[str, Any]:
        spec = await connect(srv, table_id, None)
        log = await next_of(spec, "chat_log")
        if say is not None:
            await spec.send({"type": "chat", "text": say})
            assert (await next_of(spec, "chat"))["text"] == say
        await spec.ws.close()
        return log

    asyncio.run(before())
    srv.kill()
    srv = start_server(srv.database, args=("--unload-after", "0.5"))
    restarted = asyncio.run(log_of_a_spectator(srv, "me too"))
    assert [line["text"] for line in restarted["lines"]] == ["hello"]
    assert restarted["spectators"] is True
    wait_for(lambda: in_memory(srv) == 0)
    reloaded = asyncio.run(log_of_a_spectator(srv))
    assert [line["text"] for line in reloaded["lines"]] == ["hello", "me too"]
    assert reloaded["spectators"] is True
