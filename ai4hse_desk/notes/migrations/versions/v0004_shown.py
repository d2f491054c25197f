"""Reviewer effort: when the desk showed a question to a reviewer (append-only).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create ``review_shown`` of ``ai4hse_desk.notes.schema`` (as of 0004)."""
    op.create_table(
        "review_shown",
        sa.Column("shown_id", sa.String(36), primary_key=True),
        sa.Column("question_id", sa.Text, nullable=False),
        sa.Column("reviewer", sa.Text, nullable=False),
        sa.Column("at", sa.String(27), nullable=False),
        sa.Column("audit_sha256", sa.String(64), nullable=True),
    )
    op.create_index(
        "ix_review_shown_reviewer_question", "review_shown", ["reviewer", "question_id", "at"]
    )


def downgrade() -> None:
    """Drop everything 0003 made."""
    op.drop_table("review_shown")
