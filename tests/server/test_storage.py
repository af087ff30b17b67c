"""Storage on SQLite (always) and PostgreSQL (when scripts/postgres.sh provides one): the same
test functions, parametrized by backend."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import event, inspect, text
from sqlalchemy.exc import IntegrityError

import salad.server.storage as storage_module
from salad.engine import Game
from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.server.storage import (
    MoveRow,
    SeatRow,
    StaleCopy,
    Storage,
    StoreTimeout,
    TableRow,
    Writer,
    check_database,
    database_url,
    hash_token,
)

from .conftest import TcpProxy


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: Any, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
    else:
        url = f"sqlite:///{tmp_path / 'salad.db'}"
    st = Storage(url)
    yield st
    st.close()


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


def test_database_urls(tmp_path: Path) -> None:
    assert database_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url(str(tmp_path / "a.db")) == f"sqlite:///{tmp_path / 'a.db'}"
    assert database_url(None).startswith("sqlite:///") and database_url(None).endswith("salad.db")


def test_tables_and_seats(storage: Storage) -> None:
    row = table_row()
    storage.run(Storage.create_table, row)
    loaded = storage.run(Storage.load_table, "t1")
    assert loaded is not None
    assert (loaded.preset, loaded.settings, loaded.players) == (row.preset, row.settings, 4)
    assert (loaded.turn_timer, loaded.bot_takeover, loaded.seed) == (30.0, None, 2**63 - 1)
    assert loaded.seats == row.seats
    assert storage.run(Storage.load_table, "nope") is None
    # The token itself is never stored, only its hash.
    with storage.engine.connect() as conn:
        dump = str(conn.execute(text("SELECT * FROM salad_seats")).fetchall())
    assert "secret-0" not in dump and hash_token("secret-0") in dump

    seats = [s for s in row.seats if s.seat != 1]
    for i, s in enumerate(seats):
        s.seat = i
    storage.run(Storage.save_seats, "t1", seats)
    loaded = storage.run(Storage.load_table, "t1")
    assert loaded is not None and loaded.players == 3
    assert [s.kind for s in loaded.seats] == ["human", "bot", "open"]
    assert storage.run(Storage.active_tables) == []


def test_games_moves_and_resume(storage: Storage) -> None:
    """A game stored move by move rebuilds exactly from its seed and moves."""
    row = table_row(players=4)
    storage.run(Storage.create_table, row)
    rs = load_ruleset(row.preset, row.settings)
    game = Game(rs, 4, seed=row.seed)
    players = [{"name": s.name or f"Seat {s.seat}"} for s in row.seats]
    storage.run(Storage.start_game, "t1", 1, row.seed, players)
    assert storage.run(Storage.active_tables) == ["t1"]
    rng = random.Random(1)
    seq = 0
    while not game.is_over():
        seat = game.to_move
        move = rng.choice(game.legal_moves())
        game.play(move)
        seq += 1
        over = (list(game.totals), game.winners()) if game.is_over() else None
        storage.run(
            Storage.add_move, "t1", 1, MoveRow(seq, seat, move, game.format_move(move)), over
        )
        if seq == 50:
            moves = storage.run(Storage.moves, "t1", 1)
            half = Game(rs, 4, seed=row.seed)
            for m in moves:
                half.play(m.move)
            assert half.log == game.log
    table = storage.run(Storage.load_table, "t1")
    assert table is not None and table.status == "over" and table.game_number == 1
    games = storage.run(Storage.games, "t1")
    assert len(games) == 1
    assert games[0].totals == game.totals and games[0].winners == game.winners()
    assert games[0].players == players and games[0].seed == row.seed
    moves = storage.run(Storage.moves, "t1", 1)
    assert [m.seq for m in moves] == list(range(1, seq + 1))
    again = Game(rs, 4, seed=row.seed)
    for m in moves:
        assert again.format_move(m.move) == m.code
        again.play(m.move)
    assert again.log == game.log and again.totals == game.totals
    assert storage.run(Storage.active_tables) == []


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "thread"])
def test_writer_commits_in_order_and_isolates_failures(storage: Storage, inline: bool) -> None:
    storage.run(Storage.create_table, table_row())
    storage.run(Storage.start_game, "t1", 1, 5, [])

    async def run() -> list[Any]:
        writer = Writer(storage, inline=inline)
        try:
            calls: list[Any] = [
                writer.call(Storage.add_move, "t1", 1, MoveRow(i, 0, i, f"C{i}"), None)
                for i in range(1, 201)
            ]
            calls.append(writer.call(Storage.add_move, "t1", 1, MoveRow(7, 0, 7, "dup"), None))
            calls.append(writer.call(Storage.set_status, "t1", "over", 1))
            calls.append(writer.call(Storage.load_table, "t1"))
            return await asyncio.gather(*calls, return_exceptions=True)
        finally:
            await writer.close()

    results = asyncio.run(run())
    assert results[:200] == [None] * 200
    assert isinstance(results[200], Exception)  # the duplicate move, alone
    assert results[201] is None
    loaded = results[202]
    assert loaded is not None and loaded.status == "over"
    moves = storage.run(Storage.moves, "t1", 1)
    assert [m.seq for m in moves] == list(range(1, 201))
    assert moves[6].code == "C7"


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "thread"])
def test_the_writer_keeps_one_connection_until_a_call_fails(
    storage: Storage, inline: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batch after batch on one connection (taking one from the pool and giving it back costs
    as much as a batch of moves on SQLite; on PostgreSQL the moves go on the writer's asyncio
    connection); a failed call lets it go, and the writer carries on with a new one."""
    storage.run(Storage.create_table, table_row())
    storage.run(Storage.start_game, "t1", 1, 5, [])
    opened: list[object] = []
    event.listen(storage.engine, "checkout", lambda conn, *_: opened.append(conn))
    if storage.dialect == "postgresql":
        psycopg = pytest.importorskip("psycopg")
        connect = psycopg.AsyncConnection.connect

        async def connecting(*args: Any, **kwargs: Any) -> Any:
            opened.append(conn := await connect(*args, **kwargs))
            return conn

        monkeypatch.setattr(psycopg.AsyncConnection, "connect", connecting)

    async def run() -> list[Any]:
        writer = Writer(storage, inline=inline)
        try:
            results = []
            for i in range(1, 11):  # ten batches, one move each
                results.append(await writer.call(Storage.add_move, "t1", 1, MoveRow(i, 0, i, "C")))
            assert len(opened) == 1
            with pytest.raises(IntegrityError):  # move 3 is stored already
                await writer.call(Storage.add_move, "t1", 1, MoveRow(3, 0, 3, "dup"))
            results.append(await writer.call(Storage.add_move, "t1", 1, MoveRow(11, 0, 1, "C")))
            return results
        finally:
            await writer.close()

    assert asyncio.run(run()) == [None] * 11
    assert len(opened) >= 3  # the failed batch's, and a new one after the failure
    assert [m.seq for m in storage.run(Storage.moves, "t1", 1)] == list(range(1, 12))


