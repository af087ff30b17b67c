"""Alembic's environment for the SQL store: it migrates on the connection it is given
(``config.attributes["connection"]``, see :func:`salad.server.store.migrate.upgrade`), in that
connection's transaction."""

from __future__ import annotations

from alembic import context

from salad.server.store.schema import metadata


def run() -> None:
    conn = context.config.attributes["connection"]
    context.configure(connection=conn, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file with its context set up; imported any other way (a test collector
# reading every module), it does nothing.
if getattr(context, "config", None) is not None:
    run()
