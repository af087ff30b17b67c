"""A database made before the store's migrations (by the server as it was before Alembic: the
tables, no ``alembic_version``), or at the first revision (before tables kept their talk), is
brought up to date in place when a new server starts on it: a real ``salad serve`` on SQLite
and on PostgreSQL loads the table that was being played, and play (and chat) goes on. A new
database gets the newest revision, and opening it again changes nothing."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Connection, create_engine, inspect, text

from salad.engine import Game
from salad.errors import SaladError
from salad.formats.rules import load_ruleset
from salad.server.store import SqlStore, check_database, database_url, hash_token
from salad.server.store.connections import config
from salad.server.store.migrations.versions import r0006_ratings, r0007_groups
from salad.settings import to_ref

from .conftest import Server, connect, stored_pace

OLD_SCHEMA = """
CREATE TABLE salad_fences (
    table_id VARCHAR(32) NOT NULL, epoch INTEGER NOT NULL, PRIMARY KEY (table_id)
);
CREATE TABLE salad_moves (
    table_id VARCHAR(32) NOT NULL, game_number INTEGER NOT NULL, seq INTEGER NOT NULL,
    seat INTEGER NOT NULL, move INTEGER NOT NULL, code VARCHAR(16) NOT NULL,
    by VARCHAR(16) NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (table_id, game_number, seq)
);
CREATE TABLE salad_tables (
    id VARCHAR(32) NOT NULL, preset VARCHAR(64) NOT NULL, settings TEXT NOT NULL,
    players INTEGER NOT NULL, turn_timer FLOAT, bot_takeover FLOAT,
    status VARCHAR(16) NOT NULL, game_number INTEGER NOT NULL, seed BIGINT,
    created_at FLOAT NOT NULL, updated_at FLOAT NOT NULL, PRIMARY KEY (id)
);
CREATE INDEX ix_salad_tables_status ON salad_tables (status);
CREATE TABLE salad_games (
    table_id VARCHAR(32) NOT NULL, game_number INTEGER NOT NULL, seed BIGINT NOT NULL,
    players TEXT NOT NULL, status VARCHAR(16) NOT NULL, totals TEXT, winners TEXT,
    started_at FLOAT NOT NULL, finished_at FLOAT, PRIMARY KEY (table_id, game_number),
    FOREIGN KEY(table_id) REFERENCES salad_tables (id)
);
CREATE TABLE salad_reviews (
    table_id VARCHAR(32) NOT NULL, game_number INTEGER NOT NULL, seat INTEGER NOT NULL,
    worlds INTEGER NOT NULL, review TEXT NOT NULL, created_at FLOAT NOT NULL,
    PRIMARY KEY (table_id, game_number, seat, worlds),
    FOREIGN KEY(table_id) REFERENCES salad_tables (id)
);
CREATE TABLE salad_seats (
    table_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, kind VARCHAR(8) NOT NULL,
    name VARCHAR(64), bot VARCHAR(32), token_hash VARCHAR(64), PRIMARY KEY (table_id, seat),
    FOREIGN KEY(table_id) REFERENCES salad_tables (id)
);
"""
"""The tables as the server made them before its migrations (SQLAlchemy's DDL of commit
27266ee's storage.py, the same on SQLite and PostgreSQL), frozen here."""

TABLE, TOKEN, SEED, PLAYED = "before-migrations", "the-hosts-token", 20251205, 9

HEAD = ["0007"]
"""The newest revision."""


def old_database(conn: Connection, first_revision: bool = False) -> int:
    """The old schema (``first_revision``: the first revision's, made by Alembic), holding a
    table in play: the host (seat 0) and three bots, ``PLAYED`` moves into its first game; the
    number of moves."""
    if first_revision:
        command.upgrade(config(conn), "0001")
    else:
        for statement in OLD_SCHEMA.split(";"):
            if statement.strip():
                conn.execute(text(statement))
    rs = load_ruleset("canadian")
    now = time.time()
    ref = to_ref(rs)
    conn.execute(
        text(
            "INSERT INTO salad_tables VALUES (:id, :preset, :settings, 4, NULL, NULL, "
            "'playing', 1, NULL, :now, :now)"
        ),
        {"id": TABLE, "preset": ref["preset"], "settings": json.dumps(ref["settings"]), "now": now},
    )
    seats = [(0, "human", "Host", None, hash_token(TOKEN))]
    seats += [(i, "bot", f"Bot {i}", "random", None) for i in (1, 2, 3)]
    for seat, kind, name, bot, token_hash in seats:
        conn.execute(
            text("INSERT INTO salad_seats VALUES (:t, :seat, :kind, :name, :bot, :hash)"),
            {"t": TABLE, "seat": seat, "kind": kind, "name": name, "bot": bot, "hash": token_hash},
        )
    players = [{"name": "Host"}] + [{"name": f"Bot {i}", "bot": "random"} for i in (1, 2, 3)]
    conn.execute(
        text(
            "INSERT INTO salad_games VALUES (:t, 1, :seed, :players, 'playing', NULL, NULL, "
            ":now, NULL)"
        ),
        {"t": TABLE, "seed": SEED, "players": json.dumps(players), "now": now},
    )
    game = Game(rs, 4, seed=SEED)
    for seq in range(1, PLAYED + 1):
        seat, move = game.to_move, game.legal_moves()[0]
        conn.execute(
            text("INSERT INTO salad_moves VALUES (:t, 1, :seq, :seat, :move, :code, :by, :now)"),
            {
                "t": TABLE,
                "seq": seq,
                "seat": seat,
                "move": move,
                "code": game.format_move(move),
                "by": "human" if seat == 0 else "bot",
                "now": now,
            },
        )
        game.play(move)
    return PLAYED


def revision(url: str) -> list[str]:
    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return []
            return [r[0] for r in conn.execute(text("SELECT version_num FROM alembic_version"))]
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: Any, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:///{tmp_path / 'old.db'}"


@pytest.mark.parametrize("made_at", [[], ["0001"]], ids=["before-migrations", "r0001"])
def test_a_database_made_before_the_migrations_is_upgraded_and_play_goes_on(
    url: str, start_server: Callable[..., Server], made_at: list[str]
) -> None:
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as conn:
            played = old_database(conn, first_revision=made_at == ["0001"])
    finally:
        engine.dispose()
    assert revision(url) == made_at

    srv = start_server(url)
    assert revision(url) == HEAD  # recognised (stamped at the first revision), upgraded

    async def play() -> None:
        me = await connect(srv, TABLE, TOKEN)
        first = await me.until(lambda x: x["view"] is not None)
        assert first["moves"] >= played  # the stored moves, and the bots' since
        mine = await me.until(lambda x: x["view"]["to_move"] == 0 and bool(x["view"]["legal"]))
        await me.send({"type": "play", "move": mine["view"]["legal"][0]})
        after = await me.until(lambda x, k=mine["moves"]: x["moves"] > k)
        assert after["view"]["trick"] or after["last_trick"]
        await me.send({"type": "chat", "text": "upgraded"})
        while (await me.recv())["type"] != "chat":
            pass
        await me.ws.close()

    asyncio.run(play())
    srv.stop()

    async def stored() -> tuple[int, Any]:
        store = SqlStore(url)
        try:
            table = await store.load_table(TABLE)
            assert table is not None
            return len(await store.moves(TABLE, 1)), table.talk
        finally:
            await store.close()

    moves, talk = asyncio.run(stored())
    assert moves > played
    assert [line["text"] for line in talk["lines"]] == ["upgraded"]
    assert revision(url) == HEAD


def test_a_new_database_gets_the_newest_revision_once(url: str) -> None:
    check_database(url)  # as salad serve opens it, before it listens
    assert revision(url) == HEAD
    check_database(url)  # again: nothing to do, nothing changed
    assert revision(url) == HEAD
    engine = create_engine(database_url(url))
    try:
        names = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert names >= {"salad_tables", "salad_seats", "salad_games", "salad_moves"}
    assert names >= {"salad_fences", "salad_reviews", "alembic_version"}


def test_nodes_starting_together_upgrade_one_after_the_other(pg_url: str) -> None:
    """PostgreSQL: the nodes of a cluster starting at once on an empty database: one makes the
    schema under the advisory lock, the others wait for it and find it made (without the lock,
    PostgreSQL refuses a table or type made twice)."""

    async def together() -> None:
        stores = [SqlStore(pg_url) for _ in range(4)]
        try:
            await asyncio.gather(*(s.open() for s in stores))
        finally:
            await asyncio.gather(*(s.close() for s in stores))

    asyncio.run(together())
    assert revision(pg_url) == HEAD


def test_a_database_of_a_newer_salad_is_one_line(tmp_path: Path) -> None:
    """A database at a revision this salad does not know (made by a newer one) is refused in
    one line when the server starts, not with a traceback."""
    url = f"sqlite:///{tmp_path / 'newer.db'}"
    check_database(url)
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    with pytest.raises(SaladError) as refused:
        check_database(url)
    said = str(refused.value)
    assert "cannot be opened" in said and "9999" in said and "\n" not in said, said


def test_a_table_made_before_the_pace_plays_at_normal_and_the_pace_goes_back(
    tmp_path: Path,
) -> None:
    """Revision 0003 gives every table a pace: one made at 0002 plays at ``normal`` (the pace
    every table had); going back to 0002 takes the column away again."""
    url = f"sqlite:///{tmp_path / 'r0002.db'}"
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            old_database(conn, first_revision=True)
            command.upgrade(config(conn), "0002")
    finally:
        engine.dispose()
    assert revision(url) == ["0002"]
    check_database(url)
    assert revision(url) == HEAD

    assert stored_pace(url, TABLE) == "normal"
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            command.downgrade(config(conn), "0002")
        columns = {c["name"] for c in inspect(engine).get_columns("salad_tables")}
    finally:
        engine.dispose()
    assert revision(url) == ["0002"] and "pace" not in columns and "talk" in columns


def back_and_up(tmp_path: Path, back_to: str, present: Callable[[Any], bool]) -> None:
    """A new database taken back to revision ``back_to``, then up to the head: ``present``
    (given the inspector) says whether a revision's additions are there, at each step."""
    url = f"sqlite:///{tmp_path / 'back.db'}"
    check_database(url)
    engine = create_engine(url)
    try:
        for target, there in ((back_to, False), ("head", True)):
            with engine.begin() as conn:
                if target == "head":
                    command.upgrade(config(conn), target)
                else:
                    command.downgrade(config(conn), target)
            assert present(inspect(engine)) is there, target
    finally:
        engine.dispose()
    assert revision(url) == HEAD


def test_the_signins_revision_goes_back_and_up_again(tmp_path: Path) -> None:
    """Revision 0005 adds the sign-in codes; going back to 0004 takes them away (the players
    stay), and up again brings them back."""

    def present(found: Any) -> bool:
        names = found.get_table_names()
        assert "salad_players" in names
        return "salad_signins" in names

    back_and_up(tmp_path, "0004", present)


def test_the_players_revision_goes_back_and_up_again(tmp_path: Path) -> None:
    """Revision 0004 adds the players and the seat's player; going back to 0003 takes both
    away, and up again brings them back."""

    def present(found: Any) -> bool:
        seats = {c["name"] for c in found.get_columns("salad_seats")}
        players = "salad_players" in found.get_table_names()
        assert ("player_id" in seats) is players
        return players

    back_and_up(tmp_path, "0003", present)


def test_the_groups_revision_goes_back_and_up_again(tmp_path: Path) -> None:
    """Revision 0007 adds the groups and the table's group; going back to the revision before
    takes both away, and up again brings them back."""

    def present(found: Any) -> bool:
        columns = {c["name"] for c in found.get_columns("salad_tables")}
        names = set(found.get_table_names())
        made = {"salad_groups", "salad_group_members", "salad_group_sheets"} <= names
        assert ("group_id" in columns) is made
        return made

    back_and_up(tmp_path, r0007_groups.down_revision or "", present)


def test_the_ratings_revision_goes_back_and_up_again(tmp_path: Path) -> None:
    """Revision 0006 adds the results, ratings and their sums; going back to the revision
    before takes them away, and up again brings them back."""

    def present(found: Any) -> bool:
        names = set(found.get_table_names())
        made = {"salad_results", "salad_ratings", "salad_rating_history"} & names
        assert made in (set(), {"salad_results", "salad_ratings", "salad_rating_history"})
        return bool(made)

    back_and_up(tmp_path, r0006_ratings.down_revision or "", present)
