"""Undo and redo of note changes: the work on the store, and what the status bar says.

:class:`~.notes_changes.NoteChanges` runs :func:`step` on the store's write lane
and shows :func:`step_message` once it is done. Both walk the reviewer's own
changes only; a redo re-applies what the latest undo took back, until the
reviewer makes a new change (see :func:`ai4hse_desk.notes.writes.redo_last`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai4hse_desk.notes import Revision
    from ai4hse_desk.notes.store import NotesStore

#: What one undo or redo did: the revision appended (``None``: nothing to do), and where.
Step = tuple["Revision | None", str]


def concerning(store: NotesStore, item_id: str) -> str:
    """Where a flag or note is, for messages: ' on Q015', ' on attempt #15' or ''."""
    for flag in store.flags():
        if flag.flag_id == item_id:
            return f" on {flag.question_id}"
    for note in store.attempt_notes():
        if note.note_id == item_id:
            return f" on attempt #{note.attempt_id}"
    return ""


def step(store: NotesStore, reviewer: str, *, redo: bool) -> Step:
    """Undo (or redo) ``reviewer``'s last change on ``store``; the revision and where."""
    revision = store.redo_last(reviewer) if redo else store.undo_last(reviewer)
    return revision, "" if revision is None else concerning(store, revision.item_id)


def step_message(reviewer: str, done: Step, *, redo: bool) -> str:
    """The status bar's line once :func:`step` is done."""
    revision, where = done
    if revision is None:
        return f"Nothing of {reviewer}'s left to {'redo' if redo else 'undo'}."
    changed = ", ".join(revision.changes) or "nothing"
    what = "Redone: {}'s last undone change" if redo else "Undone: {}'s last change"
    return f"{what.format(reviewer)}{where} ({changed}); the history keeps every revision."


__all__ = ["Step", "concerning", "step", "step_message"]
