"""One opened audit database with its review index (Qt-free state the window holds).

Opening is quick (schema checks only); the review index is either found in the
cache (keyed by the audit fingerprint) or built by the caller in the
background. Everything here reads; nothing writes the audit file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.audit import AuditDB, open_audit

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit.records import Attempt, Question, Run
    from ai4hse_desk.index import ReviewIndex


@dataclass
class AuditSession:
    """An open audit database, its runs and questions, and (once built) its index."""

    db: AuditDB
    index: ReviewIndex | None = None
    runs: dict[str, Run] = field(default_factory=dict)
    questions: dict[str, Question] = field(default_factory=dict)
    by_ordinal: dict[int, Question] = field(default_factory=dict)

    @classmethod
    def open(cls, path: str | Path) -> AuditSession:
        """Open ``path`` read-only (raises ``AuditError`` with a one-line reason)."""
        db = open_audit(path)
        try:
            runs = {run.run_id: run for run in db.runs()}
            questions = {q.question_id: q for q in db.questions()}
        except Exception:
            db.close()
            raise
        return cls(
            db=db,
            runs=runs,
            questions=questions,
            by_ordinal={q.ordinal: q for q in questions.values()},
        )

    @property
    def path(self) -> Path:
        """The audit file."""
        return self.db.path

    def attempt(self, attempt_id: int) -> Attempt | None:
        """The full attempt (raw response included)."""
        found = self.db.attempts_by_ids([attempt_id])
        return found[0] if found else None

    def close(self) -> None:
        """Close the index and the database."""
        if self.index is not None:
            self.index.close()
            self.index = None
        self.db.close()
