"""Kill -9 a real server mid-game, start another on the same database: every table resumes
exactly, clients reconnect with their tokens, and the games finish."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

import pytest

from salad.formats.records import verify_record

HUMAN = {"kind": "human"}
RANDOM = {"kind": "bot", "bot": "random"}


def public_table(table: dict[str, Any]) -> dict[str, Any]:
    """The lobby without who is connected right now."""
    out = dict(table)
    out["seats"] = [
        {k: v for k, v in s.items() if k not in ("connected", "takeover")} for s in table["seats"]
    ]
    return out


def same_state(before: dict[str, Any], after: dict[str, Any]) -> None:
    for key in ("you", "view", "moves", "last_trick", "hand_rounds", "winners"):
        assert after[key] == before[key], key
    assert public_table(after["table"]) == public_table(before["table"])


def proc_stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name: state, parent, ... (field 3 on,
    so ``[0]`` is the state, ``[1]`` the parent, ``[11]``/``[12]`` the user/system ticks).
    OSError when there is no such process."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(proc_stat(int(entry.name))[1])
            except OSError:
                continue
            if parent == pid:
                found.append(int(entry.name))
    return found


def wait_gone(pids: list[int], seconds: float = 10) -> None:
    """Wait until none of ``pids`` runs any more (a zombie counts as gone)."""
    deadline = time.monotonic() + seconds
    for pid in pids:
        while True:
            try:
                state = proc_stat(pid)[0]
            except OSError:
                break
            if state == "Z":
                break
            assert time.monotonic() < deadline, f"process {pid} still runs"
            time.sleep(0.05)


async def play_until(socks: dict[int, Any], moves: int, rng: random.Random) -> dict[int, Any]:
    """Humans play random legal moves until at least ``moves`` moves are made and a human is
    to move in the middle of a trick; every human's latest state, all at the same move."""
    any_sock = next(iter(socks.values()))
    sent_for = -1
    while True:
        state = await any_sock.until(
            lambda m: (
                m["view"] is not None and (m["view"]["to_move"] in socks or bool(m.get("hand_end")))
            )
        )
        end = state.get("hand_end")
        if end and end["waiting"]:  # a hand's summary: everyone presses Next hand
            for s in end["waiting"]:
                await socks[s].send({"type": "next"})
            await any_sock.until(lambda m: not m.get("hand_end"))
            continue
        if state["view"]["to_move"] not in socks:
            await any_sock.until(lambda m, k=state["moves"]: m["moves"] > k)
            continue
        k = state["moves"]
        mover = state["view"]["to_move"]
        own = await socks[mover].until(lambda m, k=k: m["moves"] == k)
        if k >= moves and own["view"]["trick"]:
            return {
                s: await sock.until(lambda m, k=k: m["moves"] == k) for s, sock in socks.items()
            }
        if k != sent_for:
            sent_for = k
            await socks[mover].send({"type": "play", "move": rng.choice(own["view"]["legal"])})
        await any_sock.until(lambda m, k=k: m["moves"] > k)


