"""The store's Alembic revisions, oldest first, and what the later ones share."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

TABLES = "salad_tables"


def add_columns(columns: list[sa.Column[str]], table: str = TABLES) -> None:
    """Add to ``table`` those of ``columns`` it lacks: a database whose version table was lost
    (stamped at 0001 as made before the migrations) may have them."""
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}
    for column in columns:
        if column.name not in have:
            op.add_column(table, column)


def drop_columns(columns: list[sa.Column[str]], table: str = TABLES) -> None:
    with op.batch_alter_table(table) as batch:  # SQLite: the table made again
        for column in columns:
            batch.drop_column(column.name)


def create_tables(tables: list[sa.Table]) -> None:
    """Make ``tables`` in order, those the database lacks (checkfirst: one whose version table
    was lost has them)."""
    for table in tables:
        table.create(op.get_bind(), checkfirst=True)


def drop_tables(tables: list[sa.Table]) -> None:
    """Drop ``tables``, the last made first."""
    for table in reversed(tables):
        op.drop_table(table.name)
