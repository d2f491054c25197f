"""Alembic environment: migrate the connection the backend passes in.

The backend opens the connection, begins a transaction and takes the
migration lock before calling ``alembic.command.upgrade``; Alembic sees the
transaction as external and runs every migration inside it, so the schema
changes commit together (SQLite and PostgreSQL both have transactional DDL).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from ai4hse_desk.notes.schema import VERSION_TABLE, metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("the notes store migrations run only from ai4hse_desk.notes.backend")
context.configure(
    connection=connection,
    target_metadata=metadata,
    version_table=VERSION_TABLE,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
