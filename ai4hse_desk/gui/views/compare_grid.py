"""Compare: what every run chose on one question (runs × options, the key, the shares).

Three views share one layout (:mod:`ai4hse_desk.index.compare_layout`): the key
row with the column headers pinned on top, the run rows (or one row per
repetition, see the toggle) that scroll, and the share choosing TRUE and FALSE
per option pinned below. Column widths and horizontal scrolling follow the run
rows. A click or Enter on a cell opens its attempt (:attr:`CompareGrid.attempt_activated`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QCheckBox, QLabel, QVBoxLayout, QWidget

from ai4hse_desk.gui.views.compare_table_view import CompareTableView, pin
from ai4hse_desk.index.compare import compare_choices
from ai4hse_desk.index.compare_layout import compare_layout

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.index import ListRow
    from ai4hse_desk.protocol.outcome import Selection

#: Narrowest option column, and narrowest run column (before the grid scrolls sideways).
MIN_OPTION_WIDTH, MIN_RUN_WIDTH = 64, 160


#: What the empty grid says.
PROMPT = "Select an attempt to compare its question across runs."


class CompareGrid(QWidget):
    """One question across every run: what each chose per option, against the key.

    Signals:
        attempt_activated: the attempt id of a clicked or activated cell.
    """

    attempt_activated = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Compare runs and repetitions")
        self.title = QLabel(PROMPT)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.title.setWordWrap(True)
        self.per_repetition = QCheckBox("One row per repetition")
        self.per_repetition.setToolTip(
            "Show every attempt on its own row instead of one row per run"
        )
        self.per_repetition.toggled.connect(lambda _on: self._rebuild())
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.PlainText)
        self.legend.setWordWrap(True)
        self.key_view = CompareTableView("key")
        self.key_view.setAccessibleName("Answer key")
        pin(self.key_view, header=True)
        self.table = CompareTableView("rows")
        self.table.setAccessibleName("Compare grid")
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().hide()
        self.share_view = CompareTableView("share")
        self.share_view.setAccessibleName("Share choosing TRUE and FALSE")
        pin(self.share_view, header=False)
        self.table.cellClicked.connect(self._clicked)
        self.table.cellActivated.connect(self._clicked)
        self.table.width_changed.connect(self.fit_columns)
        scroll = self.table.horizontalScrollBar()
        for view in (self.key_view, self.share_view):
            scroll.valueChanged.connect(view.horizontalScrollBar().setValue)
        self.key_view.horizontalHeader().sectionResized.connect(self._resized_by_hand)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(2)
        for widget in (self.title, self.per_repetition, self.legend, self.key_view):
            layout.addWidget(widget)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.share_view)
        layout.addStretch(0)  # a few runs: the share row right under them
        self._source: tuple[str, tuple[ListRow, ...], Selection | None, tuple[str, ...]] | None
        self._source = None
        self._current: int | None = None
        self._fitting = False
        self._show_pinned(False)

    # -- filling ----------------------------------------------------------------------------

    def set_rows(
        self,
        question_id: str,
        rows: Sequence[ListRow],
        current: int | None,
        key: Selection | None = None,
        option_texts: Sequence[str] = (),
    ) -> None:
        """Show every attempt of ``question_id`` (``current`` selected).

        Args:
            rows: the question's attempts, ordered by run then repetition.
            key: the answer key (without it no value is marked as differing).
            option_texts: the options' texts, for the column tooltips.
        """
        self._source = (question_id, tuple(rows), key, tuple(option_texts))
        self._current = current
        self._rebuild()

    def set_current(self, attempt_id: int | None) -> None:
        """Select the cell of ``attempt_id`` (the grid's question stays)."""
        self._current = attempt_id
        self._select_current()

    def show_problem(self, text: str) -> None:
        """The grid could not be read: say so (plain text) and show nothing."""
        self.clear()
        self.title.setText(f"The compare grid could not be read: {text}")

    def clear(self) -> None:
        """Empty the grid."""
        self._source = None
        self._current = None
        for view in self._views():
            view.grid_model().set_layout(None)
        self.legend.clear()
        self.title.setText(PROMPT)
        self._show_pinned(False)

    def cell_attempt(self, row: int, column: int) -> int | None:
        """The attempt a cell of the rows shows alone (``None`` for a run's aggregate
        cells and empty cells; a run's repetitions have a cell each)."""
        return self.table.grid_model().attempt_at(row, column)

    @property
    def question_id(self) -> str | None:
        """The question shown (``None`` when empty)."""
        return None if self._source is None else self._source[0]

    # -- internals --------------------------------------------------------------------------

    def _views(self) -> tuple[CompareTableView, ...]:
        return (self.key_view, self.table, self.share_view)

    def _show_pinned(self, shown: bool) -> None:
        self.key_view.setVisible(shown)
        self.share_view.setVisible(shown)
        self.legend.setVisible(shown)

    def _rebuild(self) -> None:
        if self._source is None:
            return
        question_id, rows, key, texts = self._source
        per_repetition = self.per_repetition.isChecked()
        choices = compare_choices(question_id, rows, key, texts, per_repetition=per_repetition)
        layout = compare_layout(choices)
        for view in self._views():
            view.grid_model().set_layout(layout)
        self.title.setText(layout.title)
        self.legend.setText(layout.legend)
        self._show_pinned(True)
        self.share_view.resizeRowsToContents()
        for view in (self.key_view, self.share_view):
            rows_height = sum(view.rowHeight(r) for r in range(view.rowCount()))
            header = view.horizontalHeader()
            header_height = 0 if header.isHidden() else header.sizeHint().height()
            view.setFixedHeight(rows_height + header_height + 2 * view.frameWidth())
        self.fit_columns()
        self._select_current()

    def _select_current(self) -> None:
        model = self.table.grid_model()
        found = None if self._current is None else model.position_of(self._current)
        if found is None:
            self.table.clearSelection()
            return
        index = model.index(*found)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def fit_columns(self) -> None:
        """Share the width: every column as wide as its texts (the repetitions as the
        widest of them; the run column elides down to :data:`MIN_RUN_WIDTH` first), the
        options the rest, equally."""
        layout = self.table.grid_model().grid_layout
        if layout is None or self._fitting:
            return
        bar = self.table.verticalScrollBar()
        margin = bar.sizeHint().width() if bar.isVisible() else 0
        for view in (self.key_view, self.share_view):
            view.set_right_margin(margin)
        views, header = self._views(), self.key_view.horizontalHeader()
        widths = [
            max(header.sectionSizeHint(c), *(v.sizeHintForColumn(c) for v in views))
            for c in range(len(layout.columns))
        ]
        # The repetitions at one width, the options at one width (at least the least).
        groups = ((layout.repetition_columns, 0), (layout.option_columns, MIN_OPTION_WIDTH))
        for group, least in groups:
            widest = max((widths[c] for c in group), default=0)
            for c in group:
                widths[c] = max(least, widest)
        available = self.table.viewport().width()
        # The run column elides (in the middle) before the grid scrolls sideways.
        widths[0] = max(MIN_RUN_WIDTH, min(widths[0], available - sum(widths[1:])))
        options = layout.option_columns
        if options:  # the spare width to the options, equally
            spare = available - sum(w for c, w in enumerate(widths) if c not in options)
            each = max(widths[options[0]], spare // len(options))
            for c in options:
                widths[c] = each
        self._fitting = True
        try:
            for view in views:
                for column, width in enumerate(widths):
                    view.setColumnWidth(column, width)
            self._fit_height(sum(widths) > available)
        finally:
            self._fitting = False

    def _fit_height(self, scrolls: bool) -> None:
        """No taller than its rows (and the sideways scroll bar when it shows)."""
        table = self.table
        height = sum(table.rowHeight(r) for r in range(table.rowCount())) + 2 * table.frameWidth()
        if scrolls:
            height += table.horizontalScrollBar().sizeHint().height()
        table.setMaximumHeight(max(height, table.verticalHeader().defaultSectionSize()))

    def _resized_by_hand(self, column: int, _old: int, new: int) -> None:
        if self._fitting:
            return
        for view in (self.table, self.share_view):
            with QSignalBlocker(view.horizontalHeader()):
                view.setColumnWidth(column, new)

    def _clicked(self, row: int, column: int) -> None:
        attempt_id = self.table.grid_model().row_attempt(row, column)
        if attempt_id is not None:
            self.attempt_activated.emit(attempt_id)
