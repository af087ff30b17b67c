"""What a table keeps besides its games: its talk and who has pressed Next hand (JSON columns
of ``salad_tables``, None until first kept), which a Redis of the cluster kept before.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def columns() -> list[sa.Column[str]]:
    """The columns this revision adds to ``salad_tables``."""
    return [sa.Column(name, sa.Text, nullable=True) for name in ("talk", "pressed")]


def upgrade() -> None:
    # Only the columns it lacks: a database whose version table was lost (stamped at 0001 as
    # made before the migrations) may have them.
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("salad_tables")}
    for column in columns():
        if column.name not in have:
            op.add_column("salad_tables", column)


def downgrade() -> None:
    with op.batch_alter_table("salad_tables") as batch:  # SQLite: the table made again
        for column in columns():
            batch.drop_column(column.name)
