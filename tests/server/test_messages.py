"""Every kind of message a real ``salad serve`` sends is one of the protocol's models
(salad.server.messages.ServerMessage), key for key: states, errors, pong, chat, chat_log,
chat_settings, hint and undone."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pydantic import TypeAdapter

from salad.server.messages import ServerMessage

from .conftest import Server, Socket, connect

SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


async def next_of(sock: Socket, kind: str) -> dict[str, Any]:
    while True:
        m = await sock.recv()
        if m["type"] == kind:
            return m


def test_every_message_of_a_real_server_is_a_server_message(server: Server) -> None:
    joined = server.ok("POST", "/api/quickplay", {"name": "Ann", "bot": "random", "players": 4})
    table_id, token = joined["table_id"], joined["token"]
    texts: list[str] = []

    async def play() -> None:
        me = await connect(server, table_id, token)
        spectator = await connect(server, table_id, None)
        await me.send({"type": "ping"})
        await next_of(me, "pong")
        await me.send({"type": "dance"})
        await next_of(me, "error")
        await me.send({"type": "chat", "text": "hello"})
        await me.send({"type": "chat", "emote": "gg"})
        await me.send({"type": "chat_settings", "spectators": True})
        await next_of(me, "chat_settings")
        for _ in range(2):
            m = await me.until(lambda x: x["view"]["to_move"] == 0 and bool(x["view"]["legal"]))
            await me.send({"type": "play", "move": m["view"]["legal"][0]})
            await me.until(lambda x, k=m["moves"]: x["moves"] > k)
        await me.until(lambda x: x["view"]["to_move"] == 0 and bool(x["view"]["legal"]))
        await me.send({"type": "hint"})
        await next_of(me, "hint")
        await me.send({"type": "undo"})
        await next_of(me, "undone")
        again = await connect(server, table_id, token)
        await next_of(again, "chat_log")
        await again.until(lambda x: True)
        for sock in (me, spectator, again):
            await sock.quiet(0.3)
            texts.extend(sock.messages)
            await sock.ws.close()

    asyncio.run(play())
    kinds: set[str] = set()
    for text in texts:
        message = SERVER_MESSAGE.validate_json(text)
        assert message.model_dump(mode="json") == json.loads(text), text
        kinds.add(message.type)
    assert kinds == {
        "state",
        "error",
        "pong",
        "chat",
        "chat_log",
        "chat_settings",
        "hint",
        "undone",
    }
