"""A damaged database said plainly (issue #40, item 5, at start): `salad serve` refuses a
database SQLite finds damaged, or one that lacks a table of its revision, in one line that says
what and how to recover, and leaves the file as it was (a dropped table is never made again
over the rest of the data)."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, inspect

from salad.server.store.connections import TABLES
from salad.server.store.sql import check_database

from .conftest import free_port


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
