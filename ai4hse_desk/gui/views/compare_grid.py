"""Compare: one question across every run and repetition (runs × repetitions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.status_style import STATUS_COLOURS, status_foreground, status_label

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.index import ListRow


class CompareGrid(QWidget):
    """A grid of runs (rows) × repetitions (columns); a click opens that attempt."""

    attempt_activated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Compare runs and repetitions")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.title = QLabel("Select an attempt to compare its question across runs.")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.table = QTableWidget()
        self.table.setAccessibleName("Compare grid")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.cellClicked.connect(self._clicked)
        self.table.cellActivated.connect(self._clicked)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        self._cells: dict[tuple[int, int], int] = {}

    def set_rows(self, question_id: str, rows: Sequence[ListRow], current: int | None) -> None:
        """Fill the grid with every attempt of ``question_id`` (``current`` highlighted)."""
        runs: list[tuple[str, str, str]] = []
        for row in rows:
            entry = (row.run_id, row.model, row.track.value)
            if entry not in runs:
                runs.append(entry)
        repetitions = sorted({row.repetition for row in rows})
        self.table.clear()
        self._cells = {}
        self.table.setRowCount(len(runs))
        self.table.setColumnCount(len(repetitions))
        self.table.setHorizontalHeaderLabels([f"rep {r}" for r in repetitions])
        self.table.setVerticalHeaderLabels(
            [f"{run}  ({model}, {track})" for run, model, track in runs]
        )
        run_row = {run[0]: i for i, run in enumerate(runs)}
        rep_col = {rep: i for i, rep in enumerate(repetitions)}
        correct = 0
        for row in rows:
            r, c = run_row[row.run_id], rep_col[row.repetition]
            mark = "✓ correct" if row.correct else "✗"
            text = f"{status_label(row.status)}  {mark}" + ("  ≠ runner" if row.disagrees else "")
            item = QTableWidgetItem(text)
            item.setBackground(QBrush(QColor(STATUS_COLOURS[row.status])))
            item.setForeground(QBrush(QColor(status_foreground(row.status))))
            item.setToolTip(f"attempt {row.attempt_id}: {row.status.value}")
            item.setData(Qt.ItemDataRole.UserRole, row.attempt_id)
            self.table.setItem(r, c, item)
            self._cells[(r, c)] = row.attempt_id
            correct += row.correct
            if row.attempt_id == current:
                self.table.setCurrentCell(r, c)
        self.title.setText(
            f"{question_id}: {correct} of {len(rows)} attempts correct across "
            f"{len(runs)} runs × {len(repetitions)} repetitions (tracks kept apart per row)"
        )

    def cell_attempt(self, row: int, column: int) -> int | None:
        """The attempt shown in a cell (None for an empty cell)."""
        return self._cells.get((row, column))

    def clear(self) -> None:
        """Empty the grid."""
        self.table.clear()
        self.table.setRowCount(0)
        self.table.setColumnCount(0)
        self._cells = {}

    def _clicked(self, row: int, column: int) -> None:
        attempt_id = self._cells.get((row, column))
        if attempt_id is not None:
            self.attempt_activated.emit(attempt_id)