def _first_move(storage: Storage) -> tuple[Game, MoveRow]:
    row = table_row(players=4)
    storage.run(Storage.create_table, row)
    players = [{"name": s.name or f"Seat {s.seat}"} for s in row.seats]
    storage.run(Storage.start_game, "t1", 1, row.seed, players)
    game = Game(load_ruleset(row.preset, row.settings), 4, seed=row.seed)
    move = game.legal_moves()[0]
    return game, MoveRow(1, game.to_move, move, game.format_move(move))


def test_a_move_from_a_copy_loaded_before_another_is_refused(storage: Storage) -> None:
    """Fencing (a cluster node frozen past its lease): each load raises the table's epoch, and
    a move stored with an older epoch is refused, stored nothing."""
    _, move = _first_move(storage)
    old = storage.run(Storage.fence, "t1")
    new = storage.run(Storage.fence, "t1")
    assert new == old + 1
    with pytest.raises(StaleCopy):
        storage.run(Storage.add_move, "t1", 1, move, None, old)
    assert storage.run(Storage.moves, "t1", 1) == []
    storage.run(Storage.add_move, "t1", 1, move, None, new)
    assert [m.seq for m in storage.run(Storage.moves, "t1", 1)] == [1]
    # A made-up table id writes nothing (a request for it must not fill the database).
    assert storage.run(Storage.fence, "nope") == 0
    with storage.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM salad_fences")).scalar() == 1


