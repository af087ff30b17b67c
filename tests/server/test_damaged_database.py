"""A damaged database said plainly (issue #40, item 5). At start, `salad serve` refuses a
database SQLite finds damaged, or one that lacks a table of its revision, in one line that says
what and how to recover, and leaves the file as it was (a dropped table is never made again
over the rest of the data). While it serves, a table whose stored rows do not fit its game
answers one error and closes its websockets for good, and a database found damaged makes every
request that meets it, and /healthz, say so in one line."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import create_engine, inspect, text

from salad.server.store.connections import TABLES
from salad.server.store.sql import check_database
from salad.server.tables.damage import DAMAGED

from .conftest import Server, free_port


def made(path: Path) -> Path:
    """A database as a server leaves it (its schema at the newest revision), checkpointed."""
    check_database(f"sqlite:///{path}")
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def serve(path: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "salad.cli", "serve", "--port", str(free_port())]
    return subprocess.run(
        [*cmd, "--database", f"sqlite:///{path}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_database_sqlite_finds_damaged_is_refused_in_one_line(tmp_path: Path) -> None:
    path = made(tmp_path / "salad.db")
    with sqlite3.connect(path) as db:
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'ix_salad_tables_status'"
        ).fetchone()
        size = db.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as f:  # an index's page no longer a b-tree page: opens, reads wrong
        f.seek((root - 1) * size)
        f.write(b"\xff\xff\xff\xff")
    before = digest(path)
    done = serve(path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    said = f"error: database sqlite:///{path}: damaged (SQLite's quick_check finds a fault"
    assert done.stderr.startswith(said), done.stderr
    assert "restore it from a backup" in done.stderr
    assert "salad server:" not in done.stdout  # never listened
    assert digest(path) == before


def test_a_table_dropped_while_stopped_is_not_made_again(tmp_path: Path) -> None:
    path = made(tmp_path / "salad.db")
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE salad_moves")
    done = serve(path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr == (
        f"error: database sqlite:///{path}: damaged (the table salad_moves is missing): restore "
        "it from a backup, or serve a new database (--database another path)\n"
    )
    with sqlite3.connect(path) as db:
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    assert "salad_moves" not in names and "salad_tables" in names


def test_the_tables_checked_are_those_a_new_database_has(tmp_path: Path) -> None:
    path = made(tmp_path / "salad.db")
    engine = create_engine(f"sqlite:///{path}")
    try:
        found = set(inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()
    assert found == TABLES


# -- damage found while serving ---------------------------------------------------------------

SEATS = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3
ONE_HAND = 'preset = "canadian"\nhands = ["no-tricks"]\n'
DAMAGED_SAYS = "cannot be opened: what is stored of it is damaged"


def finished_tables(srv: Server, n: int) -> list[str]:
    """n tables of bots (the host never comes: a bot plays for them at once), each game of
    one hand played to its end."""
    ids = [srv.table(SEATS, bot_takeover=0, rules_toml=ONE_HAND)[0] for _ in range(n)]
    deadline = time.monotonic() + 60
    while any(srv.ok("GET", f"/api/tables/{t}")["status"] != "over" for t in ids):
        assert time.monotonic() < deadline, "the bots did not finish in 60 s"
        time.sleep(0.2)
    return ids


async def first_and_close(srv: Server, table_id: str) -> tuple[dict[str, Any], int | None]:
    """What a websocket to the table gets first, and the code it is closed with."""
    async with websockets.connect(f"{srv.ws_base}/ws/tables/{table_id}") as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        with contextlib.suppress(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
    return first, ws.close_code


def test_a_table_whose_rows_do_not_fit_its_game_is_said_damaged_once(
    start_server: Callable[..., Server], tmp_path: Path
) -> None:
    """A text seed, a move the game refuses, a move stored under another card's code: each of
    those tables answers one JSON error (500) to every request, and a websocket one `error` and
    the close 4500 after which the web client stops; the log names each table once with its
    cause, no traceback; the other tables, and the server's health, are untouched."""
    srv = start_server()
    seed, refused, recoded, sound = finished_tables(srv, 4)
    srv.stop()
    path = tmp_path / "salad.db"
    with sqlite3.connect(path) as db:
        db.execute("UPDATE salad_games SET seed = 'abc' WHERE table_id = ?", (seed,))
        db.execute(
            "UPDATE salad_moves SET move = 999999 WHERE table_id = ? AND seq = 5", (refused,)
        )
        db.execute("UPDATE salad_moves SET code = 'XX' WHERE table_id = ? AND seq = 9", (recoded,))
    srv = start_server(srv.database)
    for table_id in (seed, refused, recoded):
        said = {"error": f"table {table_id!r} {DAMAGED_SAYS}"}
        for _ in range(2):
            for path_ in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/record"):
                answer = srv.http.get(path_)
                assert (answer.status_code, answer.json()) == (500, said), path_
        first, code = asyncio.run(first_and_close(srv, table_id))
        assert first == {"type": "error", "message": said["error"]}
        assert code == DAMAGED
    assert srv.ok("GET", f"/api/tables/{sound}")["status"] == "over"
    assert srv.ok("GET", f"/api/tables/{sound}/record")["players"]
    health = srv.ok("GET", "/healthz")
    assert (health["status"], health["database"], health["tables_damaged"]) == ("ok", "ok", 3)
    srv.stop()
    log = srv.log_path.read_text()
    assert "Traceback" not in log and "internal error" not in log
    lines = [line for line in log.splitlines() if "cannot be opened" in line]
    assert lines == [
        f"table {seed} cannot be opened: game 1: its seed 'abc' is not a whole number",
        f"table {refused} cannot be opened: game 1, move 5: seat "
        + lines[1].split(": seat ", 1)[1],
        f"table {recoded} cannot be opened: game 1, move 9: " + lines[2].split(", move 9: ", 1)[1],
    ], lines
    assert "cannot play 999999" in lines[1]
    assert lines[2].endswith(", stored as 'XX'")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_table_of_the_schema_dropped_while_serving_is_said_in_one_line(
    backend: str, request: pytest.FixtureRequest, start_server: Callable[..., Server]
) -> None:
    """The seats' table dropped under a running server: a request that needs it gets 503 and
    one line; /healthz says the database is damaged (a balancer takes the server out) and
    stays so; the log has one line a request, no traceback; nothing is made again."""
    database = request.getfixturevalue("pg_url") if backend == "postgresql" else None
    srv = start_server(database)
    assert srv.ok("GET", "/healthz")["database"] == "ok"
    engine = create_engine(srv.database.replace("postgresql://", "postgresql+psycopg://"))
    with engine.begin() as conn:
        conn.execute(
            text("DROP TABLE salad_seats CASCADE" if database else "DROP TABLE salad_seats")
        )
    said = "the server's database is damaged: it cannot answer until it is mended"
    for _ in range(2):
        answer = srv.post("/api/tables", {"name": "Host"})
        assert (answer.status_code, answer.json()) == (503, {"error": said})
    health = srv.http.get("/healthz")
    assert health.status_code == 503
    assert health.json()["database"].startswith("damaged: ")
    assert "salad_seats" in health.json()["database"]
    srv.stop()
    with engine.connect() as conn:
        assert "salad_seats" not in inspect(conn).get_table_names()
    engine.dispose()
    log = srv.log_path.read_text()
    assert "Traceback" not in log
    lines = [line for line in log.splitlines() if "the database is damaged" in line]
    assert len(lines) == 2 and all(line.startswith("POST /api/tables: ") for line in lines)