async def finish(socks: dict[int, Any], rng: random.Random) -> dict[str, Any]:
    """Humans play on from their latest state to the end of the game."""

    async def one(sock: Any) -> dict[str, Any]:
        sent_for = -1
        nexted = -1
        m = sock.state
        while True:
            if m is not None and m["type"] == "state":
                view = m["view"]
                if view["phase"] == "over":
                    return dict(m)
                end = m.get("hand_end")
                if end and m["you"] in end["waiting"] and end["hand"] != nexted:
                    nexted = end["hand"]
                    await sock.send({"type": "next"})
                if end and end["waiting"]:  # a hand's summary is up: no move is taken
                    pass
                elif view["to_move"] == m["you"] and view["legal"] and m["moves"] != sent_for:
                    sent_for = m["moves"]
                    await sock.send({"type": "play", "move": rng.choice(view["legal"])})
            m = await sock.recv()

    finals = await asyncio.gather(*(one(s) for s in socks.values()))
    return finals[0]


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_and_restart(backend: str, request: Any, start_server: Any, ws: Any) -> None:
    """SIGKILL mid-game; a new server carries on from the database."""
    database = request.getfixturevalue("pg_url") if backend == "postgresql" else None
    srv = start_server(database)
    # A: two humans and two bots, canadian. B: Skip the Salad with passing and trumps, one
    # human and two bots. C: nobody ever connects, bots take over at once: its game goes
    # on by itself while the server is killed.
    a_id, a_tok = srv.table([HUMAN, RANDOM, HUMAN, RANDOM], seed=21)
    b_id, b_tok = srv.table(
        [HUMAN, RANDOM, RANDOM],
        rules="skip-the-salad",
        toppings=["pass-the-veggies", "spicy-pepper"],
        seed=22,
    )
    c_id, _ = srv.table([HUMAN, RANDOM, RANDOM, RANDOM], bot_takeover=0, seed=23)

    async def before() -> tuple[dict[int, Any], dict[int, Any], int]:
        a = {0: await ws(srv, a_id, a_tok[0]), 2: await ws(srv, a_id, a_tok[2])}
        b = {0: await ws(srv, b_id, b_tok[0])}
        a_states = await play_until(a, 90, random.Random(1))
        b_states = await play_until(b, 40, random.Random(2))
        # C is being played by bots; wait until it is well under way.
        c = await ws(srv, c_id, None)
        seen = await c.until(lambda m: m["moves"] >= 20)
        return a_states, b_states, seen["moves"]

    a_states, b_states, c_seen = asyncio.run(before())
    assert b_states[0]["view"]["trump"] is not None  # after the first hand's trump
    srv.kill()
    srv2 = start_server(database or srv.database)

    async def after() -> dict[str, Any]:
        a = {0: await ws(srv2, a_id, a_tok[0]), 2: await ws(srv2, a_id, a_tok[2])}
        b = {0: await ws(srv2, b_id, b_tok[0])}
        for seat, sock in a.items():
            same_state(a_states[seat], await sock.recv())
        same_state(b_states[0], await b[0].recv())
        # C goes on by itself after the restart and finishes.
        c = await ws(srv2, c_id, None)
        first = await c.recv()
        # Nothing a client saw is lost (stored before broadcast), and the bots play on: the new
        # server resumes C as it starts, so its bots may have finished it by now (no delay).
        assert first["table"]["status"] in ("playing", "over") and first["moves"] >= c_seen
        results = await asyncio.gather(
            finish(a, random.Random(3)),
            finish(b, random.Random(4)),
            c.until(lambda m: m["view"]["phase"] == "over", timeout=60),
        )
        return {"a": results[0], "b": results[1], "c": results[2]}

    finals = asyncio.run(after())
    for table_id, final in ((a_id, finals["a"]), (b_id, finals["b"]), (c_id, finals["c"])):
        record = srv2.ok("GET", f"/api/tables/{table_id}/record")
        assert verify_record(record) == final["view"]["totals"]
        assert srv2.ok("GET", f"/api/tables/{table_id}")["status"] == "over"


def test_restart_keeps_lobby_and_finished_games(start_server: Any) -> None:
    srv = start_server()
    created = srv.ok("POST", "/api/tables", {"name": "Host", "players": 4, "turn_timer": 30})
    tid, host = created["table_id"], created["token"]
    guest = srv.ok("POST", f"/api/tables/{tid}/join", {"name": "Guest"})
    lobby = srv.ok("GET", f"/api/tables/{tid}")
    srv.kill()
    srv2 = start_server(srv.database)
    assert public_table(srv2.ok("GET", f"/api/tables/{tid}")) == public_table(lobby)
    # The tokens still work: the host fills the seats and starts, the guest's seat is its own.
    for seat in (2, 3):
        srv2.ok("PUT", f"/api/tables/{tid}/seats/{seat}", {"kind": "bot"}, token=host)
    assert srv2.post(f"/api/tables/{tid}/start", token=guest["token"]).status_code == 403
    started = time.monotonic()
    srv2.ok("POST", f"/api/tables/{tid}/start", token=host)
    assert time.monotonic() - started < 10
