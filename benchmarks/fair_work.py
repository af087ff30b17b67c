"""Fair work on one server (issue #40): a normal table's wait under a flood of expert tables,
and a review's wait under a flood of reviews.

1. **Bots.** A ``salad serve`` of its own (no ``--bot-delay``: the tables' paces rule, as on a
   real server). A person plays seat 0 of a table of three basic bots at the normal pace,
   moving the moment a card is theirs to play; the figure is each wait from their card to
   their next turn. Measured alone, then while ``--flood`` tables of expert bots (each with a
   host a bot plays for at once) play at the same time on the same bot worker pool. Target:
   the flood's p95 at most 1.5x the quiet p95 (the pool's fair turns: a quick table waits for
   one expert's thought at most, within its bots' pace).
2. **Reviews.** A second server whose bots play at once, on one-hand games: the review of a
   game alone, then the review of a game just finished asked after ``WAITING - 1`` reviews of
   older games from other tables (each the first of two; past ``WAITING``, the next is
   refused "busy", 503): the just-finished game goes first, behind the one under way.

    python benchmarks/fair_work.py                 # make bench-fair
    python benchmarks/fair_work.py --flood 10 --turns 20

It prints the figures and a JSON summary on its last line; exit 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_procs import Node  # noqa: E402
from game_pace import Person  # noqa: E402

from salad.server.protocol import complete_state  # noqa: E402
from salad.server.reviews import WAITING, WORLDS_ENV  # noqa: E402

ONE_HAND = 'preset = "canadian"\nhands = ["no-tricks"]\n'
TARGET = 1.5


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


async def waits(base: str, table_id: str, token: str, turns: int) -> list[float]:
    """Play seat 0 for ``turns`` turns, each card the moment it may be played; the seconds from
    each card to the next turn."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    out: list[float] = []
    async with websockets.connect(url, max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        state: dict[str, Any] | None = None
        person, played_at = Person(), None
        while len(out) < turns:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] != "state" or message["you"] != 0:
                continue
            state = complete_state(message, state)
            view = state["view"]
            if view is None:
                continue
            if view["phase"] == "over":
                break
            if await person.act(ws, state):  # its turn came: a card played
                now = time.monotonic()
                if played_at is not None:
                    out.append(now - played_at)
                played_at = now
    return out


def normal_table(base: str) -> tuple[str, str]:
    body = {"name": "You", "players": 4, "bot": "basic", "pace": "normal"}
    made = httpx.post(f"{base}/api/quickplay", json=body, timeout=30).json()
    return made["table_id"], made["token"]


def expert_table(base: str) -> None:
    """A table of expert bots that plays on its own (its host's seat played by a bot at once)."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "expert"}] * 3
    body = {"name": "Host", "seats": seats, "bot_takeover": 0, "pace": "normal"}
    made = httpx.post(f"{base}/api/tables", json=body, timeout=30).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    httpx.post(f"{base}/api/tables/{made['table_id']}/start", headers=headers, timeout=30)


def bots(directory: Path, flood: int, turns: int) -> dict[str, Any]:
    node = Node(f"sqlite:///{directory / 'bots.db'}", directory / "bots.log", bot_delay=None)
    try:
        node.ready()
        quiet = asyncio.run(waits(node.base, *normal_table(node.base), turns))
        for _ in range(flood):
            expert_table(node.base)
        time.sleep(2)  # the flood under way
        flooded = asyncio.run(waits(node.base, *normal_table(node.base), turns))
    finally:
        node.stop()
    out = {
        "quiet_p50": statistics.median(quiet),
        "quiet_p95": p95(quiet),
        "flood_p50": statistics.median(flooded),
        "flood_p95": p95(flooded),
        "flood_tables": flood,
        "turns": turns,
    }
    out["ratio_p95"] = out["flood_p95"] / out["quiet_p95"]
    out["passed"] = out["ratio_p95"] <= TARGET
    return out


def finished(base: str, games: int = 1) -> tuple[str, str]:
    """A table whose ``games`` one-hand games of bots are finished (its host's seat played by a
    bot at once): with two, its first game is no longer the one it has just finished."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
    body = {"name": "Host", "seats": seats, "bot_takeover": 0, "rules_toml": ONE_HAND}
    made = httpx.post(f"{base}/api/tables", json=body, timeout=30).json()
    table_id, token = made["table_id"], made["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for game in range(games):
        verb = "start" if game == 0 else "rematch"
        httpx.post(f"{base}/api/tables/{table_id}/{verb}", headers=headers, timeout=30)
        deadline = time.monotonic() + 60
        while True:
            lobby = httpx.get(f"{base}/api/tables/{table_id}", timeout=30).json()
            if lobby["status"] == "over" and lobby["game_number"] == game + 1:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"table {table_id} did not finish")
            time.sleep(0.05)
    return table_id, token


