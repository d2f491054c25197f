"""The attempts page: the search bar, the attempt list and its counts above the selected
attempt side by side (question and flags, raw response, verdict) or the compare grid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.gui.panels.flags import FlagsPanel
from ai4hse_desk.gui.panels.question import QuestionPanel
from ai4hse_desk.gui.panels.response import ResponseView
from ai4hse_desk.gui.panels.verdict import VerdictPanel
from ai4hse_desk.gui.views.compare_grid import CompareGrid
from ai4hse_desk.gui.widgets.search_bar import SearchBar

if TYPE_CHECKING:
    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel

COLUMNS_KEY = "attempt_columns"


def _attempt_table(model: AttemptTableModel) -> QTableView:
    table = QTableView()
    table.setAccessibleName("Attempts")
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    # No sort indicator at first: attempts in attempt_id order until a header is clicked.
    table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    table.setSortingEnabled(True)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    table.setAlternatingRowColors(True)
    # Long ids (imported sets: "court_case/rule_recall/012", dated run ids) keep both ends.
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    return table


class AttemptsView(QSplitter):
    """The list above the detail; its parts are public for the controllers to connect."""

    def __init__(self, model: AttemptTableModel, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("main_splitter")
        self.table = _attempt_table(model)
        self.search = SearchBar()
        self.counts = QLabel()
        self.counts.setTextFormat(Qt.TextFormat.PlainText)
        self.counts.setAccessibleName("Counts")
        self.counts.setWordWrap(True)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(4, 4, 4, 0)
        top_layout.addWidget(self.search)
        top_layout.addWidget(self.table, 1)
        top_layout.addWidget(self.counts)

        self.question_panel = QuestionPanel()
        self.response_view = ResponseView()
        self.verdict_panel = VerdictPanel()
        self.flags_panel = FlagsPanel()  # under the question, in its own column
        self.question_column = QSplitter(Qt.Orientation.Vertical)
        self.question_column.setObjectName("question_column")
        self.question_column.addWidget(self.question_panel)
        self.question_column.addWidget(self.flags_panel)
        self.question_column.setStretchFactor(0, 3)
        self.question_column.setStretchFactor(1, 2)
        self.question_column.splitterMoved.connect(self._column_arranged)
        self.detail_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.detail_splitter.setObjectName("detail_splitter")
        for widget in (self.question_column, self.response_view, self.verdict_panel):
            self.detail_splitter.addWidget(widget)
        self.detail_splitter.setSizes([520, 560, 520])
        self.compare = CompareGrid()
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Attempt detail and compare")
        self.tabs.addTab(self.detail_splitter, "Attempt (side by side)")
        self.tabs.addTab(self.compare, "Compare runs × repetitions")
        self.addWidget(top)
        self.addWidget(self.tabs)
        self.setSizes([380, 620])
        self._fit_question = True
        self._columns_restored = False

    def clear_detail(self) -> None:
        """Show no attempt."""
        self.question_panel.clear()
        self.verdict_panel.clear()
        self.response_view.clear()
        self.compare.clear()

    # -- layout ---------------------------------------------------------------------------

    def restore_layout(self, settings: QSettings) -> None:
        """Splitter sizes and column widths as the reviewer left them."""
        for splitter in (self, self.detail_splitter, self.question_column):
            state = settings.value(splitter.objectName())
            if isinstance(state, QByteArray):
                splitter.restoreState(state)
        header = settings.value(COLUMNS_KEY)
        self._columns_restored = isinstance(header, QByteArray)
        if isinstance(header, QByteArray):
            self.table.horizontalHeader().restoreState(header)
        # Fit the question above the flags until the reviewer arranges the column.
        self._fit_question = settings.value("question_column") is None

    def save_layout(self, settings: QSettings) -> None:
        """Keep splitter sizes and column widths for the next start."""
        for splitter in (self, self.detail_splitter, self.question_column):
            settings.setValue(splitter.objectName(), splitter.saveState())
        settings.setValue(COLUMNS_KEY, self.table.horizontalHeader().saveState())

    def fit_columns(self) -> None:
        """Size the list's columns to their content once, unless the reviewer set them."""
        if not self._columns_restored:
            self.table.resizeColumnsToContents()
            self._columns_restored = True

    def _column_arranged(self, _pos: int, _index: int) -> None:
        self._fit_question = False

    def keep_question_readable(self) -> None:
        """Give the question panel the height its options need, from the flags panel's spare
        (until the reviewer moves the splitter, whose sizes then persist)."""
        column = self.question_column
        sizes = column.sizes()
        if not self._fit_question or len(sizes) != 2 or not column.isVisible():
            return
        need = self.question_panel.sizeHint().height()
        spare = sizes[1] - self.flags_panel.minimumSizeHint().height()
        give = min(need - sizes[0], spare)
        if give > 0:
            column.setSizes([sizes[0] + give, sizes[1] - give])


__all__ = ["COLUMNS_KEY", "AttemptsView"]
