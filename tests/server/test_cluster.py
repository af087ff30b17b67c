"""Many servers, one game: nodes on PostgreSQL and Redis behind HAProxy (real processes,
loopback only). Skipped where PostgreSQL, Redis or HAProxy is missing (`make test` has them)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis

from salad.engine import Game

from .cluster_clients import ask, ok, reach
from .conftest import Server, TcpProxy
from .test_play import moves_of, play_randomly, watch

ONE_HAND = 'preset = "canadian"\nhands = ["no-hearts"]\n'
HUMAN = {"kind": "human"}


def views_after(record: dict[str, Any]) -> list[Game]:
    """The game after 0, 1, 2 ... moves of the record."""
    game, moves = moves_of(record)
    out = [game.copy()]
    for move in moves:
        game.play(move)
        out.append(game.copy())
    return out


def check_states(record: dict[str, Any], socks: list[Any], seats: list[int]) -> int:
    """Every state each client got is its seat's view of the game after that many moves, in
    the game's order; the number of states checked."""
    games = views_after(record)
    checked = 0
    for sock, seat in zip(socks, seats, strict=True):
        last = -1
        for state in sock.states:
            if state["view"] is None:
                continue
            assert state["moves"] >= last, f"states out of order: {getattr(sock, 'trace', '')}"
            last = state["moves"]
            assert state["view"] == games[state["moves"]].view(seat).to_dict(), (seat, last)
            checked += 1
        assert last == len(games) - 1, "a client did not see the end"
    return checked


def table_on(nodes: list[Server], proxy: Any, seats: int, **options: Any) -> tuple[str, list[str]]:
    """A table made on the first node, each other seat joined through the next node in turn
    (through the balancer, naming it: it redirects to the holder, and the join follows)."""
    body = {"name": "Host", "rules_toml": ONE_HAND, "seats": [HUMAN] * seats, **options}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, tokens = created["table_id"], [created["token"]]
    for seat in range(1, seats):
        node = nodes[seat % len(nodes)]
        joined = ok(proxy, "POST", f"/api/tables/{table_id}/join", {"name": f"P{seat}"}, None, node)
        assert joined["seat"] == seat
        tokens.append(joined["token"])
    return table_id, tokens


def start_via(proxy: Any, table_id: str, host_token: str) -> Any:
    """The host starts the table through the balancer (any node); the answer."""
    r = ask(proxy, "POST", f"/api/tables/{table_id}/start", token=host_token)
    assert r.status_code == 200, r.text
    return r


def test_a_game_whose_seats_are_on_different_nodes(cluster: Any) -> None:
    nodes, proxy = cluster
    table_id, tokens = table_on(nodes, proxy, 4)
    start_via(proxy, table_id, tokens[0])

    async def play() -> list[Any]:
        # Each opened on a node in turn: those not holding the table redirect it there.
        socks = [await reach(nodes[seat % 3], proxy, table_id, tokens[seat]) for seat in range(3)]
        socks.append(await reach(proxy, proxy, table_id, tokens[3]))
        spectator = await reach(nodes[2], proxy, table_id, None)
        rng = random.Random(5)
        try:
            finals = await asyncio.gather(*(play_randomly(s, rng) for s in socks), watch(spectator))
        except TimeoutError:
            raise AssertionError(f"stalled: {where([*socks, spectator])}") from None
        assert len({str(f["view"]["totals"]) for f in finals}) == 1
        return [*socks, spectator]

    socks = asyncio.run(play())
    assert [len(s.redirects) for s in socks[:3]] == [0, 1, 1]  # node0 holds it
    record = ask(proxy, "GET", f"/api/tables/{table_id}/record").json()
    assert len(record["players"]) == 4
    checked = check_states(record, socks, [0, 1, 2, 3, -1])
    assert checked > 5 * 52
    # Every node answers for the table the same: the holder itself, the others by a redirect
    # to it (asked directly, a node that does not hold the table names its holder).
    lobbies = [ok(proxy, "GET", f"/api/tables/{table_id}", node=n) for n in nodes]
    assert all(lobby == lobbies[0] for lobby in lobbies)
    for n in nodes[1:]:
        moved = n.http.get(f"/api/tables/{table_id}")
        assert moved.status_code == 307 and moved.json()["node"] == "node0"
        assert moved.headers["location"] == f"/api/tables/{table_id}?node=node0"
    assert lobbies[0]["status"] == "over"


