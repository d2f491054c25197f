"""Independent expert review: plans, assignments, verdicts and decisions with revisions.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the review tables of ``ai4hse_desk.notes.schema`` (as of 0002)."""
    op.create_table(
        "review_plans",
        sa.Column("plan_id", sa.String(36), primary_key=True),
        sa.Column("created_at", sa.String(27), nullable=False),
        sa.Column("created_by", sa.Text, nullable=False),
        sa.Column("per_question", sa.Integer, nullable=False),
        sa.Column("plan_order", sa.String(16), nullable=False),
        sa.Column("seed", sa.Integer, nullable=True),
        sa.Column("reviewers", sa.Text, nullable=False),
        sa.Column("questions", sa.Integer, nullable=False),
        sa.Column("audit_sha256", sa.String(64), nullable=True),
    )
    op.create_index("ix_review_plans_created", "review_plans", ["created_at"])
    op.create_table(
        "review_assignments",
        sa.Column(
            "plan_id", sa.String(36), sa.ForeignKey("review_plans.plan_id"), primary_key=True
        ),
        sa.Column("question_id", sa.Text, primary_key=True),
        sa.Column("reviewer", sa.Text, primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
    )
    op.create_index(
        "ix_review_assignments_reviewer",
        "review_assignments",
        ["plan_id", "reviewer", "position"],
    )
    op.create_table(
        "review_verdicts",
        sa.Column("verdict_id", sa.String(36), primary_key=True),
        sa.Column("question_id", sa.Text, nullable=False),
        sa.Column("reviewer", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(27), nullable=False),
        sa.Column("audit_sha256", sa.String(64), nullable=True),
        sa.UniqueConstraint("question_id", "reviewer", name="uq_review_verdicts_question_reviewer"),
    )
    op.create_index("ix_review_verdicts_reviewer", "review_verdicts", ["reviewer"])
    op.create_table(
        "review_verdict_revisions",
        sa.Column("revision_id", sa.String(36), primary_key=True),
        sa.Column(
            "verdict_id",
            sa.String(36),
            sa.ForeignKey("review_verdicts.verdict_id"),
            nullable=False,
        ),
        sa.Column("at", sa.String(27), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("blind", sa.String(16), nullable=False),
        sa.Column("blind_answer", sa.Text, nullable=True),
        sa.Column("blind_at", sa.String(27), nullable=True),
        sa.Column("verdict", sa.String(32), nullable=True),
        sa.Column("proposed_key", sa.Text, nullable=True),
        sa.Column("confidence", sa.String(16), nullable=True),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("changes", sa.Text, nullable=False),
    )
    op.create_index(
        "ix_review_verdict_revisions_verdict_at",
        "review_verdict_revisions",
        ["verdict_id", "at"],
    )
    op.create_table(
        "review_decisions",
        sa.Column("decision_id", sa.String(36), primary_key=True),
        sa.Column("question_id", sa.Text, nullable=False, unique=True),
        sa.Column("created_at", sa.String(27), nullable=False),
        sa.Column("audit_sha256", sa.String(64), nullable=True),
    )
    op.create_table(
        "review_decision_revisions",
        sa.Column("revision_id", sa.String(36), primary_key=True),
        sa.Column(
            "decision_id",
            sa.String(36),
            sa.ForeignKey("review_decisions.decision_id"),
            nullable=False,
        ),
        sa.Column("adjudicator", sa.Text, nullable=False),
        sa.Column("at", sa.String(27), nullable=False),
        sa.Column("decision", sa.String(32), nullable=False),
        sa.Column("corrected_key", sa.Text, nullable=True),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_index(
        "ix_review_decision_revisions_decision_at",
        "review_decision_revisions",
        ["decision_id", "at"],
    )


def downgrade() -> None:
    """Drop everything 0002 made."""
    for table in (
        "review_decision_revisions",
        "review_decisions",
        "review_verdict_revisions",
        "review_verdicts",
        "review_assignments",
        "review_plans",
    ):
        op.drop_table(table)