@pytest.mark.parametrize("inline", [True, False], ids=["inline", "thread"])
def test_the_writer_fences_moves_too(storage: Storage, inline: bool) -> None:
    """Moves stored through the writer (the server's way, a batch per turn of the event loop)
    are fenced like :meth:`Storage.add_move`: one from a stale copy is refused alone, and the
    others of its batch are stored."""
    game, first = _first_move(storage)
    stale = storage.run(Storage.fence, "t1")
    fresh = storage.run(Storage.fence, "t1")
    game.play(first.move)
    second = game.legal_moves()[0]
    row2 = MoveRow(2, game.to_move, second, game.format_move(second))

    async def run() -> list[Any]:
        writer = Writer(storage, inline=inline)
        try:
            return await asyncio.gather(
                writer.call(Storage.add_move, "t1", 1, first, None, fresh),
                writer.call(Storage.add_move, "t1", 1, row2, None, stale),
                return_exceptions=True,
            )
        finally:
            await writer.close()

    results = asyncio.run(run())
    assert results[0] is None and isinstance(results[1], StaleCopy), results
    assert [m.seq for m in storage.run(Storage.moves, "t1", 1)] == [1]


def test_a_batch_of_moves_is_stored_whole_or_not_at_all(storage: Storage) -> None:
    """Storage.add_moves (the writer's batch of moves; one statement on PostgreSQL): moves of
    several tables, each fenced; one table loaded elsewhere since its copy was, and nothing of
    the batch is stored; a duplicate move, the same; else all of them are."""
    storage.run(Storage.create_table, table_row("t1"))
    storage.run(Storage.create_table, table_row("t2"))
    storage.run(Storage.start_game, "t1", 1, 5, [])
    storage.run(Storage.start_game, "t2", 1, 6, [])
    e1, e2 = storage.run(Storage.fence, "t1"), storage.run(Storage.fence, "t2")

    def moves(epoch2: int, first: int = 1) -> list[tuple[str, int, MoveRow, int | None]]:
        return [
            ("t1", 1, MoveRow(first, 0, 3, "C"), e1),
            ("t2", 1, MoveRow(first, 1, 4, "D"), epoch2),
            ("t1", 1, MoveRow(first + 1, 1, 5, "E"), e1),
        ]

    def stored(table_id: str) -> list[int]:
        return [m.seq for m in storage.run(Storage.moves, table_id, 1)]

    with pytest.raises(StaleCopy, match="t2"):
        storage.run(Storage.add_moves, moves(e2 - 1))
    assert stored("t1") == stored("t2") == []
    storage.run(Storage.add_moves, moves(e2))
    assert stored("t1") == [1, 2] and stored("t2") == [1]
    with pytest.raises(IntegrityError):  # t1's move 2 is stored already
        storage.run(Storage.add_moves, moves(e2, first=2))
    assert stored("t1") == [1, 2] and stored("t2") == [1]
    storage.run(Storage.add_moves, [("t2", 1, MoveRow(2, 2, 6, "F"), None)])  # not fenced
    assert stored("t2") == [1, 2]


