"""The first schema: the tables as the server made them before its migrations existed.

Revision ID: 0001
Revises: (none)

Frozen here as they were: later changes of the schema are revisions of their own. Each table
and index is made only if the database lacks it, so a database made by the server before its
migrations (which has them, or an older part of them) is brought to this revision in place.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def tables() -> list[sa.Table]:
    """The tables of this revision (a metadata of their own, frozen)."""
    meta = sa.MetaData()
    return [
        sa.Table(
            "salad_tables",
            meta,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("preset", sa.String(64), nullable=False),
            sa.Column("settings", sa.Text, nullable=False),
            sa.Column("players", sa.Integer, nullable=False),
            sa.Column("turn_timer", sa.Float, nullable=True),
            sa.Column("bot_takeover", sa.Float, nullable=True),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("game_number", sa.Integer, nullable=False),
            sa.Column("seed", sa.BigInteger, nullable=True),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("updated_at", sa.Float, nullable=False),
            sa.Index("ix_salad_tables_status", "status"),
        ),
        sa.Table(
            "salad_seats",
            meta,
            sa.Column(
                "table_id", sa.String(32), sa.ForeignKey("salad_tables.id"), primary_key=True
            ),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("kind", sa.String(8), nullable=False),
            sa.Column("name", sa.String(64), nullable=True),
            sa.Column("bot", sa.String(32), nullable=True),
            sa.Column("token_hash", sa.String(64), nullable=True),
        ),
        sa.Table(
            "salad_games",
            meta,
            sa.Column(
                "table_id", sa.String(32), sa.ForeignKey("salad_tables.id"), primary_key=True
            ),
            sa.Column("game_number", sa.Integer, primary_key=True),
            sa.Column("seed", sa.BigInteger, nullable=False),
            sa.Column("players", sa.Text, nullable=False),
            sa.Column("status", sa.String(16), nullable=False),
            sa.Column("totals", sa.Text, nullable=True),
            sa.Column("winners", sa.Text, nullable=True),
            sa.Column("started_at", sa.Float, nullable=False),
            sa.Column("finished_at", sa.Float, nullable=True),
        ),
        sa.Table(
            "salad_moves",
            meta,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("game_number", sa.Integer, primary_key=True),
            sa.Column("seq", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("move", sa.Integer, nullable=False),
            sa.Column("code", sa.String(16), nullable=False),
            sa.Column("by", sa.String(16), nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        ),
        sa.Table(
            "salad_fences",
            meta,
            sa.Column("table_id", sa.String(32), primary_key=True),
            sa.Column("epoch", sa.Integer, nullable=False),
        ),
        sa.Table(
            "salad_reviews",
            meta,
            sa.Column(
                "table_id", sa.String(32), sa.ForeignKey("salad_tables.id"), primary_key=True
            ),
            sa.Column("game_number", sa.Integer, primary_key=True),
            sa.Column("seat", sa.Integer, primary_key=True),
            sa.Column("worlds", sa.Integer, primary_key=True),
            sa.Column("review", sa.Text, nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
        ),
    ]


def upgrade() -> None:
    bind = op.get_bind()
    for table in tables():  # in order: a table before the tables that refer to it
        table.create(bind, checkfirst=True)
        for index in table.indexes:  # indexes added since a database was made
            index.create(bind, checkfirst=True)


def downgrade() -> None:
    bind = op.get_bind()
    for table in reversed(tables()):
        table.drop(bind, checkfirst=True)
