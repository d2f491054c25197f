"""The notes store's tables, as the current migration head leaves them.

Every name is prefixed ``review_`` so that a team's PostgreSQL database can hold
them beside other things. Flags and attempt notes (migration 0001):

* ``review_meta`` — key/value: ``audit_sha256`` and ``audit_name`` of the audit
  file the store was first opened with, ``created_at``.
* ``review_items`` — one row per flag or attempt note: what it concerns, who made
  it and when. Never updated.
* ``review_revisions`` — append-only: every change, with the item's values
  after it. Never updated or deleted.

The independent expert review (migration 0002), append-only like flags:

* ``review_plans`` — one row per plan made (K, order, seed, who made it); the
  newest is the plan in force, older ones stay as history.
* ``review_assignments`` — each plan's (question, reviewer) pairs, with the
  question's place in that reviewer's queue.
* ``review_verdicts`` — one row per (question, reviewer), never updated; its
  values live in ``review_verdict_revisions`` (blind answer, verdict, proposed
  key, confidence, source, note, state after each change).
* ``review_decisions`` / ``review_decision_revisions`` — the adjudicator's
  decision on a question, one row per question, every change a revision.

Reviewer effort (migration 0004), append-only:

* ``review_shown`` — one row each time the desk showed a question to a reviewer
  of it (before their verdict on it was submitted): the start of their active time
  on it. The report sums, per verdict, the time from each showing to the reviewer's
  last change before the next showing, up to the submission.

Lists (blind answers, keys, reviewers) are stored as JSON text.

Every revision table has ``writer_clock`` (migration 0003): ``NULL`` when the
revision's ``at`` is the writer's own clock (SQLite) or the server's ``now()``
(PostgreSQL); otherwise the writer's clock, which was behind the item's latest
revision by more than the allowed skew, so ``at`` is that revision's time plus
1 µs instead (:func:`~.model.after`): history keeps its order, and says so.

The migrations in ``migrations/versions`` create exactly these tables (a test
compares them); this module is what the queries use. Alembic's own version
table is ``review_schema_version``.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

#: Alembic's version table for this store.
VERSION_TABLE: Final = "review_schema_version"
#: The newest migration; a test checks it against the migrations folder.
SCHEMA_HEAD: Final = "0004"

metadata = MetaData()

review_meta = Table(
    "review_meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

review_items = Table(
    "review_items",
    metadata,
    Column("item_id", String(36), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("question_id", Text, nullable=False),
    Column("attempt_id", Integer, nullable=True),
    Column("run_id", Text, nullable=True),
    Column("reviewer", Text, nullable=False),
    Column("created_at", String(27), nullable=False),
    Column("audit_sha256", String(64), nullable=True),
    CheckConstraint("kind IN ('flag', 'attempt_note')", name="ck_review_items_kind"),
    Index("ix_review_items_question", "question_id"),
)

review_revisions = Table(
    "review_revisions",
    metadata,
    Column("revision_id", String(36), primary_key=True),
    Column("item_id", String(36), ForeignKey("review_items.item_id"), nullable=False),
    Column("reviewer", Text, nullable=False),
    Column("at", String(27), nullable=False),
    Column("action", String(16), nullable=False),
    Column("option_pos", Integer, nullable=True),
    Column("category", String(32), nullable=True),
    Column("severity", String(16), nullable=True),
    Column("note", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("changes", Text, nullable=False),
    Column("reverts", String(36), nullable=True),
    Column("writer_clock", String(27), nullable=True),
    Index("ix_review_revisions_item_at", "item_id", "at"),
    Index("ix_review_revisions_reviewer_at", "reviewer", "at"),
)

review_plans = Table(
    "review_plans",
    metadata,
    Column("plan_id", String(36), primary_key=True),
    Column("created_at", String(27), nullable=False),
    Column("created_by", Text, nullable=False),
    Column("per_question", Integer, nullable=False),
    Column("plan_order", String(16), nullable=False),
    Column("seed", Integer, nullable=True),
    Column("reviewers", Text, nullable=False),
    Column("questions", Integer, nullable=False),
    Column("audit_sha256", String(64), nullable=True),
    Index("ix_review_plans_created", "created_at"),
)

review_assignments = Table(
    "review_assignments",
    metadata,
    Column("plan_id", String(36), ForeignKey("review_plans.plan_id"), primary_key=True),
    Column("question_id", Text, primary_key=True),
    Column("reviewer", Text, primary_key=True),
    Column("position", Integer, nullable=False),
    Index("ix_review_assignments_reviewer", "plan_id", "reviewer", "position"),
)

review_verdicts = Table(
    "review_verdicts",
    metadata,
    Column("verdict_id", String(36), primary_key=True),
    Column("question_id", Text, nullable=False),
    Column("reviewer", Text, nullable=False),
    Column("created_at", String(27), nullable=False),
    Column("audit_sha256", String(64), nullable=True),
    UniqueConstraint("question_id", "reviewer", name="uq_review_verdicts_question_reviewer"),
    Index("ix_review_verdicts_reviewer", "reviewer"),
)

review_verdict_revisions = Table(
    "review_verdict_revisions",
    metadata,
    Column("revision_id", String(36), primary_key=True),
    Column("verdict_id", String(36), ForeignKey("review_verdicts.verdict_id"), nullable=False),
    Column("at", String(27), nullable=False),
    Column("action", String(16), nullable=False),
    Column("blind", String(16), nullable=False),
    Column("blind_answer", Text, nullable=True),
    Column("blind_at", String(27), nullable=True),
    Column("verdict", String(32), nullable=True),
    Column("proposed_key", Text, nullable=True),
    Column("confidence", String(16), nullable=True),
    Column("source", Text, nullable=False),
    Column("note", Text, nullable=False),
    Column("state", String(16), nullable=False),
    Column("changes", Text, nullable=False),
    Column("writer_clock", String(27), nullable=True),
    Index("ix_review_verdict_revisions_verdict_at", "verdict_id", "at"),
)

review_decisions = Table(
    "review_decisions",
    metadata,
    Column("decision_id", String(36), primary_key=True),
    Column("question_id", Text, nullable=False, unique=True),
    Column("created_at", String(27), nullable=False),
    Column("audit_sha256", String(64), nullable=True),
)

review_decision_revisions = Table(
    "review_decision_revisions",
    metadata,
    Column("revision_id", String(36), primary_key=True),
    Column("decision_id", String(36), ForeignKey("review_decisions.decision_id"), nullable=False),
    Column("adjudicator", Text, nullable=False),
    Column("at", String(27), nullable=False),
    Column("decision", String(32), nullable=False),
    Column("corrected_key", Text, nullable=True),
    Column("note", Text, nullable=False),
    Column("writer_clock", String(27), nullable=True),
    Index("ix_review_decision_revisions_decision_at", "decision_id", "at"),
)

review_shown = Table(
    "review_shown",
    metadata,
    Column("shown_id", String(36), primary_key=True),
    Column("question_id", Text, nullable=False),
    Column("reviewer", Text, nullable=False),
    Column("at", String(27), nullable=False),
    Column("audit_sha256", String(64), nullable=True),
    Index("ix_review_shown_reviewer_question", "reviewer", "question_id", "at"),
)

#: Tables whose rows no open window shows (the showings: only a report reads them). A write
#: to them changes nothing on screen, so it is not announced to the windows that watch the
#: store (``announce=False``; the SQLite probe leaves them out of its token).
UNSHOWN_TABLES: Final = frozenset({review_shown.name})

#: The review tables in the short names their readers and writers use:
#: ``_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES`` (verdicts and their revisions,
#: decisions and theirs, plans, assignments).
REVIEW_TABLES = (
    review_verdicts,
    review_verdict_revisions,
    review_decisions,
    review_decision_revisions,
    review_plans,
    review_assignments,
)
