"""Submitted review concerns in the notes list (issue 13, item 1): beside the flags, as plain
text, filtered like flags, and a double-click shows their question.

The review is recorded through the store before the window opens (the Review view is
another view's work); drafts and ``key_ok`` verdicts are not concerns and stay out.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.list_rows import COLUMNS, CONCERN, note_rows

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

T, F = "TRUE", "FALSE"
HTML_NOTE = '<b>bold</b> & =HYPERLINK("x")\nsecond line'


def _reviewed_copy(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the demo with a flag, two concerns, a draft and a key_ok verdict."""
    folder = tmp_path / "audit"
    folder.mkdir()
    audit = Path(shutil.copyfile(pristine, folder / "audit.sqlite"))
    with open_audit(audit) as db, NotesStore.open(db) as store:
        store.add_flag(question_id="Q001", category="other", note="a flag", reviewer="ann")
        review = ReviewBook(store)
        review.save_verdict("Q002", "bob", verdict="key_wrong", blind_answer=[T, F, F, F],
                            proposed_key=[F, T, F, F], note=HTML_NOTE)  # fmt: skip
        review.save_verdict("Q003", "ann", verdict="unclear_question", not_blind=True,
                            note="which site?")  # fmt: skip
        review.save_verdict("Q004", "ann", verdict="key_wrong", not_blind=True,
                            proposed_key=[T, T, F, F], note="draft only", submit=False)  # fmt: skip
        review.save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, F, F, F],
                            note="fine")  # fmt: skip
    return audit


def _open(qtbot: QtBot, audit: Path) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1600, 1000)
    win.show()
    assert win.open_path(audit, wait=True)
    win.notes_dock.show()
    assert win.tasks.wait_idle()
    return win


def _column(name: str) -> int:
    return COLUMNS.index(name)


def test_submitted_concerns_are_listed_beside_flags_as_plain_text(
    qtbot: QtBot, pristine: Path, tmp_path: Path
) -> None:
    win = _open(qtbot, _reviewed_copy(pristine, tmp_path))
    notes = win.notes_dock.list
    rows = notes.row_texts()
    kinds = sorted(row[0] for row in rows)
    assert kinds == ["flag", "review concern", "review concern"]
    concerns = {row[_column("Question")]: row for row in rows if row[0] == "review concern"}
    assert set(concerns) == {"Q002", "Q003"}  # not the draft, not key_ok
    bob = concerns["Q002"]
    assert bob[_column("Reviewer")] == "bob"
    assert bob[_column("Verdict")] == "Key wrong"
    # the verdict's own name, not its flag category ("Key incorrect")
    assert bob[_column("Category")] == "Key wrong"
    assert bob[_column("State")] == "submitted"
    assert bob[-1] == '<b>bold</b> & =HYPERLINK("x") ⏎ second line'  # literal, one line
    assert notes.count.text() == "3 of 3 flags, notes and review concerns"
    win.close()


def test_concerns_filter_like_flags_and_open_their_question(
    qtbot: QtBot, pristine: Path, tmp_path: Path
) -> None:
    win = _open(qtbot, _reviewed_copy(pristine, tmp_path))
    notes = win.notes_dock.list

    def shown() -> list[tuple[str, str]]:
        return sorted((row[0], row[_column("Question")]) for row in notes.row_texts())

    notes.kind.setCurrentIndex(notes.kind.findData(CONCERN))
    assert shown() == [("review concern", "Q002"), ("review concern", "Q003")]
    notes.category.setCurrentIndex(notes.category.findData("ambiguous_wording"))
    assert shown() == [("review concern", "Q003")]
    notes.category.setCurrentIndex(0)
    notes.state.setCurrentIndex(notes.state.findData("resolved"))
    assert shown() == []  # a concern counts as an open flag
    notes.state.setCurrentIndex(notes.state.findData("open"))
    notes.reviewer.setCurrentIndex(notes.reviewer.findData("bob"))
    assert shown() == [("review concern", "Q002")]
    notes.activate_row(0)
    assert win.tasks.wait_idle()
    session, attempt_id = win.opening.session, win.selection.attempt_id
    assert session is not None
    assert attempt_id is not None
    attempt = session.attempt(attempt_id)
    assert attempt is not None
    assert attempt.question_id == "Q002"
    win.close()


def test_note_rows_keep_concerns_apart_from_flags_and_notes(pristine: Path, tmp_path: Path) -> None:
    audit = _reviewed_copy(pristine, tmp_path)
    with open_audit(audit) as db, NotesStore.open(db) as store:
        verdicts = ReviewBook(store).all_verdicts()
        flags, notes = store.flags(), store.attempt_notes()
    rows = note_rows(flags, notes, concerns=verdicts)
    assert sorted((r.kind, r.question_id) for r in rows) == [
        ("flag", "Q001"), (CONCERN, "Q002"), (CONCERN, "Q003"),
    ]  # fmt: skip
    assert note_rows(flags, notes, concerns=verdicts, kind="flag")[0].kind == "flag"
    assert note_rows(flags, notes, concerns=verdicts, reviewer="nobody") == []
