"""The SQL store's schema brought up to date at start, by Alembic's migrations
(``migrations/versions``), with a configuration made here: no alembic.ini is needed.

A database made before the migrations existed (its tables there, no ``alembic_version``) is
recognised: the first revision makes only what it lacks of that revision's schema, and Alembic
stamps it so; later revisions then upgrade it like any other. On PostgreSQL an advisory lock
held for the transaction makes the nodes of a cluster starting together upgrade one after the
other (the first does it, the others find it done).
"""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, inspect, text

__all__ = ["MIGRATIONS", "upgrade"]

log = logging.getLogger("salad.server")

MIGRATIONS = Path(__file__).with_name("migrations")
"""Alembic's script directory: ``env.py`` and ``versions/``."""

LOCK = 7261
"""The PostgreSQL advisory lock held while the schema is upgraded."""


def config(conn: Connection) -> Config:
    """Alembic's configuration for migrating the database of ``conn`` (in its transaction)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def upgrade(conn: Connection) -> None:
    """Bring the database of ``conn`` to the newest revision, in the transaction of ``conn``
    (for the asyncio engine: ``await connection.run_sync(upgrade)``)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": LOCK})
    tables = set(inspect(conn).get_table_names())
    if "salad_tables" in tables and "alembic_version" not in tables:
        log.info("database made before its migrations: stamped at the first revision")
    command.upgrade(config(conn), "head")
