"""Initial notes store: meta, items, append-only revisions.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the three tables of ``ai4hse_desk.notes.schema`` (as of 0001)."""
    op.create_table(
        "review_meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "review_items",
        sa.Column("item_id", sa.String(36), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("question_id", sa.Text, nullable=False),
        sa.Column("attempt_id", sa.Integer, nullable=True),
        sa.Column("run_id", sa.Text, nullable=True),
        sa.Column("reviewer", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(27), nullable=False),
        sa.Column("audit_sha256", sa.String(64), nullable=True),
        sa.CheckConstraint("kind IN ('flag', 'attempt_note')", name="ck_review_items_kind"),
    )
    op.create_index("ix_review_items_question", "review_items", ["question_id"])
    op.create_table(
        "review_revisions",
        sa.Column("revision_id", sa.String(36), primary_key=True),
        sa.Column("item_id", sa.String(36), sa.ForeignKey("review_items.item_id"), nullable=False),
        sa.Column("reviewer", sa.Text, nullable=False),
        sa.Column("at", sa.String(27), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("option_pos", sa.Integer, nullable=True),
        sa.Column("category", sa.String(32), nullable=True),
        sa.Column("severity", sa.String(16), nullable=True),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("changes", sa.Text, nullable=False),
        sa.Column("reverts", sa.String(36), nullable=True),
    )
    op.create_index("ix_review_revisions_item_at", "review_revisions", ["item_id", "at"])
    op.create_index("ix_review_revisions_reviewer_at", "review_revisions", ["reviewer", "at"])


def downgrade() -> None:
    """Drop everything 0001 made."""
    op.drop_table("review_revisions")
    op.drop_table("review_items")
    op.drop_table("review_meta")