def test_the_writer_stores_a_batch_of_moves_in_one_round_trip(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL: moves waiting together (none ending a game), of several tables, go in one
    statement on the writer's asyncio connection in autocommit: no BEGIN, no COMMIT, one round
    trip, and nothing handed to the writer's thread. A batch of moves that fails there (one
    from a stale copy) is run again on the thread, move by move: the stale one alone fails."""
    psycopg = pytest.importorskip("psycopg")
    storage = Storage(pg_url)
    try:
        storage.run(Storage.create_table, table_row("t1"))
        storage.run(Storage.create_table, table_row("t2"))
        storage.run(Storage.start_game, "t1", 1, 5, [])
        storage.run(Storage.start_game, "t2", 1, 6, [])
        epochs = {t: storage.run(Storage.fence, t) for t in ("t1", "t2")}
        sent: list[tuple[str, str, bool]] = []

        def recording(cls: Any, kind: str) -> None:
            """Record every statement the driver is given, SQLAlchemy's or not."""
            execute = cls.execute

            def record(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
                sent.append((kind, str(query).split()[0], self.connection.autocommit))
                return execute(self, query, *args, **kwargs)

            monkeypatch.setattr(cls, "execute", record)

        recording(psycopg.Cursor, "thread")
        recording(psycopg.AsyncCursor, "loop")

        def moves(first: int) -> list[tuple[Any, ...]]:
            return [
                (t, 1, MoveRow(i, 0, i, "C"), None, epochs[t])
                for i in (first, first + 1)
                for t in epochs
            ]

        async def run() -> list[Any]:
            writer = Writer(storage, inline=False)
            try:
                await asyncio.gather(*(writer.call(Storage.add_move, *m) for m in moves(1)))
                assert sent == [("loop", "WITH", True)], sent
                storage.run(Storage.fence, "t2")  # t2 loaded elsewhere: this copy is stale
                sent.clear()
                return await asyncio.gather(
                    *(writer.call(Storage.add_move, *m) for m in moves(3)),
                    return_exceptions=True,
                )
            finally:
                await writer.close()

        results = asyncio.run(run())
        assert [isinstance(r, StaleCopy) for r in results] == [False, True, False, True], results
        assert sent[0] == ("loop", "WITH", True), sent
        assert sent[1:] and all(kind == "thread" for kind, _, _ in sent[1:]), sent
        assert [m.seq for m in storage.run(Storage.moves, "t1", 1)] == [1, 2, 3, 4]
        assert [m.seq for m in storage.run(Storage.moves, "t2", 1)] == [1, 2]
    finally:
        storage.close()


@pytest.mark.parametrize("batch", [False, True], ids=["add_move", "add_moves"])
def test_a_load_waits_for_a_move_being_stored(pg_url: str, batch: bool) -> None:
    """PostgreSQL: a node loading the table while another is storing a move (its transaction
    open, e.g. its process stopped mid-commit) waits for it, and reads the move; and the same
    with the writer's one statement for a batch of moves (its fences' row locks are held as
    the longer transaction holds them). A move of the copy loaded before then stores nothing."""
    storage = Storage(pg_url)
    try:
        _, move = _first_move(storage)
        epoch = storage.run(Storage.fence, "t1")
        with storage.engine.begin() as conn:
            if batch:
                Storage.add_moves(conn, [("t1", 1, move, epoch)])  # not committed yet
            else:
                Storage.add_move(conn, "t1", 1, move, None, epoch)
            fenced: list[int] = []
            load = lambda: fenced.append(storage.run(Storage.fence, "t1"))  # noqa: E731
            loader = threading.Thread(target=load)
            loader.start()
            loader.join(0.5)
            assert loader.is_alive() and not fenced  # waiting on the row lock
        loader.join(5)
        assert fenced == [epoch + 1]
        second = MoveRow(2, move.seat, move.move, move.code)
        with pytest.raises(StaleCopy):
            storage.run(Storage.add_moves, [("t1", 1, second, epoch)])
        assert [m.seq for m in storage.run(Storage.moves, "t1", 1)] == [1]
    finally:
        storage.close()


def test_the_tables_being_played_are_found_by_an_index(storage: Storage) -> None:
    """A server resumes the tables being played at start-up, and a cluster node looks for
    those no node holds every second: by an index on the status, not by reading every table
    ever made. A database made before the index gets it when it is next opened."""
    with storage.engine.begin() as conn:
        conn.execute(text("DROP INDEX ix_salad_tables_status"))
    again = Storage(storage.url)
    try:
        assert "ix_salad_tables_status" in {
            i["name"] for i in inspect(again.engine).get_indexes("salad_tables")
        }
        for i, status in enumerate(["lobby", "playing", "over", "playing"]):
            row = table_row(f"t{i}")
            again.run(Storage.create_table, row)
            again.run(Storage.set_status, row.id, status, 1)
        assert again.run(Storage.active_tables) == ["t1", "t3"]
        if again.dialect == "sqlite":  # the plan says so (PostgreSQL's depends on its size)
            with again.engine.connect() as conn:
                plan = conn.execute(
                    text("EXPLAIN QUERY PLAN SELECT id FROM salad_tables WHERE status = 'x'")
                ).all()
            assert "USING INDEX ix_salad_tables_status" in str(plan), plan
    finally:
        again.close()


def test_a_batch_of_moves_the_database_does_not_answer_is_refused_in_time(
    pg_url: str, tmp_path: Path
) -> None:
    """PostgreSQL frozen (here the TCP proxy in front of it, stopped: its connections stay
    open and nothing answers, as when a network cuts off without a word): a move waits for
    ``store_timeout`` and the driver's cancellation (about ten seconds), then is refused,
    where it waited for ever; so does a call on the writer's thread (without the
    cancellation: the thread stays stuck), and a move after it, and the writer closes without
    waiting for the thread. Once the database answers again, moves are stored, each once: a
    refused one was stored after all or not at all."""
    target = urlsplit(pg_url)
    assert target.port is not None
    cut = TcpProxy(target.port, tmp_path)
    storage = Storage(pg_url.replace(f":{target.port}/", f":{cut.port}/"))
    try:
        storage.run(Storage.create_table, table_row("t1"))
        storage.run(Storage.start_game, "t1", 1, 5, [])
        assert cut.proc is not None

        async def run() -> tuple[float, float]:
            writer = Writer(storage, store_timeout=1.0)
            await writer.call(Storage.add_move, "t1", 1, MoveRow(1, 0, 1, "C"))
            os.kill(cut.proc.pid, signal.SIGSTOP)
            started = time.monotonic()
            try:
                with pytest.raises(StoreTimeout):  # not a TimeoutError of this test's own
                    stored = writer.call(Storage.add_move, "t1", 1, MoveRow(2, 0, 2, "C"))
                    await asyncio.wait_for(stored, 30)
                waited = time.monotonic() - started
                # Any other call too, on the writer's thread (which stays stuck until the
                # database answers), and the moves after it.
                started = time.monotonic()
                with pytest.raises(StoreTimeout):
                    await asyncio.wait_for(writer.call(Storage.load_table, "t1"), 30)
                with pytest.raises(StoreTimeout):
                    stored = writer.call(Storage.add_move, "t1", 1, MoveRow(2, 0, 2, "C"))
                    await asyncio.wait_for(stored, 30)
                waited = max(waited, time.monotonic() - started)
                # A server stopping meanwhile stops: the stuck thread is left behind.
                started = time.monotonic()
                await asyncio.wait_for(writer.close(timeout=1.0), 30)
                closing = time.monotonic() - started
            finally:
                os.kill(cut.proc.pid, signal.SIGCONT)
            writer = Writer(storage)
            try:
                # Stored after all (the proxy passed it on once it went on), or not.
                with contextlib.suppress(IntegrityError):
                    await writer.call(Storage.add_move, "t1", 1, MoveRow(2, 0, 2, "C"))
                await writer.call(Storage.add_move, "t1", 1, MoveRow(3, 0, 3, "C"))
            finally:
                await writer.close()
            return waited, closing

        waited, closing = asyncio.run(run())
        assert 1.0 <= waited < 15.0, waited
        assert closing < 5.0, closing
        assert [m.seq for m in storage.run(Storage.moves, "t1", 1)] == [1, 2, 3]
    finally:
        storage.close()
        cut.stop()


def test_a_database_that_never_answers_is_an_error_not_a_wait(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL that takes the connection and never answers (here the TCP proxy in front
    of it, stopped) is one line saying so after ``CONNECT_TIMEOUT`` seconds (2 here), as
    ``salad serve`` checks the database when it starts; it waited for ever."""
    monkeypatch.setattr(storage_module, "CONNECT_TIMEOUT", 2)
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
