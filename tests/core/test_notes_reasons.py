"""Issue 14, point 9: Resolve and Withdraw take a reason, recorded in the state revision."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.imports import import_notes

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB


def test_a_reason_is_appended_to_the_note_in_the_state_revision(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="vague", reviewer="ann")
    done = store.set_flag_state(flag.flag_id, "resolved", reviewer="bob", reason="key fixed")
    assert (done.state, done.note) == ("resolved", "vague\n— resolved: key fixed")
    last = store.history(flag.flag_id)[-1]
    assert last.action == "state"
    assert dict(last.changes) == {
        "state": ("open", "resolved"),
        "note": ("vague", "vague\n— resolved: key fixed"),
    }
    assert store.undo_last("bob") is not None  # one undo takes back the state and its reason
    back = store.flags()[0]
    assert (back.state, back.note) == ("open", "vague")


def test_a_reason_on_an_empty_note_and_on_an_attempt_note(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q002", category="key_incorrect", note="", reviewer="ann")
    gone = store.set_flag_state(flag.flag_id, "withdrawn", reviewer="ann", reason="my mistake")
    assert gone.note == "— withdrawn: my mistake"
    note = store.add_attempt_note(attempt_id=2, note="odd", reviewer="ann")
    fine = store.set_attempt_note_state(note.note_id, "resolved", reviewer="ann", reason="ok")
    assert (fine.state, fine.note) == ("resolved", "odd\n— resolved: ok")


def test_no_reason_and_a_blank_reason_leave_the_note(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="n", reviewer="ann")
    store.set_flag_state(flag.flag_id, "resolved", reviewer="ann", reason="  ")
    assert dict(store.history(flag.flag_id)[-1].changes) == {"state": ("open", "resolved")}
    again = store.set_flag_state(flag.flag_id, "resolved", reviewer="ann", reason="why")
    assert again.note == "n"  # no state change: nothing recorded, no reason either
    assert len(store.history(flag.flag_id)) == 2


def test_a_reason_that_makes_the_note_too_long_is_refused(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="x" * 19_990, reviewer="a")
    with pytest.raises(ReviewError, match="limited"):
        store.set_flag_state(flag.flag_id, "resolved", reviewer="a", reason="y" * 20)
    assert store.flags()[0].state == "open"


def test_an_export_with_reasons_imports_into_another_store(
    store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="vague", reviewer="ann")
    store.set_flag_state(flag.flag_id, "resolved", reviewer="ann", reason="reworded")
    export_notes(store, "json", tmp_path / "ann.json")
    with NotesStore.open(audit, str(tmp_path / "other.sqlite")) as other:
        import_notes(other, tmp_path / "ann.json")
        assert other.flags()[0].note == "vague\n— resolved: reworded"
