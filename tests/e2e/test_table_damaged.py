"""A table the server cannot open (what is stored of it is damaged, issue #40): its page says
so, once, and does not try again (the server answers its REST requests 500 and closes its
websocket 4500, a close after which the client stops)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect

from .conftest import DESKTOP, watch

SEATS = [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]


def test_a_damaged_tables_page_says_it_cannot_be_opened_and_stops(
    browser: Any,
    start_server: Callable[..., AbstractContextManager[str]],
    tmp_path: Path,
) -> None:
    db = tmp_path / "salad.sqlite"
    with start_server(bot_delay=0, database=db) as url:
        made = httpx.post(
            f"{url}/api/tables", json={"name": "Host", "seats": SEATS, "bot_takeover": 0}
        ).json()
        table_id, token = made["table_id"], made["token"]
        started = httpx.post(
            f"{url}/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert started.status_code == 200, started.text
        deadline = time.monotonic() + 30
        while httpx.get(f"{url}/api/tables/{table_id}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE salad_games SET seed = 'abc' WHERE table_id = ?", (table_id,))
    with start_server(bot_delay=0, database=db) as url:
        context = browser.new_context(viewport=DESKTOP)
        page = context.new_page()
        errors: list[str] = []
        watch(page, errors)
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{url}/watch/{table_id}")
        said = f"table '{table_id}' cannot be opened: what is stored of it is damaged"
        expect(page.get_by_role("alert")).to_contain_text(said)
        expect(page.get_by_role("alert").get_by_role("heading")).to_have_text(
            "Cannot open this table"
        )
        page.wait_for_timeout(3000)  # a client that tried again would have by now (0.4 s, ...)
        assert len(sockets) <= 1, sockets
        assert page.get_by_role("link", name="Watch this table").count() == 0
        expect(page.get_by_role("link", name="Home", exact=True)).to_be_visible()
        page.screenshot(path=str(tmp_path / "damaged.png"))
        context.close()
        assert not errors, errors
