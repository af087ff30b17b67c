"""Groups (#34): a family or a club, its members, the score sheets of its real-card games, and
the tables made for it.

Revision ID: 0007
Revises: 0006

* ``salad_groups``: its name, its owner (a player id) and its invite code (the owner may make
  a new one, which voids the old);
* ``salad_group_members``: who belongs to it, since when;
* ``salad_group_sheets``: a ``salad-score/1`` sheet attached to it, with the member each of
  its names is (``members``: a JSON list by seat, None for a guest) and when it was played;
* ``salad_tables.group_id``: the group a table was made for (None: anyone's table).

A pure addition: new tables (``checkfirst``) and one nullable column (added only if missing),
so a database whose version table was lost is upgraded again without harm.
"""

from __future__ import annotations

import sqlalchemy as sa

from salad.server.store.migrations.versions import (
    add_columns,
    create_tables,
    drop_columns,
    drop_tables,
)

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def tables() -> list[sa.Table]:
    """The tables of this revision (a metadata of their own, frozen)."""
    meta = sa.MetaData()
    return [
        sa.Table(
            "salad_groups",
            meta,
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("name", sa.String(64), nullable=False),
            sa.Column("owner_id", sa.String(32), nullable=True),
            sa.Column("code", sa.String(32), nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
        ),
        sa.Table(
            "salad_group_members",
            meta,
            sa.Column("group_id", sa.String(16), primary_key=True),
            sa.Column("player_id", sa.String(32), primary_key=True, index=True),
            sa.Column("joined_at", sa.Float, nullable=False),
        ),
        sa.Table(
            "salad_group_sheets",
            meta,
            sa.Column("id", sa.String(16), primary_key=True),
            sa.Column("group_id", sa.String(16), nullable=False, index=True),
            sa.Column("added_by", sa.String(32), nullable=True),
            sa.Column("sheet", sa.Text, nullable=False),
            sa.Column("members", sa.Text, nullable=False),
            sa.Column("played_at", sa.Float, nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
        ),
    ]


def columns() -> list[sa.Column[str]]:
    """The column this revision adds to ``salad_tables``."""
    return [sa.Column("group_id", sa.String(16), nullable=True)]


def upgrade() -> None:
    create_tables(tables())
    add_columns(columns())


def downgrade() -> None:
    drop_columns(columns())
    drop_tables(tables())
