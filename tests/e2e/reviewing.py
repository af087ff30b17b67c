"""What the browser tests of game review share: a server of their own that reviews quickly,
and a finished game to review."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

import httpx

from salad.server.reviews import WORLDS_ENV


@contextmanager
def reviewing_server(
    start_server: Callable[..., AbstractContextManager[str]], worlds: int
) -> Iterator[str]:
    """A server of one's own (bots without delay) whose reviews sample ``worlds`` worlds a
    decision: a quick review."""
    before = os.environ.get(WORLDS_ENV)
    os.environ[WORLDS_ENV] = str(worlds)
    try:
        with start_server(bot_delay=0) as url:
            yield url
    finally:
        if before is None:
            os.environ.pop(WORLDS_ENV, None)
        else:
            os.environ[WORLDS_ENV] = before


def finished_game(
    url: str,
    seats: list[dict[str, Any]],
    rules_toml: str | None = None,
    *,
    name: str = "Host",
    seed: int | None = None,
    timeout: float = 60,
    http: httpx.Client | None = None,
) -> tuple[str, str, dict[str, Any]]:
    """A table hosted by ``name`` (bots and the host's seat, which a bot takes over) whose
    first game is over (within ``timeout`` seconds): its id, the host's token and the game's
    record. ``seed``: the deal's; ``http``: the client (the player, by its cookie) that makes
    the table, a new one by default."""
    with nullcontext(http) if http is not None else httpx.Client(base_url=url, timeout=30) as c:
        body: dict[str, Any] = {"name": name, "seats": seats, "bot_takeover": 0}
        if rules_toml is not None:
            body["rules_toml"] = rules_toml
        if seed is not None:
            body["seed"] = seed
        made = c.post("/api/tables", json=body)
        assert made.status_code == 200, made.text
        tid, token = made.json()["table_id"], made.json()["token"]
        started = c.post(f"/api/tables/{tid}/start", headers={"Authorization": f"Bearer {token}"})
        assert started.status_code == 200, started.text
        deadline = time.monotonic() + timeout
        while c.get(f"/api/tables/{tid}/games").json()[0]["status"] != "over":
            assert time.monotonic() < deadline, "the game did not finish"
            time.sleep(0.2)
        record = c.get(f"/api/tables/{tid}/record?game=1").json()
    return tid, token, record
