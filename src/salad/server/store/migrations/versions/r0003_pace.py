"""A table's pace (``slow``, ``normal`` or ``fast``): how long its bots take a card and how long
a finished trick stays on the table, the host's choice (:mod:`salad.server.tables.pace`).
Tables made before it play at ``normal``, the pace every table had.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa

from salad.server.store.migrations.versions import add_columns, drop_columns

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def columns() -> list[sa.Column[str]]:
    """The column this revision adds to ``salad_tables``."""
    return [sa.Column("pace", sa.String(8), nullable=False, server_default="normal")]


def upgrade() -> None:
    add_columns(columns())


def downgrade() -> None:
    drop_columns(columns())
