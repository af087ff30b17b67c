"""The SQL store's tables and statements, on SQLAlchemy Core, written once for both databases:
each takes the (synchronous) connection of its batch and runs in the batch's transaction.

The tables are the migrations' own (``migrations/versions``), so the two never differ:

* ``salad_tables``: a table's ruleset (preset + settings JSON), timers, status, the number of
  its current game, and what it keeps besides its games (:data:`~.base.KEPT`, JSON);
* ``salad_seats``: each seat's kind, name, bot, the SHA-256 hash of its token (never the
  token itself) and the player who sits there (``player_id``, :mod:`~.players`);
* ``salad_games``: each game's seed, its seats as they were at its start, status and result;
* ``salad_moves``: every accepted move of every game, numbered from 1 (``seq``): a game is
  rebuilt from its seed and its moves, so nothing else of its state is stored;
* ``salad_fences``: a cluster's fencing epochs; ``salad_reviews``: a game's review of one seat.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import Connection, Table, and_, delete, insert, select, text, tuple_, update
from sqlalchemy.sql.expression import ClauseElement, ColumnElement

from salad.server.store.base import KEPT, GameRow, MoveRow, Over, SeatRow, StaleCopy
from salad.server.store.migrations.versions import (
    r0001_first_schema,
    r0002_kept,
    r0003_pace,
    r0004_players,
    r0007_groups,
)

tables_t, seats_t, games_t, moves_t, fences_t, reviews_t = r0001_first_schema.tables()
for column in [*r0002_kept.columns(), *r0003_pace.columns(), *r0007_groups.columns()]:
    tables_t.append_column(column)
for column in r0004_players.seat_columns():
    seats_t.append_column(column)

Moves = list[tuple[str, int, MoveRow, int | None]]
Kept = tuple[str, str, str, int | None]
"""What a table keeps (:meth:`~.base.TableStore.keep`): its id, the part, its JSON, the epoch."""

Statement = Callable[[Connection], Any]
"""Statements of one store call, run in a batch's transaction: their result is the call's."""

FENCED_MOVES = text(
    """
    WITH held AS (
        UPDATE salad_fences SET epoch = epoch
        WHERE (table_id, epoch) IN (
            SELECT table_id, epoch
            FROM json_populate_recordset(NULL::salad_fences, CAST(:held AS json))
        )
        RETURNING table_id, epoch
    ), added AS (
        INSERT INTO salad_moves (table_id, game_number, seq, seat, move, code, "by", at)
        SELECT table_id, game_number, seq, seat, move, code, "by", at
        FROM json_populate_recordset(NULL::salad_moves, CAST(:rows AS json))
        WHERE (SELECT count(*) FROM held) = :count
    ), kept AS (
        UPDATE salad_tables AS t SET {}
        FROM json_populate_recordset(NULL::salad_tables, CAST(:kept AS json)) AS k
        WHERE t.id = k.id AND (SELECT count(*) FROM held) = :count
    )
    SELECT table_id, epoch FROM held
    """.format(", ".join(f"{part} = COALESCE(k.{part}, t.{part})" for part in KEPT))
)
"""PostgreSQL: a batch of moves, and of what tables keep, in one statement: their tables'
fences held (row locks until the statement ends), then the moves inserted and the kept parts
set if every fence was; the fences held come back. The rows go as JSON texts (ten arrays cost
the driver more), as the driver's own SQL (:func:`driver_sql`: about 8% less CPU a batch than
the same ``text()``)."""

INSERT_MOVES = insert(moves_t)
"""A batch's moves, an executemany (the parameters of :func:`move_params`)."""

_DRIVER_SQL: dict[tuple[Any, str, str], str] = {}


def driver_sql(conn: Connection, statement: ClauseElement) -> str:
    """``statement`` compiled once for the driver of ``conn`` (SQLAlchemy's public ``compile``),
    for ``Connection.exec_driver_sql`` with parameters by name: the hot statements skip
    SQLAlchemy's execution of a construct, which costs more than SQLite's insert itself."""
    dialect = conn.dialect
    key = (statement, dialect.name, dialect.paramstyle)
    found = _DRIVER_SQL.get(key)
    if found is None:
        found = _DRIVER_SQL[key] = str(statement.compile(dialect=dialect))
    return found


@dataclass(slots=True)
class Op:
    """A store call waiting for its batch: ``fn(conn)``, a move (which a batch stores with
    the moves next to it, in one statement), or a part a table keeps."""

    fn: Statement | None = None
    move: tuple[str, int, MoveRow, Over | None, int | None] | None = None
    kept: Kept | None = None


def fenced(table_id: str, epoch: int | None, fn: Statement) -> Statement:
    """``fn``, a change of the table from a cluster node's copy of ``epoch``, fenced as a move
    is (None: not a cluster's copy, not fenced)."""

    def fenced(conn: Connection) -> Any:
        if epoch is not None:
            hold_epochs(conn, {(table_id, epoch)})
        return fn(conn)

    return fenced


def exists(conn: Connection, table_id: str) -> bool:
    return conn.scalar(select(tables_t.c.id).where(tables_t.c.id == table_id)) is not None


def set_status(conn: Connection, table_id: str, status: str, number: int) -> None:
    conn.execute(
        update(tables_t)
        .where(tables_t.c.id == table_id)
        .values(status=status, game_number=number, updated_at=time.time())
    )


def save_seats(conn: Connection, table_id: str, seats: list[SeatRow]) -> None:
    conn.execute(delete(seats_t).where(seats_t.c.table_id == table_id))
    if seats:
        rows = [{"table_id": table_id, **asdict(s), "player_id": s.player} for s in seats]
        for row in rows:
            del row["player"]
        conn.execute(insert(seats_t), rows)
    conn.execute(
        update(tables_t)
        .where(tables_t.c.id == table_id)
        .values(players=len(seats), updated_at=time.time())
    )


