"""The store's Alembic revisions, oldest first, and what the later ones share."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

TABLES = "salad_tables"


def add_columns(columns: list[sa.Column[str]]) -> None:
    """Add to ``salad_tables`` those of ``columns`` it lacks: a database whose version table
    was lost (stamped at 0001 as made before the migrations) may have them."""
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(TABLES)}
    for column in columns:
        if column.name not in have:
            op.add_column(TABLES, column)


def drop_columns(columns: list[sa.Column[str]]) -> None:
    with op.batch_alter_table(TABLES) as batch:  # SQLite: the table made again
        for column in columns:
            batch.drop_column(column.name)
