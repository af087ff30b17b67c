"""End-to-end (#34): a player's profile (``/p/{name}``) and the leaderboard, after two rated
games against the bots: their words, the rating chart, the links to replay and review, and the
pages at a phone's and a desktop's sizes (screenshots in ``tests/e2e/artifacts/``)."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect
from websockets.sync.client import connect

from salad.presets import PRESETS

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORTS = {"390x844": (390, 844), "1280x800": (1280, 800)}
ONE_HAND = 'preset = "canadian"\nhands = ["no-hearts"]\n'
HEARTS = PRESETS["canadian"].hand_penalties(PRESETS["canadian"].hands.index("no-hearts"))


def play_rated_game(base_url: str, player: httpx.Client) -> None:
    """The player hosts a rated one-hand table against two bots and plays it to its end."""
    body = {
        "name": "Host",
        "rules_toml": ONE_HAND,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
        "rated": True,
    }
    made = player.post("/api/tables", json=body).json()
    token = made["token"]
    player.post(
        f"/api/tables/{made['table_id']}/start", headers={"Authorization": f"Bearer {token}"}
    ).raise_for_status()
    url = base_url.replace("http", "ws", 1) + f"/ws/tables/{made['table_id']}?token={token}"
    with connect(url, max_size=2**22) as ws:
        played = -1
        while True:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] != "state" or m.get("view") is None:
                continue
            view = m["view"]
            if view["phase"] == "over":
                return
            end = m.get("hand_end")
            if end and m["you"] in end["waiting"]:
                ws.send(json.dumps({"type": "next"}))
            elif view["to_move"] == m["you"] and view.get("legal") and m["moves"] != played:
                played = m["moves"]
                ws.send(json.dumps({"type": "play", "move": view["legal"][0]}))


def test_the_profile_and_the_leaderboard(
    open_page: Callable[..., Any], base_url: str, axe: Callable[..., list[str]]
) -> None:
    name = f"Rosalie{secrets.token_hex(2)}"
    with httpx.Client(base_url=base_url, timeout=30) as player:
        player.get("/api/me").raise_for_status()
        player.patch("/api/me", json={"name": name}).raise_for_status()
        for _ in range(2):
            play_rated_game(base_url, player)
    ARTIFACTS.mkdir(exist_ok=True)
    for size, (w, h) in VIEWPORTS.items():
        page = open_page(f"/p/{name}", viewport={"width": w, "height": h})
        expect(page.locator("#p-name")).to_have_text(name)
        expect(page.locator("#p-summary")).to_contain_text("2 finished games")
        expect(page.locator("#p-ratings")).to_contain_text("Canadian Salad")
        expect(page.locator("#p-ratings")).to_contain_text("provisional")
        expect(page.locator("#p-chart svg .c-dot")).to_have_count(2)
        expect(page.locator("#p-games tbody tr")).to_have_count(2)
        expect(page.locator("#p-games a", has_text="Replay").first).to_have_attribute(
            "href", re.compile(r"^/replay/[^?]+\?game=1$")
        )
        expect(page.locator("#p-penalties")).to_contain_text("No Hearts")
        for penalty in HEARTS:  # by kind, named from the ruleset's data
            expect(page.locator("#p-kinds tbody")).to_contain_text(penalty.name)
        expect(page.locator("#p-bots")).to_contain_text("random")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= w, f"the profile scrolls sideways at {size}: {width} px"
        page.screenshot(path=str(ARTIFACTS / f"profile-{size}.png"), full_page=True)

        board = open_page("/leaderboard?min=1", viewport={"width": w, "height": h})
        row = board.locator("#b-rows tbody tr", has_text=name)
        expect(row).to_have_count(1)
        expect(row).to_contain_text("provisional")
        width = board.evaluate("document.documentElement.scrollWidth")
        assert width <= w, f"the leaderboard scrolls sideways at {size}: {width} px"
        board.screenshot(path=str(ARTIFACTS / f"leaderboard-{size}.png"), full_page=True)
    assert axe(page) == [] and axe(board) == []  # at the last size, the desktop's
    row.get_by_role("link", name=name).click()  # from the board to the profile
    expect(board.locator("#p-name")).to_have_text(name)
    # A rated table's lobby says so, at a phone's size.
    with httpx.Client(base_url=base_url, timeout=30) as player:
        body = {"name": "Host", "rules_toml": ONE_HAND, "players": 3, "rated": True}
        made = player.post("/api/tables", json=body).json()
    lobby = open_page(made["url"], viewport={"width": 390, "height": 844})
    expect(lobby.locator(".lobby h2 .rated-tag")).to_have_text("Rated")
    lobby.screenshot(path=str(ARTIFACTS / "lobby-rated-390x844.png"))
    missing = open_page("/p/nobody-is-called-this")
    expect(missing.locator("#p-summary")).to_have_text("no player 'nobody-is-called-this'")
