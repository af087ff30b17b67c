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
from alembic import op

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
    for table in tables():  # checkfirst: a database whose version table was lost has them
        table.create(op.get_bind(), checkfirst=True)
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns(SEATS)}
    for column in seat_columns():
        if column.name not in have:
            op.add_column(SEATS, column)


def downgrade() -> None:
    with op.batch_alter_table(SEATS) as batch:  # SQLite: the table made again
        for column in seat_columns():
            batch.drop_column(column.name)
    for table in reversed(tables()):
        op.drop_table(table.name)
