"""The SQL store's tables as they are now (the migrations in ``migrations/versions`` make them).

* ``salad_tables``: one row per table: ruleset (preset + settings JSON), player count, timers,
  status, the number of the current game, and what the table keeps besides its games (JSON,
  :data:`~.rows.KEPT`): its talk and who has pressed Next hand;
* ``salad_seats``: one row per seat: kind (``human``, ``bot``, ``open``), display name, bot name
  and the SHA-256 hash of the seat's secret token (never the token itself);
* ``salad_games``: one row per game played at a table: its seed, the seats as they were at the
  start (names for the record), status, totals and winners;
* ``salad_moves``: every accepted move of every game, numbered from 1 (``seq``);
* ``salad_fences``: a cluster's fencing epochs, one per table a cluster node has loaded;
* ``salad_reviews``: a finished game's review of one seat, per world count.

A game is rebuilt from its seed and its moves (``Game(ruleset, players, seed)`` and then every
move in order), so nothing else about a game's state is stored.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = ["fences_t", "games_t", "metadata", "moves_t", "reviews_t", "seats_t", "tables_t"]

metadata = MetaData()

tables_t = Table(
    "salad_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("preset", String(64), nullable=False),
    Column("settings", Text, nullable=False),
    Column("players", Integer, nullable=False),
    Column("turn_timer", Float, nullable=True),
    Column("bot_takeover", Float, nullable=True),
    Column("status", String(16), nullable=False),
    Column("game_number", Integer, nullable=False),
    Column("seed", BigInteger, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("talk", Text, nullable=True),
    Column("pressed", Text, nullable=True),
    # The tables being played, found without reading every table ever made: a server
    # resumes them at start-up, and each cluster node looks for those no node holds every
    # second (without it, 14 ms of PostgreSQL's time a look at 300 000 tables, 30 ms on SQLite).
    Index("ix_salad_tables_status", "status"),
)

seats_t = Table(
    "salad_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("salad_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(64), nullable=True),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

games_t = Table(
    "salad_games",
    metadata,
    Column("table_id", String(32), ForeignKey("salad_tables.id"), primary_key=True),
    Column("game_number", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("players", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("totals", Text, nullable=True),
    Column("winners", Text, nullable=True),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)

moves_t = Table(
    "salad_moves",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game_number", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", Integer, nullable=False),
    Column("code", String(16), nullable=False),
    Column("by", String(16), nullable=False),
    Column("at", Float, nullable=False),
)

fences_t = Table(
    "salad_fences",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("epoch", Integer, nullable=False),
)

reviews_t = Table(
    "salad_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("salad_tables.id"), primary_key=True),
    Column("game_number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("worlds", Integer, primary_key=True),
    Column("review", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)
