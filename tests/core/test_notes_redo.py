"""Issue 14, point 9: undo has a redo, and the history keeps everything."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.imports import import_notes

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB


def test_redo_reapplies_the_last_undone_change(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
    store.edit_flag(flag.flag_id, reviewer="ann", severity="high")
    assert store.redo_last("ann") is None  # nothing undone yet
    store.undo_last("ann")
    assert store.flags()[0].severity == "medium"
    redone = store.redo_last("ann")
    assert redone is not None
    assert redone.action == "undo"  # the undo of the undo: no new kind of revision
    assert dict(redone.changes) == {"severity": ("medium", "high")}
    assert store.flags()[0].severity == "high"
    assert store.redo_last("ann") is None  # the chain is used up
    history = store.history(flag.flag_id)
    assert [r.action for r in history] == ["create", "edit", "undo", "undo"]
    assert history[3].reverts == history[2].revision_id


def test_redo_walks_forward_in_the_order_undo_walked_back(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
    store.edit_flag(flag.flag_id, reviewer="ann", note="b")
    store.edit_flag(flag.flag_id, reviewer="ann", note="c")
    store.undo_last("ann")
    store.undo_last("ann")
    store.undo_last("ann")  # the create: withdrawn
    assert (store.flags()[0].note, store.flags()[0].state) == ("a", "withdrawn")
    store.redo_last("ann")
    assert (store.flags()[0].note, store.flags()[0].state) == ("a", "open")
    store.redo_last("ann")
    assert store.flags()[0].note == "b"
    store.undo_last("ann")  # an undo after a redo undoes the redone change again
    assert store.flags()[0].note == "a"
    store.redo_last("ann")
    store.redo_last("ann")
    assert store.flags()[0].note == "c"
    assert store.redo_last("ann") is None


def test_a_new_change_after_an_undo_clears_the_redo_chain(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
    store.edit_flag(flag.flag_id, reviewer="ann", note="b")
    store.undo_last("ann")
    store.add_attempt_note(attempt_id=2, note="odd", reviewer="ann")  # a new change
    assert store.redo_last("ann") is None
    assert store.flags()[0].note == "a"
    store.undo_last("ann")  # undo still walks back: the note, then the create
    assert store.attempt_notes()[0].state == "withdrawn"


def test_redo_is_per_reviewer(store: NotesStore) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
    store.edit_flag(flag.flag_id, reviewer="ann", note="b")
    store.undo_last("ann")
    store.edit_flag(flag.flag_id, reviewer="bob", severity="low")  # bob's change
    assert store.redo_last("bob") is None
    assert store.redo_last("ann") is not None  # ann's chain is hers
    assert (store.flags()[0].note, store.flags()[0].severity) == ("b", "low")


def test_a_history_with_redos_exports_and_imports(
    store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    flag = store.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
    store.edit_flag(flag.flag_id, reviewer="ann", note="b")
    store.undo_last("ann")
    store.redo_last("ann")
    export_notes(store, "json", tmp_path / "ann.json")
    with NotesStore.open(audit, str(tmp_path / "other.sqlite")) as other:
        import_notes(other, tmp_path / "ann.json")
        assert other.flags()[0].note == "b"
        assert other.redo_last("ann") is None
        other.undo_last("ann")
        assert other.flags()[0].note == "a"