def where(socks: list[Any]) -> list[Any]:
    """Each socket's last state, in short: to tell a lost move from a lost broadcast."""
    out = []
    for sock in socks:
        m = sock.state or {}
        view = m.get("view") or {}
        out.append((sock.name, m.get("moves"), view.get("phase"), view.get("to_move")))
    return out


def holder(nodes: list[Server]) -> list[int]:
    """Which nodes hold a table in memory."""
    return [i for i, n in enumerate(nodes) if n.ok("GET", "/healthz")["tables_in_memory"]]


async def play_on(
    first: Any, proxy: Any, table_id: str, token: str, seed: int, log: dict[str, Any]
) -> list[Any]:
    """Play a seat randomly to the end, reconnecting through the balancer whenever the
    connection closes (as the web client does); every socket used, in order."""
    rng = random.Random(seed)
    socks = [await reach(first, proxy, table_id, token)]
    log.setdefault("socks", {})[seed] = socks  # the test may look while the game goes on
    sent_for = -1
    deadline = asyncio.get_running_loop().time() + 120
    while True:
        assert asyncio.get_running_loop().time() < deadline, "the game did not end in 120 s"
        sock = socks[-1]
        try:
            m = await sock.recv(30)
        except Exception:  # closed: the node went away
            log.setdefault("closed_at", asyncio.get_running_loop().time())
            while True:
                assert asyncio.get_running_loop().time() < deadline, "no reconnection in 120 s"
                try:
                    socks.append(await reach(proxy, proxy, table_id, token))
                    sent_for = -1  # a move sent to a node that died may be lost: send again
                    break
                except Exception:
                    await asyncio.sleep(0.2)
            continue
        if m["type"] != "state" or m["view"] is None:
            continue
        view = m["view"]
        if view["phase"] == "over":
            return socks
        if log.get("killed") and "resumed" not in log and m["moves"] > log["killed"]:
            log["resumed"] = asyncio.get_running_loop().time()
        if view["to_move"] == m["you"] and view["legal"] and m["moves"] != sent_for:
            sent_for = m["moves"]
            with contextlib.suppress(Exception):  # closed meanwhile: the next recv reconnects
                await sock.send({"type": "play", "move": rng.choice(view["legal"])})


PASSING = 'preset = "canadian"\nhands = ["no-hearts"]\npassing = 3\n'


MOMENTS: dict[str, Any] = {
    # A seat has passed, others not yet.
    "mid-pass": lambda v, m: v["phase"] == "pass" and m["moves"] >= 1,
    # The second card of a trick (not the first) is on the table.
    "mid-trick": lambda v, m: v["phase"] == "play" and len(v["trick"]) == 1 and v["tricks"],
    # A trick was just won; the next has no card yet.
    "after-trick": lambda v, m: v["phase"] == "play" and not v["trick"] and v["tricks"],
}


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_a_table_survives_losing_its_node(start_cluster: Any, moment: str) -> None:
    """kill -9 of the table's node (mid-pass, mid-trick, right after a trick), with a human on
    it and one on another node and two bots: the clients reconnect through the balancer,
    another node takes the table over from the database, and the game ends with every move
    every client saw."""
    nodes, proxy = start_cluster(3, bot_delay=0.05)
    body = {
        "name": "Host",
        "rules_toml": PASSING,
        "seats": [HUMAN, {"kind": "bot"}, HUMAN, {"kind": "bot"}],
    }
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host = created["table_id"], created["token"]
    guest = ok(proxy, "POST", f"/api/tables/{table_id}/join", {"name": "Guest"}, None, nodes[1])
    ok(proxy, "POST", f"/api/tables/{table_id}/start", None, host, nodes[1])
    guest = guest["token"]
    assert holder(nodes) == [0]
    log: dict[str, Any] = {}

    async def run() -> list[list[Any]]:
        a = asyncio.ensure_future(play_on(nodes[0], proxy, table_id, host, 1, log))
        b = asyncio.ensure_future(play_on(nodes[1], proxy, table_id, guest, 2, log))
        spectator = await reach(nodes[2], proxy, table_id, None)
        at = MOMENTS[moment]
        state = await spectator.until(lambda m: bool(at(m["view"], m)), timeout=60)
        nodes[0].kill()
        log["killed"] = state["moves"]
        log["killed_at"] = asyncio.get_running_loop().time()
        return list(await asyncio.gather(a, b))

    socks_a, socks_b = asyncio.run(run())
    assert len(socks_a) > 1 and len(socks_b) > 1  # both reconnected
    stall = log["resumed"] - log["killed_at"]
    assert stall < 8, f"stalled {stall:.1f} s"
    record = through(proxy, f"/api/tables/{table_id}/record")
    check_states(record, [_joined(socks_a), _joined(socks_b)], [0, 2])
    assert len(holder(nodes[1:])) == 1


