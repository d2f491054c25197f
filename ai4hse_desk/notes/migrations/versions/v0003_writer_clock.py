"""Revisions record the writer's clock when the history's order overruled it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

_TABLES = ("review_revisions", "review_verdict_revisions", "review_decision_revisions")


def upgrade() -> None:
    """Add the nullable ``writer_clock`` to every revision table (existing rows: NULL)."""
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("writer_clock", sa.String(27), nullable=True))


def downgrade() -> None:
    """Drop ``writer_clock`` again (tests step back through the migrations)."""
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("writer_clock")
