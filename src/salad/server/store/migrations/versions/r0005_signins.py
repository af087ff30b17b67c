"""Sign-in codes (#34): a player opens their identity on another device with a short code (or
its link ``/signin/CODE``) they made on the first one (:mod:`salad.server.store.signins`).

Revision ID: 0005
Revises: 0004

Only the code's SHA-256 is stored (``code_hash``), never the code: a copy of the database signs
no one in. A code is used once (``used_at``), until ``expires_at``, unless revoked first
(``revoked_at``); ``id`` names it to its player (listed, revoked) without being it.
"""

from __future__ import annotations

import sqlalchemy as sa

from salad.server.store.migrations.versions import create_tables, drop_tables

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def tables() -> list[sa.Table]:
    """The tables of this revision (a metadata of their own, frozen)."""
    meta = sa.MetaData()
    return [
        sa.Table(
            "salad_signins",
            meta,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("player_id", sa.String(32), nullable=False, index=True),
            sa.Column("code_hash", sa.String(64), nullable=False, unique=True),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("expires_at", sa.Float, nullable=False),
            sa.Column("used_at", sa.Float, nullable=True),
            sa.Column("revoked_at", sa.Float, nullable=True),
        )
    ]


def upgrade() -> None:
    create_tables(tables())


def downgrade() -> None:
    drop_tables(tables())