def test_a_killed_nodes_tables_are_taken_before_its_leases_lapse(
    start_cluster: Any, redis_server: Any
) -> None:
    """A node killed leaves its channel at once: the other nodes take its tables
    then (within a few of their looks), not when its leases lapse. Here the dead node's lease
    and liveness are made to last a minute after the kill; the table is taken over anyway,
    with no client asking for it, and its bots play on from where it was."""
    nodes, proxy = start_cluster(3, bot_delay=0.05)
    body = {"name": "Host", "rules_toml": ONE_HAND, "seats": [HUMAN, BOT, BOT, BOT]}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host = created["table_id"], created["token"]
    nodes[0].ok("POST", f"/api/tables/{table_id}/start", token=host)
    assert holder(nodes) == [0]
    dead = nodes[0].ok("GET", "/healthz")["node"]
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        nodes[0].kill()
        for key in (f"salad:lease:{table_id}", f"salad:alive:{dead}"):
            assert store.pexpire(key, 60_000), key
        start = time.monotonic()
        while not holder(nodes[1:]) and time.monotonic() - start < 20:
            time.sleep(0.1)
        took = time.monotonic() - start
        taken = holder(nodes[1:])
        assert len(taken) == 1, f"not taken over in {took:.1f} s"
        owner = store.get(f"salad:lease:{table_id}")
        assert owner == nodes[1 + taken[0]].ok("GET", "/healthz")["node"]
    finally:
        store.close()
    assert took < 10, f"taken over after {took:.1f} s, as if the lease had to lapse"

    async def play() -> None:  # the host plays on; the bots answer on the new holder
        sock = await reach(proxy, proxy, table_id, host)
        await play_randomly(sock, random.Random(6))
        await sock.ws.close()

    asyncio.run(play())
    record = through(proxy, f"/api/tables/{table_id}/record")
    assert len(record["hands"]) == 1 and record["hands"][0]["tricks"]


def test_a_turn_timer_runs_on_after_its_node_dies(start_cluster: Any) -> None:
    """kill -9 of the node that holds a table with a turn timer, its one human connected
    through another node and never playing: the node that takes the table over runs the timer
    on (it shows a deadline, and on expiry a bot moves for the seat), so the game ends with
    every one of that seat's moves, before the kill and after, played by the timer."""
    timer = 0.5
    nodes, proxy = start_cluster(3, bot_delay=0.05)
    body = {"name": "Host", "rules_toml": ONE_HAND, "seats": [HUMAN, BOT, BOT, BOT]}
    created = nodes[0].ok("POST", "/api/tables", {**body, "turn_timer": timer})
    table_id, host = created["table_id"], created["token"]
    nodes[0].ok("POST", f"/api/tables/{table_id}/start", token=host)
    assert holder(nodes) == [0]

    def hosts_turn(m: dict[str, Any]) -> bool:
        view = m["view"]
        return view is not None and view["phase"] == "play" and view["to_move"] == 0

    async def watch_idle() -> tuple[int, list[float], dict[str, Any]]:
        """The moves when the node died, the host's deadlines seen after, the final state."""
        sock = await reach(nodes[1], proxy, table_id, host)
        await sock.until(lambda m: hosts_turn(m) and m["moves"] >= 8, timeout=60)
        nodes[0].kill()
        killed = sock.state["moves"] if sock.state else 0
        deadlines: list[float] = []
        end = asyncio.get_running_loop().time() + 45
        while asyncio.get_running_loop().time() < end:
            try:
                m = await sock.recv(30)
            except Exception:  # the dead node's websocket closed: reconnect, as a client does
                await asyncio.sleep(0.2)
                with contextlib.suppress(Exception):
                    sock = await reach(proxy, proxy, table_id, host)
                continue
            if m["type"] != "state" or m["view"] is None:
                continue
            if m["view"]["phase"] == "over":
                return killed, deadlines, m
            if hosts_turn(m) and m["moves"] > killed:
                assert m["deadline"] is not None, "no turn timer on the node that took over"
                deadlines.append(m["deadline"] - time.time())
        raise AssertionError(f"the game did not end within 45 s of the kill ({killed} moves)")

    killed, deadlines, final = asyncio.run(watch_idle())
    assert len(holder(nodes[1:])) == 1
    # The timer ran for the host's turns after the takeover, each half a second at most.
    assert deadlines and all(d <= timer + 0.5 for d in deadlines), deadlines
    record = through(proxy, f"/api/tables/{table_id}/record")
    game, moves = moves_of(record)
    seats = []
    for move in moves:
        seats.append(game.to_move)
        game.play(move)
    assert game.is_over() and final["moves"] == len(moves)
    assert seats[killed:].count(0) >= 3, "the host's seat did not move after the takeover"


