"""The notes store as the window's ``"notes"`` lane uses it: opened on first use, read whole.

Everything here runs on the lane's worker thread (the window's task runner
keeps the lane's tasks in order), never on the GUI thread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.workers.task import failure_text
from ai4hse_desk.notes import AttemptNote, Flag, NotesStore, ReviewError

if TYPE_CHECKING:
    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.notes.review_records import ReviewVerdict

LANE = "notes"
#: What a store may raise: a reviewer's problem, a database refusing, a file system refusing.
STORE_ERRORS = (ReviewError, SQLAlchemyError, OSError)


def store_problem(exc: BaseException) -> str:
    """The line a store's refusal is told in: the database's own first line."""
    return first_line(exc) if isinstance(exc, STORE_ERRORS) else failure_text(exc)


class StoreHolder:
    """The store of one audit file, opened on first use; used on the notes lane only."""

    def __init__(self, db: AuditDB) -> None:
        self.db = db
        self.store: NotesStore | None = None
        self.open_error: str | None = None  # why it could not be opened

    def opened(self) -> NotesStore:
        """The store, opened (created and migrated if need be) now if not yet open."""
        if self.store is None:
            try:
                self.store = NotesStore.open(self.db)
            except STORE_ERRORS as exc:
                self.open_error = store_problem(exc)
                raise
        return self.store

    def close(self) -> None:
        """Release the store's connections (once the lane is idle)."""
        if self.store is not None:
            self.store.close()
            self.store = None


@dataclass(frozen=True)
class NotesSnapshot:
    """What one read of the store shows: the marks, the panel's items, the list."""

    flagged: frozenset[str]
    flags: list[Flag]
    notes: list[AttemptNote]
    every_flag: list[Flag] | None  # for the notes list, when it is shown
    every_note: list[AttemptNote] | None
    #: The submitted review concerns (verdicts other than key_ok), for the notes list.
    every_concern: list[ReviewVerdict] | None = None


def read_snapshot(
    store: NotesStore | None, question_id: str | None, attempt_id: int | None, with_list: bool
) -> NotesSnapshot:
    """Read what the window shows of ``store`` (``None``: no store yet, nothing to read)."""
    if store is None:
        return NotesSnapshot(
            frozenset(), [], [], [] if with_list else None, [] if with_list else None
        )
    return NotesSnapshot(
        frozenset(store.flagged_question_ids()),
        [] if question_id is None else store.flags(question_id=question_id),
        [] if attempt_id is None else store.attempt_notes(attempt_id=attempt_id),
        store.flags() if with_list else None,
        store.attempt_notes() if with_list else None,
        [v for v in store.review.all_verdicts() if v.concern] if with_list else None,
    )


__all__ = [
    "LANE",
    "STORE_ERRORS",
    "NotesSnapshot",
    "StoreHolder",
    "read_snapshot",
    "store_problem",
]
