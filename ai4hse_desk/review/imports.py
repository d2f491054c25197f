"""Merge another reviewer's JSON export (:mod:`.exports`) into a notes store.

The file is read only if it is a regular file, as strict JSON (:mod:`.import_file`);
then every field is checked (:mod:`.import_check`): types, enums, UUIDs, real
times not in the future, that the parts of each item agree, and that each
question, option and attempt exists in *this* audit database. The whole file is
refused on the first problem, named by its JSON path; otherwise the items and
revisions whose UUIDs the store does not hold yet — and the review's plans,
verdicts, decisions and their revisions (:mod:`.merge`, whose merge
rules keep one verdict per reviewer and question, the blind answers and the
independent adjudication) — are added in one transaction: a file refused there
adds nothing at all. Importing the same file twice adds nothing; importing two
reviewers' files in either order gives the same store. What ``notes import``
prints counts what was added, never what it says. An export made from another audit file (other
sha256) is imported with a warning. Private texts in the file (question text …)
are checked as text and ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.notes import writes
from ai4hse_desk.notes.import_fields import located
from ai4hse_desk.notes.import_file import load_json
from ai4hse_desk.review.import_whole import ExportChecker
from ai4hse_desk.review.merge import MergeCounts, merge_review

if TYPE_CHECKING:
    import os

    from sqlalchemy.engine import Connection

    from ai4hse_desk.notes.store import NotesStore


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import found and added."""

    source: str
    flags: int
    attempt_notes: int
    revisions: int
    items_added: int
    revisions_added: int
    warnings: tuple[str, ...] = ()
    plans: int = 0
    verdicts: int = 0
    decisions: int = 0
    review_added: MergeCounts = field(default_factory=MergeCounts)

    def to_json(self) -> dict[str, object]:
        """The JSON ``notes import`` prints."""
        return {
            "source": self.source,
            "flags": self.flags,
            "attempt_notes": self.attempt_notes,
            "revisions": self.revisions,
            "items_added": self.items_added,
            "revisions_added": self.revisions_added,
            "plans": self.plans,
            "verdicts": self.verdicts,
            "decisions": self.decisions,
            "plans_added": self.review_added.plans,
            "verdicts_added": self.review_added.verdicts,
            "verdict_revisions_added": self.review_added.verdict_revisions,
            "decisions_added": self.review_added.decisions,
            "decision_revisions_added": self.review_added.decision_revisions,
            "warnings": list(self.warnings),
        }


def import_notes(store: NotesStore, path: str | os.PathLike[str]) -> ImportResult:
    """Merge the JSON export at ``path`` into ``store``; idempotent.

    Raises:
        ReviewError: not a regular file, unreadable, not strict JSON, wrong format
            or version, any field that is wrong or does not fit this audit database
            (``FILE: JSON.PATH: problem``), an item that differs from the one
            with its id in the store, or a review merge rule broken; nothing is
            imported then.
    """
    source = Path(path)
    doc = load_json(source)
    with located(source.name):
        checked = ExportChecker(store).document(doc)
    warnings = []
    if checked.audit_sha256 != store.audit_sha256:
        warnings.append(
            f"{source.name} was exported from another audit file (sha256 "
            f"{checked.audit_sha256[:16]}…); this one is sha256 {store.audit_sha256[:16]}…"
        )

    def merge(conn: Connection) -> tuple[tuple[int, int], MergeCounts]:
        flags = writes.merge(conn, checked.items, checked.revisions)
        return flags, merge_review(conn, checked.review)

    with located(source.name):
        (added_items, added_revisions), review = store.run(merge, write=True)
    return ImportResult(
        source=str(source),
        flags=checked.counts["flags"],
        attempt_notes=checked.counts["attempt_notes"],
        revisions=len(checked.revisions),
        items_added=added_items,
        revisions_added=added_revisions,
        warnings=tuple(warnings),
        plans=len(checked.review.plans),
        verdicts=len(checked.review.verdicts),
        decisions=len(checked.review.decisions),
        review_added=review,
    )
