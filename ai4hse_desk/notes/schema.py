"""The notes store's tables, as the current migration head leaves them.

Three tables, every name prefixed ``review_`` so that a team's PostgreSQL
database can hold them beside other things:

* ``review_meta`` — key/value: ``audit_sha256`` and ``audit_name`` of the audit
  file the store was first opened with, ``created_at``.
* ``review_items`` — one row per flag or attempt note: what it concerns, who made
  it and when. Never updated.
* ``review_revisions`` — append-only: every change, with the item's values
  after it. Never updated or deleted.

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
)

#: Alembic's version table for this store.
VERSION_TABLE: Final = "review_schema_version"
#: The newest migration; a test checks it against the migrations folder.
SCHEMA_HEAD: Final = "0001"

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
    Index("ix_review_revisions_item_at", "item_id", "at"),
    Index("ix_review_revisions_reviewer_at", "reviewer", "at"),
)
