"""How long a whole game takes at a table's pace, for a person who plays the moment they may
(issue #33: at most 90 s for four seats against basic bots at ``fast``; 180 s before the pace
setting, at the server's 0.6 s a card and the page's 1.4 s on a finished trick).

It starts a ``salad serve`` of its own (no ``--bot-delay``: the table's pace rules) on a fresh
SQLite file, and makes a table by quick play: you in seat 0, three basic bots, at the pace
asked. The person is one of:

* ``--client ws`` (the default): a websocket client that makes its move (a card, its cards to
  pass, Next hand) the moment its state offers one. It waits for what the server waits for
  (the bots' pace, the pause before a bot leads after a trick, the pass going round), not for
  the page's own pause on a finished trick.
* ``--client browser``: the table page in Chromium (Playwright, ``/usr/bin/chromium``), which
  clicks the first playable card, its cards to pass and Next hand the moment the page offers
  them: the page's pause on each finished trick included, as a person sees the game.

It prints the seconds from the first state of the game to its end, and the moves.

    python benchmarks/game_pace.py                        # fast, a websocket client
    python benchmarks/game_pace.py --client browser       # fast, the page in Chromium
    python benchmarks/game_pace.py --pace normal --rules skip-the-salad
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

from salad.server.protocol import complete_state

sys.path.insert(0, str(Path(__file__).parent))
from cluster_procs import free_port, wait_ok  # noqa: E402  (a sibling file)

TARGET = 90.0
"""Seconds a whole four-seat game at ``fast`` may take (issue #33)."""

CHROMIUM = os.environ.get("SALAD_CHROMIUM", "/usr/bin/chromium")


@dataclass
class Played:
    seconds: float
    moves: int
    tricks: int
    over: bool


@dataclass
class Person:
    """Seat 0, moving the moment a state offers it a move: Next hand on a hand's summary, its
    cards to pass (all at once), or the first card it may play; each once."""

    nexted: int = -1
    sent: tuple[int, int] | None = None

    async def act(self, ws: Any, state: dict[str, Any]) -> bool:
        """Send what ``state`` asks of seat 0, if not sent already; True when it was a card
        of a trick (its turn to play)."""
        view = state["view"]
        end = state["hand_end"]
        if end and end["waiting"]:
            if 0 in end["waiting"] and end["hand"] != self.nexted:
                self.nexted = end["hand"]
                await ws.send(json.dumps({"type": "next"}))
            return False
        passing = state.get("passing")
        if passing is not None:  # the pass phase, played at once: every card needed now
            need = state["table"]["passing"] - len(passing["chosen"])
            moves = passing["legal"][:need]
        else:
            moves = view["legal"][:1] if view["to_move"] == 0 else []
        key = (state["moves"], len(passing["chosen"]) if passing else -1)
        if not moves or key == self.sent:
            return False
        self.sent = key
        for move in moves:
            await ws.send(json.dumps({"type": "play", "move": move}))
        return passing is None


def quick_table(
    base: str, pace: str, rules: str = "canadian", players: int = 4, bot: str = "basic"
) -> dict[str, Any]:
    """A table started at once: you in seat 0, ``bot`` bots elsewhere (``POST /api/quickplay``)."""
    body = {"name": "You", "rules": rules, "players": players, "bot": bot, "pace": pace}
    r = httpx.post(f"{base}/api/quickplay", json=body, timeout=30)
    r.raise_for_status()
    made: dict[str, Any] = r.json()
    return made


async def ws_game(base: str, table_id: str, token: str, tricks: int | None = None) -> Played:
    """Play seat 0 over a websocket, each move the moment the state offers it, until the game
    is over (or ``tricks`` tricks have been finished)."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, Any] | None = None
        start = 0.0
        done, last = 0, None
        person = Person()
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if message["type"] != "state" or message["you"] != 0:
                continue
            state = complete_state(message, state)
            view = state["view"]
            if view is None:
                continue
            start = start or time.monotonic()
            if state["last_trick"] is not None and state["last_trick"] != last:
                done += 1  # a trick was finished
            last = state["last_trick"]
            if view["phase"] == "over" or (tricks is not None and done >= tricks):
                over = view["phase"] == "over"
                return Played(time.monotonic() - start, state["moves"], done, over)
            await person.act(ws, state)


def browser_game(base: str, made: dict[str, Any]) -> Played:
    """Play seat 0 in the table page in Chromium, each click the moment the page offers it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{base}{made['url']}")
            page.wait_for_selector("#hand .card", timeout=30_000)
            start = time.monotonic()
            while True:
                status = page.locator("#status").text_content() or ""
                if status.startswith("Game over"):
                    break
                try:
                    if page.locator("#btn-next-hand").count():
                        page.click("#btn-next-hand", timeout=2000)
                    elif page.locator("#btn-pass").count():
                        for card in page.locator("#hand .card.legal:not(.selected)").all():
                            if page.locator("#btn-pass").is_enabled():
                                break
                            card.click(timeout=2000)
                        page.click("#btn-pass", timeout=2000)
                    elif page.locator("[data-wild='high']").count():
                        page.click("[data-wild='high']", timeout=2000)
                    elif page.locator("#hand .card.legal").count():
                        page.locator("#hand .card.legal").first.click(timeout=2000)
                    else:
                        page.wait_for_timeout(10)
                except Exception:  # the page drew again under the click: look again
                    continue
            seconds = time.monotonic() - start
        finally:
            browser.close()
    return Played(seconds, -1, -1, True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pace", choices=["slow", "normal", "fast"], default="fast")
    parser.add_argument("--client", choices=["ws", "browser"], default="ws")
    parser.add_argument("--rules", default="canadian", help="a preset (default canadian)")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        cmd = [sys.executable, "-m", "salad.cli", "serve", "--port", str(port)]
        cmd += ["--database", str(Path(tmp) / "salad.db")]
        env = {**os.environ, "SALAD_RATE_LIMITS": "off"}
        with log.open("w") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ok(f"{base}/api/options", proc, "salad serve", log)
            made = quick_table(base, args.pace, args.rules, args.players)
            if args.client == "ws":
                played = asyncio.run(ws_game(base, made["table_id"], made["token"]))
            else:
                played = browser_game(base, made)
        finally:
            proc.terminate()
            proc.wait(10)
    who = "a websocket client" if args.client == "ws" else "the page in Chromium"
    print(
        f"a whole {args.players}-seat game of {args.rules} against basic bots at {args.pace!r}, "
        f"{who} playing at once: {played.seconds:.1f} s"
        + (f" ({played.moves} moves)" if played.moves >= 0 else "")
    )
    if args.pace == "fast" and args.players == 4:
        verdict = "met" if played.seconds <= TARGET else "MISSED"
        print(f"target <= {TARGET:.0f} s: {verdict}")


if __name__ == "__main__":
    main()
