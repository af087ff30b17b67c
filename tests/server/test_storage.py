"""The SQL store on SQLite (always) and PostgreSQL (when scripts/postgres.sh provides one): the
same test functions, parametrized by backend."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.exc import IntegrityError

import salad.server.store.connections as connections_module
from salad.engine import Game
from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.server.store import (
    MoveRow,
    SeatRow,
    SqlStore,
    StaleCopy,
    StoreTimeout,
    TableRow,
    check_database,
    database_url,
    hash_token,
)
from salad.server.store.statements import Moves, batch, fenced_moves
from salad.server.store.statements import Op as StoreOp
from salad.server.store.statements import set_status as status_statement

from .conftest import TcpProxy

T = TypeVar("T")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: Any, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:///{tmp_path / 'salad.db'}"


def with_store(url: str, body: Callable[[SqlStore], Awaitable[T]], **kwargs: Any) -> T:
    """``body(store)`` on an opened store of ``url``, closed afterwards."""

    async def run() -> T:
        store = SqlStore(url, **kwargs)
        await store.open()
        try:
            return await body(store)
        finally:
            await store.close()

    return asyncio.run(run())


@contextlib.contextmanager
def raw(url: str) -> Iterator[Engine]:
    """A synchronous engine on the database (for looking at it from outside the store)."""
    engine = create_engine(database_url(url))
    try:
        yield engine
    finally:
        engine.dispose()


def table_row(table_id: str = "t1", players: int = 4) -> TableRow:
    seats = [SeatRow(0, "human", "Alice", None, hash_token("secret-0"))]
    seats += [SeatRow(i, "bot", f"Bot {i}", "random") for i in range(1, players - 1)]
    seats += [SeatRow(players - 1, "open")]
    return TableRow(
        id=table_id,
        preset="skip-the-salad",
        settings={"toppings": ["cornucopia"], "swap": {"2": "no-kings"}},
        players=players,
        turn_timer=30.0,
        bot_takeover=None,
        status="lobby",
        game_number=1,
        seed=2**63 - 1,
        seats=seats,
    )


def set_status(store: SqlStore, table_id: str, status: str) -> Awaitable[Any]:
    """A set-up: the table's status, set in a batch by the store's own statement."""
    return store.commit.call(StoreOp(fn=lambda conn: status_statement(conn, table_id, status, 1)))


async def add_moves(store: SqlStore, moves: Moves) -> None:
    """A batch of moves alone (none ending its game), run as the group commit runs a batch
    (on PostgreSQL: one statement), without its fall-back of one call at a time."""
    done = store.commit.run_batch([StoreOp(move=(t, g, m, None, e)) for t, g, m, e in moves])
    if isinstance(done, Awaitable):
        await done


def test_database_urls(tmp_path: Path) -> None:
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url(str(tmp_path / "a.db")) == f"sqlite:///{tmp_path / 'a.db'}"
    assert database_url(None).startswith("sqlite:///") and database_url(None).endswith("salad.db")


def test_tables_and_seats(url: str) -> None:
    async def body(store: SqlStore) -> None:
        row = table_row()
        await store.create_table(row)
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert (loaded.preset, loaded.settings, loaded.players) == (row.preset, row.settings, 4)
        assert (loaded.turn_timer, loaded.bot_takeover, loaded.seed) == (30.0, None, 2**63 - 1)
        assert loaded.seats == row.seats
        assert await store.load_table("nope") is None
        # The token itself is never stored, only its hash.
        with raw(url) as engine, engine.connect() as conn:
            dump = str(conn.execute(text("SELECT * FROM salad_seats")).fetchall())
        assert "secret-0" not in dump and hash_token("secret-0") in dump

        seats = [s for s in row.seats if s.seat != 1]
        for i, s in enumerate(seats):
            s.seat = i
        await store.save_seats("t1", seats)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.players == 3
        assert [s.kind for s in loaded.seats] == ["human", "bot", "open"]
        assert await store.active_tables() == []

    with_store(url, body)


def test_a_tables_pace_is_stored_and_changed_fenced(url: str) -> None:
    """Issue #33: the host's pace is stored with the table; a change from a stale copy is
    refused like a move."""

    async def body(store: SqlStore) -> None:
        row = table_row()
        row.pace = "fast"
        await store.create_table(row)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.pace == "fast"
        old = await store.fence("t1")
        new = await store.fence("t1")
        with pytest.raises(StaleCopy):
            await store.set_pace("t1", "slow", epoch=old)
        await store.set_pace("t1", "slow", epoch=new)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.pace == "slow"

    with_store(url, body)


def test_games_moves_and_resume(url: str) -> None:
    """A game stored move by move rebuilds exactly from its seed and moves."""

    async def body(store: SqlStore) -> None:
        row = table_row(players=4)
        await store.create_table(row)
        rs = load_ruleset(row.preset, row.settings)
        game = Game(rs, 4, seed=row.seed)
        players = [{"name": s.name or f"Seat {s.seat}"} for s in row.seats]
        await store.start_game("t1", 1, row.seed or 0, players)
        assert await store.active_tables() == ["t1"]
        rng = random.Random(1)
        seq = 0
        while not game.is_over():
            seat = game.to_move
            move = rng.choice(game.legal_moves())
            game.play(move)
            seq += 1
            over = (list(game.totals), game.winners()) if game.is_over() else None
            await store.add_move("t1", 1, MoveRow(seq, seat, move, game.format_move(move)), over)
            if seq == 50:
                half = Game(rs, 4, seed=row.seed)
                for m in await store.moves("t1", 1):
                    half.play(m.move)
                assert half.log == game.log
        table = await store.load_table("t1")
        assert table is not None and table.status == "over" and table.game_number == 1
        games = await store.games("t1")
        assert len(games) == 1
        assert games[0].totals == game.totals and games[0].winners == game.winners()
        assert games[0].players == players and games[0].seed == row.seed
        moves = await store.moves("t1", 1)
        assert [m.seq for m in moves] == list(range(1, seq + 1))
        again = Game(rs, 4, seed=row.seed)
        for m in moves:
            assert again.format_move(m.move) == m.code
            again.play(m.move)
        assert again.log == game.log and again.totals == game.totals
        assert await store.active_tables() == []

    with_store(url, body)


def test_group_commit_commits_in_order_and_isolates_failures(url: str) -> None:
    async def body(store: SqlStore) -> list[Any]:
        await store.create_table(table_row())
        await store.start_game("t1", 1, 5, [])
        calls: list[Awaitable[Any]] = [
            store.add_move("t1", 1, MoveRow(i, 0, i, f"C{i}"), None) for i in range(1, 201)
        ]
        calls.append(store.add_move("t1", 1, MoveRow(7, 0, 7, "dup"), None))
        calls.append(set_status(store, "t1", "over"))
        calls.append(store.load_table("t1"))
        results = await asyncio.gather(*calls, return_exceptions=True)
        moves = await store.moves("t1", 1)
        assert [m.seq for m in moves] == list(range(1, 201))
        assert moves[6].code == "C7"
        return results

    results = with_store(url, body)
    assert results[:200] == [None] * 200
    assert isinstance(results[200], Exception)  # the duplicate move, alone
    assert results[201] is None
    loaded = results[202]
    assert loaded is not None and loaded.status == "over"


def test_sqlite_batches_run_on_the_event_loop_one_commit_a_turn(tmp_path: Path) -> None:
    """SQLite: the store's calls run on the event loop itself, with no thread of a driver's
    (handing each call of the driver to a thread and back cost more than the call), and the
    calls of one turn of the event loop are one transaction."""
    commits: list[int] = []
    before = set(threading.enumerate())

    async def body(store: SqlStore) -> None:
        event.listen(store.sync_engine, "commit", lambda conn: commits.append(1))
        await store.create_table(table_row())
        await store.start_game("t1", 1, 5, [])
        commits.clear()
        moves = [store.add_move("t1", 1, MoveRow(i, 0, i, "C")) for i in range(1, 21)]
        await asyncio.gather(*moves, set_status(store, "t1", "playing"))
        assert len(commits) == 1
        assert [m.seq for m in await store.moves("t1", 1)] == list(range(1, 21))
        assert await store.table_exists("t1") and await store.active_tables() == ["t1"]
        assert set(threading.enumerate()) <= before

    with_store(f"sqlite:///{tmp_path / 'salad.db'}", body)


def test_the_store_keeps_one_connection_until_a_call_fails(url: str) -> None:
    """Batch after batch on one connection (taking one from the pool and giving it back costs
    as much as a batch of moves on SQLite); a failed call lets it go, and the store carries on
    with a new one."""
    opened: list[object] = []

    kept = 2 if url.startswith("postgresql") else 1  # PostgreSQL: one for moves, autocommit

    async def body(store: SqlStore) -> list[Any]:
        event.listen(store.sync_engine, "checkout", lambda conn, *_: opened.append(conn))
        await store.create_table(table_row())
        await store.start_game("t1", 1, 5, [])
        results = []
        for i in range(1, 11):  # ten batches, one move each
            results.append(await store.add_move("t1", 1, MoveRow(i, 0, i, "C")))
        assert len(opened) == kept
        with pytest.raises(IntegrityError):  # move 3 is stored already
            await store.add_move("t1", 1, MoveRow(3, 0, 3, "dup"))
        results.append(await store.add_move("t1", 1, MoveRow(11, 0, 1, "C")))
        assert [m.seq for m in await store.moves("t1", 1)] == list(range(1, 12))
        return results

    assert with_store(url, body) == [None] * 11
    assert len(opened) >= 3  # the failed batch's, and a new one after the failure


async def _first_move(store: SqlStore) -> tuple[Game, MoveRow]:
    row = table_row(players=4)
    await store.create_table(row)
    players = [{"name": s.name or f"Seat {s.seat}"} for s in row.seats]
    await store.start_game("t1", 1, row.seed or 0, players)
    game = Game(load_ruleset(row.preset, row.settings), 4, seed=row.seed)
    move = game.legal_moves()[0]
    return game, MoveRow(1, game.to_move, move, game.format_move(move))


def test_a_move_from_a_copy_loaded_before_another_is_refused(url: str) -> None:
    """Fencing (a cluster node frozen past its lease): each load raises the table's epoch, and
    a move stored with an older epoch is refused, stored nothing."""

    async def body(store: SqlStore) -> None:
        _, move = await _first_move(store)
        old = await store.fence("t1")
        new = await store.fence("t1")
        assert new == old + 1
        with pytest.raises(StaleCopy):
            await store.add_move("t1", 1, move, None, old)
        assert await store.moves("t1", 1) == []
        await store.add_move("t1", 1, move, None, new)
        assert [m.seq for m in await store.moves("t1", 1)] == [1]
        # A made-up table id writes nothing (a request for it must not fill the database).
        assert await store.fence("nope") == 0
        with raw(url) as engine, engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM salad_fences")).scalar() == 1

    with_store(url, body)


def test_the_group_commit_fences_moves_too(url: str) -> None:
    """Moves stored together (the server's way, a batch per turn of the event loop) are fenced
    like one alone: one from a stale copy is refused alone, and the others of its batch are
    stored."""

    async def body(store: SqlStore) -> list[Any]:
        game, first = await _first_move(store)
        stale = await store.fence("t1")
        fresh = await store.fence("t1")
        game.play(first.move)
        second = game.legal_moves()[0]
        row2 = MoveRow(2, game.to_move, second, game.format_move(second))
        results = await asyncio.gather(
            store.add_move("t1", 1, first, None, fresh),
            store.add_move("t1", 1, row2, None, stale),
            return_exceptions=True,
        )
        assert [m.seq for m in await store.moves("t1", 1)] == [1]
        return results

    results = with_store(url, body)
    assert results[0] is None and isinstance(results[1], StaleCopy), results


def test_a_batch_of_moves_is_stored_whole_or_not_at_all(url: str) -> None:
    """A batch of moves (one statement on PostgreSQL): moves of several tables,
    each fenced; one table loaded elsewhere since its copy was, and nothing of the batch is
    stored; a duplicate move, the same; else all of them are."""

    async def body(store: SqlStore) -> None:
        await store.create_table(table_row("t1"))
        await store.create_table(table_row("t2"))
        await store.start_game("t1", 1, 5, [])
        await store.start_game("t2", 1, 6, [])
        e1, e2 = await store.fence("t1"), await store.fence("t2")

        def moves(epoch2: int, first: int = 1) -> Moves:
            return [
                ("t1", 1, MoveRow(first, 0, 3, "C"), e1),
                ("t2", 1, MoveRow(first, 1, 4, "D"), epoch2),
                ("t1", 1, MoveRow(first + 1, 1, 5, "E"), e1),
            ]

        async def stored(table_id: str) -> list[int]:
            return [m.seq for m in await store.moves(table_id, 1)]

        with pytest.raises(StaleCopy, match="t2"):
            await add_moves(store, moves(e2 - 1))
        assert await stored("t1") == await stored("t2") == []
        await add_moves(store, moves(e2))
        assert await stored("t1") == [1, 2] and await stored("t2") == [1]
        with pytest.raises(IntegrityError):  # t1's move 2 is stored already
            await add_moves(store, moves(e2, first=2))
        assert await stored("t1") == [1, 2] and await stored("t2") == [1]
        await add_moves(store, [("t2", 1, MoveRow(2, 2, 6, "F"), None)])  # not fenced
        assert await stored("t2") == [1, 2]

    with_store(url, body)


def test_what_tables_keep_goes_with_the_moves_fenced_as_they_are(url: str) -> None:
    """A batch of moves and of kept parts (on PostgreSQL one statement too): the last value
    of each part of a table is kept, another part of it stays as it was, and a stale fence
    among them stores nothing of the batch."""

    async def body(store: SqlStore) -> None:
        await store.create_table(table_row("t1"))
        await store.create_table(table_row("t2"))
        await store.start_game("t1", 1, 5, [])
        e1, e2 = await store.fence("t1"), await store.fence("t2")
        await store.keep("t1", "talk", {"lines": ["hi"]}, epoch=e1)

        async def run(*ops: StoreOp) -> None:
            done = store.commit.run_batch(list(ops))
            if isinstance(done, Awaitable):
                await done

        def press(table_id: str, who: list[int], epoch: int) -> StoreOp:
            return StoreOp(kept=(table_id, "pressed", json.dumps({"seats": who}), epoch))

        move = StoreOp(move=("t1", 1, MoveRow(1, 0, 3, "C"), None, e1))
        with pytest.raises(StaleCopy, match="t2"):
            await run(move, press("t1", [0], e1), press("t2", [1], e2 - 1))
        t1, t2 = await store.load_table("t1"), await store.load_table("t2")
        assert t1 is not None and t2 is not None
        assert (t1.pressed, t2.pressed, await store.moves("t1", 1)) == (None, None, [])
        await run(move, press("t1", [0], e1), press("t2", [1], e2), press("t1", [0, 2], e1))
        t1, t2 = await store.load_table("t1"), await store.load_table("t2")
        assert t1 is not None and t2 is not None
        assert (t1.pressed, t1.talk, t2.pressed) == (
            {"seats": [0, 2]},
            {"lines": ["hi"]},
            {"seats": [1]},
        )
        assert [m.seq for m in await store.moves("t1", 1)] == [1]

    with_store(url, body)


def test_a_batch_of_moves_goes_in_one_round_trip(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: moves waiting together (none ending a game), of several tables, go in one
    statement on the store's connection in autocommit: no BEGIN, no COMMIT, one round trip. A
    batch of moves that fails there (one from a stale copy) is run again move by move, each in
    a transaction: the stale one alone fails."""
    psycopg = pytest.importorskip("psycopg")
    sent: list[tuple[str, bool]] = []

    def recording(name: str) -> None:
        """Record every statement the driver is given."""
        execute = getattr(psycopg.AsyncCursor, name)

        async def record(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            sent.append((str(query).split()[0], self.connection.autocommit))
            return await execute(self, query, *args, **kwargs)

        monkeypatch.setattr(psycopg.AsyncCursor, name, record)

    async def body(store: SqlStore) -> list[Any]:
        await store.create_table(table_row("t1"))
        await store.create_table(table_row("t2"))
        await store.start_game("t1", 1, 5, [])
        await store.start_game("t2", 1, 6, [])
        epochs = {t: await store.fence(t) for t in ("t1", "t2")}

        def moves(first: int) -> list[tuple[Any, ...]]:
            return [
                (t, 1, MoveRow(i, 0, i, "C"), None, epochs[t])
                for i in (first, first + 1)
                for t in epochs
            ]

        recording("execute")
        recording("executemany")
        await asyncio.gather(*(store.add_move(*m) for m in moves(1)))
        assert sent == [("WITH", True)], sent
        await store.fence("t2")  # t2 loaded elsewhere: this copy is stale
        sent.clear()
        results = await asyncio.gather(
            *(store.add_move(*m) for m in moves(3)), return_exceptions=True
        )
        assert sent[0] == ("WITH", True), sent
        assert sent[1:] and not any(auto for _, auto in sent[1:]), sent
        assert [m.seq for m in await store.moves("t1", 1)] == [1, 2, 3, 4]
        assert [m.seq for m in await store.moves("t2", 1)] == [1, 2]
        return results

    results = with_store(pg_url, body)
    assert [isinstance(r, StaleCopy) for r in results] == [False, True, False, True], results


@pytest.mark.parametrize("together", [False, True], ids=["add_move", "add_moves"])
def test_a_load_waits_for_a_move_being_stored(pg_url: str, together: bool) -> None:
    """PostgreSQL: a node loading the table while another is storing a move (its transaction
    open, e.g. its process stopped mid-commit) waits for it, and reads the move; and the same
    with the one statement of a batch of moves (its fences' row locks are held as the longer
    transaction holds them). A move of the copy loaded before then stores nothing."""

    async def body(store: SqlStore) -> None:
        _, move = await _first_move(store)
        epoch = await store.fence("t1")
        async with store.engine.connect() as conn:
            await conn.begin()
            if together:  # not committed yet
                await conn.run_sync(fenced_moves, [("t1", 1, move, epoch)])
            else:
                await conn.run_sync(batch, [StoreOp(move=("t1", 1, move, None, epoch))])
            load = asyncio.ensure_future(store.fence("t1"))
            done, _ = await asyncio.wait([load], timeout=0.5)
            assert not done  # waiting on the row lock
            await conn.commit()
        assert await asyncio.wait_for(load, 5) == epoch + 1
        second = MoveRow(2, move.seat, move.move, move.code)
        with pytest.raises(StaleCopy):
            await add_moves(store, [("t1", 1, second, epoch)])
        assert [m.seq for m in await store.moves("t1", 1)] == [1]

    with_store(pg_url, body)


def test_the_tables_being_played_are_found_by_an_index(url: str) -> None:
    """A server resumes the tables being played at start-up, and a cluster node looks for
    those no node holds every second: by an index on the status, not by reading every table
    ever made. A database made before the index (and before the migrations) gets it when it
    is next opened."""

    async def nothing(_store: SqlStore) -> None:
        return None

    with_store(url, nothing)
    with raw(url) as engine, engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_salad_tables_status"))
        conn.execute(text("DROP TABLE alembic_version"))

    async def body(store: SqlStore) -> None:
        for i, status in enumerate(["lobby", "playing", "over", "playing"]):
            row = table_row(f"t{i}")
            await store.create_table(row)
            await set_status(store, row.id, status)
        assert await store.active_tables() == ["t1", "t3"]

    with_store(url, body)
    with raw(url) as engine:
        assert "ix_salad_tables_status" in {
            i["name"] for i in inspect(engine).get_indexes("salad_tables")
        }
        if engine.dialect.name == "sqlite":  # the plan says so (PostgreSQL's depends on its size)
            with engine.connect() as conn:
                plan = conn.execute(
                    text("EXPLAIN QUERY PLAN SELECT id FROM salad_tables WHERE status = 'x'")
                ).all()
            assert "USING INDEX ix_salad_tables_status" in str(plan), plan


def test_a_batch_of_moves_the_database_does_not_answer_is_refused_in_time(
    pg_url: str, tmp_path: Path
) -> None:
    """PostgreSQL frozen (here the TCP proxy in front of it, stopped: its connections stay
    open and nothing answers, as when a network cuts off without a word): a move waits for
    ``store_timeout``, then is refused, where it waited for ever; so does any other call, and
    a move after it, and the store closes without waiting for the batch stuck. Once the
    database answers again, moves are stored, each once: a refused one was stored after all or
    not at all."""
    target = urlsplit(pg_url)
    assert target.port is not None
    cut = TcpProxy(target.port, tmp_path)
    assert cut.proc is not None
    proc = cut.proc
    through = pg_url.replace(f":{target.port}/", f":{cut.port}/")

    async def run() -> tuple[float, float]:
        store = SqlStore(through, store_timeout=1.0)
        await store.open()
        await store.create_table(table_row("t1"))
        await store.start_game("t1", 1, 5, [])
        await store.add_move("t1", 1, MoveRow(1, 0, 1, "C"))
        os.kill(proc.pid, signal.SIGSTOP)
        started = time.monotonic()
        try:
            with pytest.raises(StoreTimeout):  # not a TimeoutError of this test's own
                await asyncio.wait_for(store.add_move("t1", 1, MoveRow(2, 0, 2, "C")), 30)
            waited = time.monotonic() - started
            # Any other call too, and the moves after it.
            started = time.monotonic()
            with pytest.raises(StoreTimeout):
                await asyncio.wait_for(store.load_table("t1"), 30)
            with pytest.raises(StoreTimeout):
                await asyncio.wait_for(store.add_move("t1", 1, MoveRow(2, 0, 2, "C")), 30)
            waited = max(waited, time.monotonic() - started)
            # A server stopping meanwhile stops: the batch stuck is left behind.
            started = time.monotonic()
            await asyncio.wait_for(store.close(timeout=1.0), 30)
            closing = time.monotonic() - started
        finally:
            os.kill(proc.pid, signal.SIGCONT)
        store = SqlStore(through)
        try:
            # Stored after all (the proxy passed it on once it went on), or not.
            with contextlib.suppress(IntegrityError):
                await store.add_move("t1", 1, MoveRow(2, 0, 2, "C"))
            await store.add_move("t1", 1, MoveRow(3, 0, 3, "C"))
            assert [m.seq for m in await store.moves("t1", 1)] == [1, 2, 3]
        finally:
            await store.close()
        return waited, closing

    try:
        waited, closing = asyncio.run(run())
    finally:
        cut.stop()
    assert 1.0 <= waited < 15.0, waited
    assert closing < 5.0, closing


def test_a_database_that_never_answers_is_an_error_not_a_wait(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL that takes the connection and never answers (here the TCP proxy in front
    of it, stopped) is one line saying so after ``CONNECT_TIMEOUT`` seconds (2 here), as
    ``salad serve`` checks the database when it starts; it waited for ever."""
    monkeypatch.setattr(connections_module, "CONNECT_TIMEOUT", 2)
    target = urlsplit(pg_url)
    assert target.port is not None
    cut = TcpProxy(target.port, tmp_path)
    assert cut.proc is not None
    os.kill(cut.proc.pid, signal.SIGSTOP)
    outcome: list[BaseException | None] = []

    def check() -> None:
        try:
            check_database(pg_url.replace(f":{target.port}/", f":{cut.port}/"))
            outcome.append(None)
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    try:
        started = time.monotonic()
        checking = threading.Thread(target=check, daemon=True)
        checking.start()
        checking.join(30)
        waited = time.monotonic() - started
    finally:
        os.kill(cut.proc.pid, signal.SIGCONT)
        cut.stop()
    assert outcome, "still waiting after 30 s"
    assert isinstance(outcome[0], SaladError), outcome
    assert "cannot be opened (connection timeout expired)" in str(outcome[0])
    assert "\n" not in str(outcome[0]) and 2.0 <= waited < 15.0, waited