def _joined(socks: list[Any]) -> Any:
    """One socket's worth of states from several connections, in order."""

    class Joined:
        states = [s for sock in socks for s in sock.states]
        trace = [(sock.name, [s["moves"] for s in sock.states]) for sock in socks]

    return Joined


def test_a_node_that_comes_back_disturbs_no_running_table(start_cluster: Any) -> None:
    """kill -9 of a node, then the same node started again (same port and name: a restart
    after a crash) while two games go on: one it held (taken over by another node when it
    died) and one another node held all along. Back in the balancer, it takes neither table:
    no client of the second game is ever disconnected, none of the first game's reconnects
    once the node is back, and both games end with every state checked."""
    # Bots slow enough that both games outlast the node's return (a game is about 26 bot moves
    # long: 13 tricks of two bot cards, the bots' passes chosen at once, #33).
    nodes, proxy = start_cluster(3, bot_delay=0.6)
    a_id, a_host, a_guest = two_humans_two_bots(nodes, proxy)  # made on node0, guest via node1
    b_id, b_host, b_guest = two_humans_two_bots(nodes[1:], proxy)  # node1's, guest via node2
    assert holder(nodes) == [0, 1]
    a_log: dict[str, Any] = {}
    b_log: dict[str, Any] = {}
    back: list[Server] = []

    async def run() -> tuple[dict[str, int], list[list[Any]]]:
        games = [
            play_on(nodes[0], proxy, a_id, a_host, 1, a_log),
            play_on(nodes[1], proxy, a_id, a_guest, 2, a_log),
            play_on(nodes[1], proxy, b_id, b_host, 3, b_log),
            play_on(nodes[2], proxy, b_id, b_guest, 4, b_log),
        ]
        tasks = [asyncio.ensure_future(g) for g in games]
        spectator = await reach(nodes[2], proxy, a_id, None)
        await spectator.until(lambda m: m["moves"] >= 10, timeout=60)
        nodes[0].kill()
        await asyncio.sleep(1.0)
        back.append(await asyncio.to_thread(nodes[0].again))
        # In the balancer again (checked every 0.5 s), and past a few of its looks for
        # tables to adopt (every second).
        await asyncio.sleep(3.0)
        assert not any(t.done() for t in tasks), "a game ended before the node was back"
        sockets = {
            f"{game}{seed}": len(socks)
            for game, log in (("a", a_log), ("b", b_log))
            for seed, socks in log["socks"].items()
        }
        return sockets, list(await asyncio.gather(*tasks))

    try:
        when_back, (a_host_socks, a_guest_socks, b_host_socks, b_guest_socks) = asyncio.run(run())
        # The second game's clients kept their first connection from start to end.
        assert len(b_host_socks) == len(b_guest_socks) == 1
        # The first game's reconnected when its node died, and not again once it was back.
        ended = {"a1": a_host_socks, "a2": a_guest_socks, "b3": b_host_socks, "b4": b_guest_socks}
        assert {k: len(v) for k, v in ended.items()} == when_back
        assert len(a_host_socks) >= 2
        # The node that came back holds neither table.
        assert back[0].ok("GET", "/healthz")["tables_in_memory"] == 0
        for table_id, socks in (
            (a_id, (a_host_socks, a_guest_socks)),
            (b_id, (b_host_socks, b_guest_socks)),
        ):
            record = through(proxy, f"/api/tables/{table_id}/record")
            check_states(record, [_joined(list(s)) for s in socks], [0, 2])
    finally:
        for srv in back:
            srv.stop()


