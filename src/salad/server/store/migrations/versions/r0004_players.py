"""Players the site remembers (#34): ``salad_players``, one row per identity a browser holds in
its signed cookie (:mod:`salad.server.players.identity`): no password, no e-mail.

Revision ID: 0004
Revises: 0003

A seat remembers its player: ``salad_seats.player_id`` (None: a bot, an open seat, a seat
taken before this revision or by a browser with no identity).

``name_key`` is the name folded for comparison (``casefold``): a name is one player's at a time,
whatever its case, and ``/p/{name}`` finds it. A player deleted at their request keeps only its
id (``deleted_at`` set, name and the rest cleared), so the records of finished games that name
the id stay whole and show it anonymised.
"""

from __future__ import annotations

import sqlalchemy as sa

from salad.server.store.migrations.versions import (
    add_columns,
    create_tables,
    drop_columns,
    drop_tables,
)

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None

SEATS = "salad_seats"


def tables() -> list[sa.Table]:
    """The tables of this revision (a metadata of their own, frozen)."""
    meta = sa.MetaData()
    return [
        sa.Table(
            "salad_players",
            meta,
            sa.Column("id", sa.String(32), primary_key=True),
            sa.Column("name", sa.String(64), nullable=True),
            sa.Column("name_key", sa.String(64), nullable=True, unique=True),
            sa.Column("colour", sa.String(16), nullable=False),
            sa.Column("language", sa.String(8), nullable=False),
            sa.Column("created_at", sa.Float, nullable=False),
            sa.Column("seen_at", sa.Float, nullable=False),
            sa.Column("deleted_at", sa.Float, nullable=True),
        )
    ]


def seat_columns() -> list[sa.Column[str]]:
    """The column this revision adds to ``salad_seats``."""
    return [sa.Column("player_id", sa.String(32), nullable=True)]


def upgrade() -> None:
    create_tables(tables())
    add_columns(seat_columns(), SEATS)


def downgrade() -> None:
    drop_columns(seat_columns(), SEATS)
    drop_tables(tables())