def review(base: str, table_id: str, token: str) -> int:
    path = f"{base}/api/tables/{table_id}/games/1/review?seat=0"
    return httpx.post(path, headers={"Authorization": f"Bearer {token}"}, timeout=30).status_code


def review_done(base: str, table_id: str, token: str) -> float:
    """Seconds until the review of the table's game (asked already) is done."""
    start = time.monotonic()
    path = f"{base}/api/tables/{table_id}/games/1/review?seat=0"
    while True:
        got = httpx.get(path, headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        if got["status"] == "done":
            return time.monotonic() - start
        if got["status"] not in ("running", "none"):
            raise SystemExit(f"review of {table_id}: {got}")
        time.sleep(0.05)


def reviews(directory: Path, worlds: int) -> dict[str, Any]:
    env_worlds = {WORLDS_ENV: str(worlds)}
    node = Node(f"sqlite:///{directory / 'reviews.db'}", directory / "reviews.log", env=env_worlds)
    try:
        node.ready()
        alone = finished(node.base)
        review(node.base, *alone)
        quiet = review_done(node.base, *alone)
        older = [finished(node.base, games=2) for _ in range(WAITING)]
        latest = finished(node.base)
        codes = [review(node.base, *t) for t in older[:-1]]  # WAITING - 1 of them
        codes.append(review(node.base, *latest))  # the WAITING-th, the game just finished
        refused = review(node.base, *older[-1])  # one past the limit
        flood = review_done(node.base, *latest)
    finally:
        node.stop()
    return {
        "review_alone_s": quiet,
        "review_under_flood_s": flood,
        "flood_accepted": codes.count(200),
        "past_the_limit": refused,
        "waiting_limit": WAITING,
        "worlds": worlds,
        "passed": refused == 503 and codes.count(200) == WAITING and flood <= 2.5 * quiet + 1,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood", type=int, default=10, help="expert tables (default 10)")
    parser.add_argument("--turns", type=int, default=16, help="turns measured each time")
    parser.add_argument("--worlds", type=int, default=400, help="review worlds (default 400)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        b = bots(directory, args.flood, args.turns)
        print(
            f"bots: a normal table's wait for its next turn, {b['turns']} turns: quiet p50 "
            f"{b['quiet_p50']:.2f} s p95 {b['quiet_p95']:.2f} s; with {b['flood_tables']} "
            f"expert tables p50 {b['flood_p50']:.2f} s p95 {b['flood_p95']:.2f} s "
            f"({b['ratio_p95']:.2f}x, target <= {TARGET}x): " + ("ok" if b["passed"] else "MISSED")
        )
        r = reviews(directory, args.worlds)
        print(
            f"reviews: alone {r['review_alone_s']:.2f} s; a just-finished game's among "
            f"{r['flood_accepted']} asked {r['review_under_flood_s']:.2f} s (target <= 2.5x "
            f"alone + 1 s); the next past {r['waiting_limit']}: {r['past_the_limit']}: "
            + ("ok" if r["passed"] else "MISSED")
        )
    summary = {"bots": b, "reviews": r, "all_passed": b["passed"] and r["passed"]}
    print(json.dumps(summary))
    sys.exit(0 if summary["all_passed"] else 1)


if __name__ == "__main__":
    main()