def finish_game(
    conn: Connection, table_id: str, game_number: int, totals: list[int], winners: list[int]
) -> None:
    conn.execute(
        update(games_t)
        .where(match(games_t, table_id=table_id, game_number=game_number))
        .values(
            status="over",
            totals=json.dumps(totals),
            winners=json.dumps(winners),
            finished_at=time.time(),
        )
    )
    set_status(conn, table_id, "over", game_number)


def move_params(table_id: str, game_number: int, move: MoveRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "game_number": game_number,
        "seq": move.seq,
        "seat": move.seat,
        "move": move.move,
        "code": move.code,
        "by": move.by,
        "at": time.time(),
    }


def insert_moves(conn: Connection, params: list[dict[str, Any]]) -> None:
    if params:
        conn.exec_driver_sql(driver_sql(conn, INSERT_MOVES), params)


def hold_epochs(conn: Connection, held: set[tuple[str, int]]) -> None:
    """Check that no other node loaded these tables since their copies of these epochs were,
    and hold their fence rows until the transaction ends (:class:`StaleCopy` otherwise)."""
    if len(held) == 1:
        ((table_id, epoch),) = held
        kept = conn.execute(
            update(fences_t)
            .where((fences_t.c.table_id == table_id) & (fences_t.c.epoch == epoch))
            .values(epoch=epoch)
        )
        if kept.rowcount != 1:
            raise StaleCopy(f"table {table_id} was loaded by another server")
    elif held:
        rows = sorted(held)  # the same order of row locks on every node
        kept = conn.execute(
            update(fences_t)
            .where(tuple_(fences_t.c.table_id, fences_t.c.epoch).in_(rows))
            .values(epoch=fences_t.c.epoch)
            .returning(fences_t.c.table_id, fences_t.c.epoch)
        )
        check_held(held, kept.all())


def check_held(held: set[tuple[str, int]], kept: Any) -> None:
    """:class:`StaleCopy` unless every ``(table_id, epoch)`` of ``held`` came back as held."""
    stale = held - {(str(t), int(e)) for t, e in kept}
    if stale:
        tables = ", ".join(sorted({t for t, _ in stale}))
        raise StaleCopy(f"table(s) {tables} were loaded by another server")


def fenced_moves(conn: Connection, moves: Moves, kept: Sequence[Kept] = ()) -> None:
    """:data:`FENCED_MOVES`: all the moves stored and the parts kept, or none
    (:class:`StaleCopy`)."""
    held = {(t, e) for t, _, _, e in moves if e is not None}
    held |= {(t, e) for t, _, _, e in kept if e is not None}
    parts: dict[str, dict[str, str]] = {}  # a table's row: the last of each part kept
    for table_id, part, value, _ in kept:
        parts.setdefault(table_id, {"id": table_id})[part] = value
    params = {
        "rows": json.dumps([move_params(t, g, m) for t, g, m, _ in moves], separators=(",", ":")),
        "held": json.dumps([{"table_id": t, "epoch": e} for t, e in sorted(held)]),
        "kept": json.dumps(list(parts.values())),
        "count": len(held),
    }
    found = conn.exec_driver_sql(driver_sql(conn, FENCED_MOVES), params)
    check_held(held, found.all())


def batch(conn: Connection, ops: list[Op]) -> list[Any]:
    """Every call in order; consecutive moves go in together, with one statement."""
    results: list[Any] = []
    moves: list[dict[str, Any]] = []
    held: set[tuple[str, int]] = set()
    for op in ops:
        if op.move is not None:
            table_id, game_number, move, over, epoch = op.move
            if epoch is not None:
                held.add((table_id, epoch))
            moves.append(move_params(table_id, game_number, move))
            if over is not None:
                insert_moves(conn, moves)
                moves = []
                finish_game(conn, table_id, game_number, *over)
            results.append(None)
        elif op.kept is not None:
            table_id, part, value, epoch = op.kept
            if epoch is not None:
                held.add((table_id, epoch))
            conn.execute(update(tables_t).where(tables_t.c.id == table_id).values({part: value}))
            results.append(None)
        else:
            assert op.fn is not None
            insert_moves(conn, moves)
            moves = []
            results.append(op.fn(conn))
    insert_moves(conn, moves)
    # The moves are fenced all in one statement, after everything else of the batch: a load's
    # fence among it counts too. Checked before the commit, in the same transaction, the rows
    # stay locked until then, so a load elsewhere either comes before (refused) or waits.
    hold_epochs(conn, held)
    return results


def match(table: Table, **values: Any) -> ColumnElement[bool]:
    """The rows of ``table`` whose columns have these values."""
    return and_(*(table.c[name] == value for name, value in values.items()))


def games_of(conn: Connection, table_id: str, number: int | None = None) -> list[GameRow]:
    """The games of a table in order (only game ``number``, if given)."""
    query = select(games_t).where(games_t.c.table_id == table_id)
    if number is not None:
        query = query.where(games_t.c.game_number == number)
    return [
        GameRow(
            game_number=r["game_number"],
            seed=r["seed"],
            players=json.loads(r["players"]),
            status=r["status"],
            totals=None if r["totals"] is None else json.loads(r["totals"]),
            winners=None if r["winners"] is None else json.loads(r["winners"]),
            started_at=r["started_at"],
            finished_at=r["finished_at"],
        )
        for r in conn.execute(query.order_by(games_t.c.game_number)).mappings()
    ]
