"""Alembic's environment for the SQL store: it migrates on the connection it is given
(``config.attributes["connection"]``, see :func:`salad.server.store.connections.upgrade`), in
that connection's transaction."""

from __future__ import annotations

from alembic import context

# Alembic runs this file with its context set up; imported any other way (a test collector
# reading every module), it does nothing.
if getattr(context, "config", None) is not None:
    context.configure(connection=context.config.attributes["connection"])
    with context.begin_transaction():
        context.run_migrations()
