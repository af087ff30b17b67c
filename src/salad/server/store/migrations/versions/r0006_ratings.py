"""Results, ratings and leaderboards (#34): one row per seat of every finished game
(``salad_results``), each player's rating per ruleset family (``salad_ratings``, with the
rated games of its latest week) and its history (``salad_rating_history``), each player's sums
that a profile shows, kept as their games end (``salad_player_stats``: a profile of 1,000
games reads a few rows, not 1,000), and whether a table's games are rated
(``salad_table_rated``, its own table beside ``salad_tables``).

Revision ID: 0006
Revises: 0005

A pure addition: new tables only, made with ``checkfirst`` (a database whose version table was
lost is upgraded again through every revision).
"""

from __future__ import annotations

import sqlalchemy as sa

from salad.server.store.migrations.versions import create_tables, drop_tables

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def tables() -> list[sa.Table]:
    """The tables of this revision (a metadata of their own, frozen)."""
    meta = sa.MetaData()
    return [
        sa.Table(
            "salad_results",
            meta,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("game_number", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("player_id", sa.String(32), nullable=True),
            sa.Column("bot", sa.String(32), nullable=True),
            sa.Column("name", sa.String(64), nullable=True),
            sa.Column("preset", sa.String(64), nullable=False),
            sa.Column("family", sa.String(32), nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("place", sa.Integer, nullable=False),
            sa.Column("points", sa.Integer, nullable=False),
            sa.Column("hands", sa.Text, nullable=False),
            sa.Column("bots", sa.Text, nullable=False),
            sa.Column("rated", sa.Boolean, nullable=False),
            sa.Column("left", sa.Boolean, nullable=False),
            sa.Column("finished_at", sa.Float, nullable=False),
            sa.Index("salad_results_player", "player_id", "finished_at"),
        ),
        sa.Table(
            "salad_ratings",
            meta,
            sa.Column("player_id", sa.String(32), primary_key=True),
            sa.Column("family", sa.String(32), primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("ordinal", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
            sa.Column("updated_at", sa.Float, nullable=False),
            sa.Column("week", sa.Float, nullable=False),
            sa.Column("week_games", sa.Integer, nullable=False),
            # The boards' indexes: the rows in a board's order, with what filters them.
            sa.Index("salad_ratings_board", "family", "ordinal", "player_id", "games"),
            sa.Index("salad_ratings_week", "family", "week", "ordinal", "player_id", "week_games"),
        ),
        sa.Table(
            "salad_player_stats",
            meta,
            sa.Column("player_id", sa.String(32), primary_key=True),
            sa.Column("kind", sa.String(16), primary_key=True),
            sa.Column("key", sa.String(96), primary_key=True),
            sa.Column("note", sa.String(64), nullable=True),
            sa.Column("n", sa.Integer, nullable=False),
            sa.Column("hits", sa.Integer, nullable=False),
            sa.Column("total", sa.Float, nullable=False),
            sa.Column("squares", sa.Float, nullable=False),
        ),
        sa.Table(
            "salad_rating_history",
            meta,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("player_id", sa.String(32), nullable=False),
            sa.Column("family", sa.String(32), nullable=False),
            sa.Column("table_id", sa.String(32), nullable=False),
            sa.Column("game_number", sa.Integer, nullable=False),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
            sa.Index("salad_rating_history_player", "player_id", "family", "at"),
            sa.Index("salad_rating_history_week", "family", "at"),
        ),
        sa.Table(
            "salad_table_rated",
            meta,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("rated", sa.Boolean, nullable=False),
        ),
    ]


def upgrade() -> None:
    create_tables(tables())


def downgrade() -> None:
    drop_tables(tables())
