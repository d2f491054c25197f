"""The independent expert review: plans, blind answers, verdicts, adjudication, report.

A :class:`~.book.ReviewBook` is the review of one audit file, kept in its notes
store (:class:`~ai4hse_desk.notes.store.NotesStore`): plans (:mod:`.plan`),
verdicts and decisions with their append-only history (:mod:`.writes`), the rules
every client meets (:mod:`.rules`), status and agreement (:mod:`.status`,
:mod:`.agreement`) and the report (:mod:`.report`). The whole store — flags,
notes and the review — is exchanged as one export (:mod:`.exports`) and merged
back (:mod:`.imports`). No official score ever depends on the review.

This face holds the light names only (the values and records); the book, the
exchange and the report are imported from their modules, so that importing a
value loads no SQLAlchemy.
"""

from __future__ import annotations

from ai4hse_desk.review.records import Decision, ReviewVerdict, StoredPlan
from ai4hse_desk.review.values import (
    CONCERNS,
    DECISIONS,
    VERDICTS,
    Answer,
)

__all__ = ["CONCERNS", "DECISIONS", "VERDICTS", "Answer", "Decision", "ReviewVerdict", "StoredPlan"]