def two_humans_two_bots(nodes: list[Server], proxy: Any) -> tuple[str, str, str]:
    """A table made on the first node, its guest joined and the game started through the
    second (which redirects both to the first)."""
    body = {"name": "Host", "rules_toml": PASSING, "seats": [HUMAN, BOT, HUMAN, BOT]}
    created = nodes[0].ok("POST", "/api/tables", body)
    table_id, host = created["table_id"], created["token"]
    path = f"/api/tables/{table_id}"
    guest = ok(proxy, "POST", f"{path}/join", {"name": "Guest"}, None, nodes[1])["token"]
    ok(proxy, "POST", f"{path}/start", None, host, nodes[1])
    return table_id, host, guest


BOT = {"kind": "bot"}


def play_through_an_outage(
    nodes: list[Server], proxy: Any, cut: Any, restore: Any, seconds: float
) -> dict[str, Any]:
    """Play a game with a human on the table's node and one on another, cut something off for
    ``seconds`` a few moves in, restore it, and play to the end; checks every state."""
    table_id, host, guest = two_humans_two_bots(nodes, proxy)
    log: dict[str, Any] = {}

    async def run() -> list[list[Any]]:
        a = asyncio.ensure_future(play_on(nodes[0], proxy, table_id, host, 1, log))
        b = asyncio.ensure_future(play_on(nodes[1], proxy, table_id, guest, 2, log))
        spectator = await reach(nodes[0], proxy, table_id, None)
        await spectator.until(lambda m: m["moves"] >= 10, timeout=60)
        cut()
        await asyncio.sleep(seconds)
        restore()
        return list(await asyncio.gather(a, b))

    socks_a, socks_b = asyncio.run(run())
    record = through(proxy, f"/api/tables/{table_id}/record")
    check_states(record, [_joined(socks_a), _joined(socks_b)], [0, 2])
    return record


def through(proxy: Any, path: str, seconds: float = 15) -> Any:
    """GET through the balancer, once its health checks have let a node back in."""
    deadline = time.monotonic() + seconds
    while True:
        r = ask(proxy, "GET", path)
        if r.status_code == 200 or time.monotonic() > deadline:
            assert r.status_code == 200, r.text
            return r.json()
        time.sleep(0.2)


def test_redis_restarted_mid_game(start_cluster: Any, redis_server: Any) -> None:
    """Redis goes away (its leases and channels with it) and comes back empty: the nodes take
    their tables back, clients reconnect, and the game ends with nothing lost."""
    nodes, proxy = start_cluster(3, bot_delay=0.05)
    record = play_through_an_outage(nodes, proxy, redis_server.stop, redis_server.start, 2.0)
    assert record["players"][1].get("bot")


@pytest.mark.parametrize("frozen", [pytest.param(0, id="holder"), pytest.param(1, id="other")])
def test_a_node_frozen_for_a_while(start_cluster: Any, frozen: int) -> None:
    """A node stops for 5 s (SIGSTOP: starved, swapped out, paused) and goes on: the others
    take it for gone meanwhile. Whether it held the table (another node takes it over; the
    frozen one drops its stale copy when it wakes) or only redirected a client to the holder
    (the client plays on with the holder, the frozen node out of its way), every client
    plays on or reconnects and the game ends with every state checked."""
    nodes, proxy = start_cluster(3, bot_delay=0.05)
    pid = nodes[frozen].proc.pid
    record = play_through_an_outage(
        nodes, proxy, lambda: os.kill(pid, signal.SIGSTOP), lambda: os.kill(pid, signal.SIGCONT), 5
    )
    assert record["players"][1].get("bot")


def test_postgresql_briefly_unreachable(start_cluster: Any, pg_url: str, tmp_path: Any) -> None:
    """The database is cut off for a moment: moves that cannot be stored are refused (503),
    bots retry, and play resumes when it is back, with nothing lost."""
    target = urlsplit(pg_url)
    assert target.port is not None
    cut = TcpProxy(target.port, tmp_path)
    via = pg_url.replace(f":{target.port}/", f":{cut.port}/")
    nodes, proxy = start_cluster(3, bot_delay=0.05, database=via)
    health: list[int] = []

    def off() -> None:
        cut.stop()
        health.append(nodes[0].http.get("/healthz").status_code)

    try:
        play_through_an_outage(nodes, proxy, off, cut.start, 2.0)
    finally:
        cut.stop()
    assert health == [503]
