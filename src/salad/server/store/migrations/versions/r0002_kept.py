"""What a table keeps besides its games: its talk and who has pressed Next hand (JSON columns
of ``salad_tables``, None until first kept), which a Redis of the cluster kept before.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa

from salad.server.store.migrations.versions import add_columns, drop_columns

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def columns() -> list[sa.Column[str]]:
    """The columns this revision adds to ``salad_tables``."""
    return [sa.Column(name, sa.Text, nullable=True) for name in ("talk", "pressed")]


def upgrade() -> None:
    add_columns(columns())


def downgrade() -> None:
    drop_columns(columns())
