"""Every revision of one flag or note: who, when, what changed; the full values below."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.note_text import CELL_TEXT, format_time, one_line
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.plain_text import title_text
from ai4hse_desk.gui.widgets.labels import table_texts
from ai4hse_desk.notes.model import FLAG_FIELDS, Value, flag_value_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.notes import Revision


def format_value(name: str, value: Value, limit: int = CELL_TEXT) -> str:
    """One field's value as the history shows it (a note quoted, on one line)."""
    if name == "note" and value is not None:
        return f"“{one_line(str(value), limit)}”"
    return display_text(flag_value_text(name, value))


_ACTIONS: Final = {"create": "created", "edit": "edited", "state": "state changed", "undo": "undo"}


def _field_rank(name: str) -> int:
    """Fields in the order the dialog asks for them (option, category, … state)."""
    return FLAG_FIELDS.index(name) if name in FLAG_FIELDS else len(FLAG_FIELDS)


def revision_rows(revisions: Sequence[Revision]) -> list[tuple[str, str, str, str]]:
    """(when, reviewer, action, what changed) per revision, oldest first."""
    by_id = {rev.revision_id: rev for rev in revisions}
    rows = []
    for rev in revisions:
        action = _ACTIONS.get(rev.action, rev.action)
        reverted = by_id.get(rev.reverts) if rev.reverts is not None else None
        if rev.action == "undo" and reverted is not None:
            # An undo of an undo is a redo: name the change it re-applies.
            redone = by_id.get(reverted.reverts or "") if reverted.action == "undo" else None
            action = (
                f"undo of the change at {format_time(reverted.at)}"
                if redone is None
                else f"redo of the change at {format_time(redone.at)}"
            )
        changes = sorted(rev.changes.items(), key=lambda change: _field_rank(change[0]))
        if rev.action == "create":
            changed = "; ".join(f"{k}: {format_value(k, new)}" for k, (_, new) in changes)
        else:
            changed = "; ".join(
                f"{k}: {format_value(k, old)} → {format_value(k, new)}" for k, (old, new) in changes
            )
        rows.append((format_time(rev.at), display_text(rev.reviewer), action, changed or "—"))
    return rows


class HistoryDialog(QDialog):
    """Every revision of one flag or note: who, when, what changed; the full values below."""

    COLUMNS: Final = ("When", "Reviewer", "Action", "What changed")

    def __init__(
        self, title: str, revisions: Sequence[Revision], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._revisions = list(revisions)
        self.setWindowTitle(title_text(title))
        self.setAccessibleName("History")
        self.resize(900, 460)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setAccessibleName("Revisions")
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        for row, cells in enumerate(revision_rows(self._revisions)):
            self.table.insertRow(row)
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setAccessibleName("Values after the selected revision")
        self.table.currentCellChanged.connect(lambda row, *_: self._show(row))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 2)
        layout.addWidget(QLabel("After the selected revision:"))
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        if self._revisions:
            self.table.selectRow(len(self._revisions) - 1)

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self._revisions):
            self.details.setPlainText("")
            return
        rev = self._revisions[row]
        lines = [f"{format_time(rev.at)} · {rev.reviewer} · {rev.action}"]
        for name, value in sorted(rev.values.items(), key=lambda item: _field_rank(item[0])):
            if name != "note":
                lines.append(f"{name}: {format_value(name, value)}")
        note = rev.values.get("note")
        lines += ["note:", display_text("" if note is None else str(note))]
        self.details.setPlainText("\n".join(lines))

    def row_texts(self) -> list[tuple[str, ...]]:
        """The table's cells, row by row (what a reader sees)."""
        return table_texts(self.table)


__all__ = ["HistoryDialog", "format_value", "revision_rows"]
