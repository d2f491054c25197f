"""The notes list's model: thin (the view asks only for the rows it draws, so thousands of
flags refresh without a pause), sorted by any column and kept sorted through refreshes, a
selected row followed through a sort, a double-click leading to what the row concerns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication

from ai4hse_desk.gui.models.notes_table import NotesTableModel
from ai4hse_desk.gui.views.notes_list import NotesList
from ai4hse_desk.notes import AttemptNote, Flag
from ai4hse_desk.review.list_rows import COLUMNS, note_rows

if TYPE_CHECKING:
    from typing import Any

    from pytestqt.qtbot import QtBot

CATEGORIES = ("key_incorrect", "ambiguous_wording", "typo_or_format", "option_overlap")


def _at(n: int) -> str:
    return f"2026-01-01T00:{n // 60 % 60:02d}:{n % 60:02d}.{n:06d}Z"


def flags(count: int) -> list[Flag]:
    """``count`` flags, the later ones changed later (so listed first)."""
    made = []
    for n in range(count):
        who, at = f"r{n % 7}", _at(n)
        made.append(Flag(f"f{n}", f"Q{n % 997:04d}", None, CATEGORIES[n % 4], "medium",
                         f"note {n}", "open", who, at, who, at))  # fmt: skip
    return made


def notes(*attempts: int) -> list[AttemptNote]:
    return [
        AttemptNote(f"n{a}", a, "run", "Q0001", f"on {a}", "open", "ann", _at(a), "ann", _at(a))
        for a in attempts
    ]


def column(model: NotesTableModel, name: str) -> list[str]:
    return [cells[COLUMNS.index(name)] for cells in model.texts()]


@pytest.mark.usefixtures("qapp")
def test_the_core_order_stands_until_a_header_is_clicked_and_a_sort_outlives_a_refresh() -> None:
    model = NotesTableModel()
    model.set_rows(note_rows(flags(5), []))
    assert column(model, "Note") == ["note 4", "note 3", "note 2", "note 1", "note 0"]
    model.sort(COLUMNS.index("Category"), Qt.SortOrder.AscendingOrder)
    assert column(model, "Category")[:2] == ["Ambiguous wording", "Key incorrect"]
    model.set_rows(note_rows(flags(8), []))  # a refresh: still by category
    shown = column(model, "Category")
    assert shown == sorted(shown, key=str.casefold)
    model.sort(COLUMNS.index("Reviewer"), Qt.SortOrder.DescendingOrder)
    assert column(model, "Reviewer")[0] == "r6"


@pytest.mark.usefixtures("qapp")
def test_attempts_sort_as_numbers_and_rows_without_one_come_first() -> None:
    model = NotesTableModel()
    model.set_rows(note_rows(flags(1), notes(10, 9, 100)))
    model.sort(COLUMNS.index("Attempt"), Qt.SortOrder.AscendingOrder)
    assert column(model, "Attempt") == ["", "9", "10", "100"]
    model.sort(COLUMNS.index("Attempt"), Qt.SortOrder.DescendingOrder)
    assert column(model, "Attempt") == ["100", "10", "9", ""]


def test_a_selected_row_stays_selected_through_a_sort(qtbot: QtBot) -> None:
    listing = NotesList()
    qtbot.addWidget(listing)
    listing.set_items(flags(6), [], has_store=True)
    chosen = listing.model.index(0, 0)
    assert column(listing.model, "Note")[0] == "note 5"
    listing.table.selectionModel().select(
        chosen,
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    listing.table.sortByColumn(COLUMNS.index("Note"), Qt.SortOrder.AscendingOrder)
    (selected,) = {index.row() for index in listing.table.selectionModel().selectedIndexes()}
    assert selected == column(listing.model, "Note").index("note 5") == 5


def test_a_double_click_leads_to_the_question_or_the_attempt(qtbot: QtBot) -> None:
    listing = NotesList()
    qtbot.addWidget(listing)
    listing.set_items(flags(1), notes(42), has_store=True)
    listing.table.sortByColumn(COLUMNS.index("Kind"), Qt.SortOrder.AscendingOrder)
    assert [row[0] for row in listing.row_texts()] == ["attempt note", "flag"]
    with qtbot.waitSignal(listing.attempt_activated) as attempt:
        listing.activate_row(0)
    with qtbot.waitSignal(listing.question_activated) as question:
        listing.activate_row(1)
    assert (attempt.args, question.args) == ([42], ["Q0000"])


class _Counting(NotesTableModel):
    """Counts the rows the view asks to draw."""

    asked: set[int]

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            self.asked.add(index.row())
        return super().data(index, role)


def test_the_view_reads_only_the_rows_it_draws_however_many_flags(qtbot: QtBot) -> None:
    listing = NotesList()
    counting = _Counting(listing)
    counting.asked = set()
    listing.model = counting
    listing.table.setModel(counting)
    qtbot.addWidget(listing)
    listing.resize(1000, 400)
    listing.show()
    qtbot.waitExposed(listing)
    listing.set_items(flags(20_000), [], has_store=True)
    QApplication.processEvents()
    assert listing.count.text() == "20,000 of 20,000 flags and notes"
    assert counting.rowCount() == 20_000
    assert 0 < len(counting.asked) <= 150  # the widths' sample and the rows in sight
    assert isinstance(listing.table.model(), QAbstractTableModel)
