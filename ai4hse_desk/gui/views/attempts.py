"""The attempts page: the search bar, the attempt list and its counts above the selected
attempt (question and flags, raw response, verdict: :mod:`.detail_panes`, which arranges
them by their width) or the compare grid.

The list comes first: a start draws its first rows before the detail's panels and the
compare grid are made (:meth:`AttemptsView.build_detail`, with their modules); until
then an empty stand-in keeps their place in the splitter, so the list does not move
when they arrive.
"""

from __future__ import annotations

from math import ceil
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.gui.widgets.search_bar import SearchBar

if TYPE_CHECKING:
    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
    from ai4hse_desk.gui.panels.flags import FlagsPanel
    from ai4hse_desk.gui.panels.question import QuestionPanel
    from ai4hse_desk.gui.panels.response import ResponseView
    from ai4hse_desk.gui.panels.verdict import VerdictPanel
    from ai4hse_desk.gui.views.blind_cover import BlindCover
    from ai4hse_desk.gui.views.compare_grid import CompareGrid
    from ai4hse_desk.gui.views.detail_panes import DetailPanes

COLUMNS_KEY = "attempt_columns"
#: A fitted list column may be this wide whatever the list's width (else a quarter of it).
MIN_WIDEST = 200
#: How many rows the first fit of the columns measures (the view's and those next to it).
FIT_ROWS = 30


def _attempt_table(model: AttemptTableModel) -> QTableView:
    table = QTableView()
    # The viewport is made here: the one Qt makes is a widget PySide has not seen, and
    # the first time it is asked for, PySide looks for its class among every widget class
    # (making some 70 of their enum types: 5 ms of a start).
    table.setViewport(QWidget())
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


def content_widths(table: QTableView, rows: int) -> list[int]:
    """Each column's width for its header and the texts of ``rows`` rows from the top of
    ``table``: what ``resizeColumnsToContents`` gives those rows, measured here.

    Qt's own fit asks the model for every role of every measured cell through its
    delegate (about 3,600 calls into Python for 30 rows: 15 ms of a start); the list's
    cells are plain one-line texts in the view's font, so their widths are the texts'
    advances plus what the delegate adds around a text (the style's item margins, asked
    of it once, for the first cell) and the grid line.
    """
    from PySide6.QtGui import QFontMetricsF
    from PySide6.QtWidgets import QStyleOptionViewItem

    model, header = table.model(), table.horizontalHeader()
    exact = QFontMetricsF(table.fontMetrics())  # (not table.font(): QFont's enums, 1 ms)

    def advance(text: str) -> int:  # as the delegate lays a text out: whole pixels, up
        return ceil(exact.horizontalAdvance(text))

    top = max(0, table.rowAt(0))
    shown = range(top, min(model.rowCount(), top + rows))
    texts = [[model.data(model.index(row, column)) for row in shown]
             for column in range(model.columnCount())]  # fmt: skip
    around = 0
    if shown and isinstance(first := texts[0][0], str):
        hint = table.itemDelegate().sizeHint(QStyleOptionViewItem(), model.index(top, 0))
        around = max(0, hint.width() - advance(first))
    around += 1 if table.showGrid() else 0
    widths: list[int] = []
    for column, column_texts in enumerate(texts):
        advances = (advance(text) for text in set(column_texts) if isinstance(text, str))
        widths.append(max(header.sectionSizeHint(column), max(advances, default=0) + around))
    return widths


class AttemptsView(QSplitter):
    """The list above the detail; its parts are public for the controllers to connect.

    The detail's parts (``tabs``, the panels, ``compare``) exist once
    :meth:`build_detail` has run; :attr:`detail_built` tells.
    """

    question_panel: QuestionPanel
    response_view: ResponseView
    verdict_panel: VerdictPanel
    flags_panel: FlagsPanel
    detail_splitter: DetailPanes
    question_column: QSplitter
    compare: CompareGrid
    tabs: QTabWidget
    cover: BlindCover

    def __init__(self, model: AttemptTableModel, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("main_splitter")
        self.table = _attempt_table(model)
        self.search = SearchBar()
        self.counts = QLabel()
        self.counts.setTextFormat(Qt.TextFormat.PlainText)
        self.counts.setAccessibleName("Counts")
        self.counts.setWordWrap(True)
        # Two lines from the start: the per-status part, counted in the background, makes
        # the line longer a moment after the list is drawn, and the list must not move.
        self.counts.setMinimumHeight(2 * self.counts.fontMetrics().lineSpacing())
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(4, 4, 4, 0)
        top_layout.addWidget(self.search)
        top_layout.addWidget(self.table, 1)
        top_layout.addWidget(self.counts)
        self.addWidget(top)
        self.addWidget(QWidget())  # the detail's place, until build_detail
        self.setSizes([300, 700])  # the detail needs the height more than the list
        self.detail_built = False
        self._columns_restored = False
        #: Content widths of the list's columns while they share the list's width.
        self._content_widths: list[int] | None = None
        self._sharing = False
        self.table.viewport().installEventFilter(self)
        self.table.horizontalHeader().sectionResized.connect(self._column_resized)

    def build_detail(self, settings: QSettings) -> None:
        """Make the detail's panels and the compare grid (once), in the stand-in's place,
        their splitters as the reviewer left them in ``settings``."""
        if self.detail_built:
            return
        from ai4hse_desk.gui.panels.flags import FlagsPanel
        from ai4hse_desk.gui.panels.question import QuestionPanel
        from ai4hse_desk.gui.panels.response import ResponseView
        from ai4hse_desk.gui.panels.verdict import VerdictPanel
        from ai4hse_desk.gui.views.blind_cover import BlindCover
        from ai4hse_desk.gui.views.compare_grid import CompareGrid
        from ai4hse_desk.gui.views.detail_panes import DetailPanes

        self.question_panel = QuestionPanel()
        self.response_view = ResponseView()
        self.verdict_panel = VerdictPanel()
        self.flags_panel = FlagsPanel()  # under the question, in its own column
        self.detail_splitter = DetailPanes(
            self.question_panel, self.flags_panel, self.response_view, self.verdict_panel
        )
        self.question_column = self.detail_splitter.question_column
        self.compare = CompareGrid()
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Attempt detail and compare")
        self.tabs.addTab(self.detail_splitter, "Attempt (side by side)")
        self.tabs.addTab(self.compare, "Compare runs × repetitions")
        self.cover = BlindCover()  # a blind question's detail, hidden (see show_cover)
        self._detail_stack = QStackedWidget()
        self._detail_stack.addWidget(self.tabs)
        self._detail_stack.addWidget(self.cover)
        sizes = self.sizes()
        stand_in = self.replaceWidget(1, self._detail_stack)
        if stand_in is not None:
            stand_in.deleteLater()
        self.setSizes(sizes)  # the list keeps the height it has
        self.detail_splitter.restore_layout(settings)
        self.detail_built = True

    def clear_detail(self) -> None:
        """Show no attempt."""
        self.question_panel.clear()
        self.verdict_panel.clear()
        self.response_view.clear()
        self.compare.clear()
        self.show_detail_pages()

    def show_cover(self, question_id: str, why: str) -> None:
        """The selected attempt's question may not be shown: every panel and the compare
        grid empty, and the cover saying ``why`` in their place."""
        self.clear_detail()
        self.flags_panel.clear()
        self.cover.cover(question_id, why)
        self._detail_stack.setCurrentWidget(self.cover)

    def show_detail_pages(self) -> None:
        """The attempt's panels and the compare grid again (not the cover)."""
        self._detail_stack.setCurrentWidget(self.tabs)

    # -- layout ---------------------------------------------------------------------------

    def restore_layout(self, settings: QSettings) -> None:
        """The list's height and column widths as the reviewer left them (the detail's
        splitters are restored when it is made)."""
        state = settings.value(self.objectName())
        if isinstance(state, QByteArray):
            self.restoreState(state)
        header = settings.value(COLUMNS_KEY)
        self._columns_restored = isinstance(header, QByteArray)
        if isinstance(header, QByteArray):
            self.table.horizontalHeader().restoreState(header)

    def save_layout(self, settings: QSettings) -> None:
        """Keep splitter sizes and column widths for the next start."""
        settings.setValue(self.objectName(), self.saveState())
        if self.detail_built:
            self.detail_splitter.save_layout(settings)
        settings.setValue(COLUMNS_KEY, self.table.horizontalHeader().saveState())

    def fit_columns(self) -> None:
        """Size the list's columns to their content once, unless the reviewer set them;
        until the reviewer sets one, they follow the list's width (see _share_columns)."""
        if self._columns_restored:
            return
        self._columns_restored = True
        self._content_widths = content_widths(self.table, FIT_ROWS)
        self._share_columns()

    def _share_columns(self) -> None:
        """Content widths (:func:`content_widths`), a long id's at most a quarter of the
        list (it elides in the middle); the spare width shared by width, or, short of
        room, the wide columns narrowed, down to MIN_WIDEST / 2, before the list scrolls
        sideways."""
        content, header = self._content_widths, self.table.horizontalHeader()
        if content is None or len(content) != header.count():
            return
        shown = [c for c in range(header.count()) if not header.isSectionHidden(c)]
        room = self.table.viewport().width()
        bar = self.table.verticalScrollBar()
        if not bar.isVisible():  # it will be, once the list is longer than its room
            room -= bar.sizeHint().width()
        widest = max(MIN_WIDEST, room // 4)
        widths = {c: min(content[c], widest) for c in shown}
        total = sum(widths.values())
        if total <= room:
            grown = {c: w + (room - total) * w // total for c, w in widths.items()}
        else:
            floor = MIN_WIDEST // 2
            slack = {c: max(0, w - floor) for c, w in widths.items()}
            spare = max(1, sum(slack.values()))
            cut = min(total - room, spare)
            grown = {c: w - -(-cut * slack[c] // spare) for c, w in widths.items()}  # ceil
        self._sharing = True
        try:
            for column, width in grown.items():
                header.resizeSection(column, width)
        finally:
            self._sharing = False

    def _column_resized(self, _column: int, _old: int, _new: int) -> None:
        if not self._sharing:  # the reviewer's width: kept from now on
            self._content_widths = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.table.viewport():
            self._share_columns()
        return super().eventFilter(watched, event)

    def keep_question_readable(self) -> None:
        """Give the question panel the height its options need and, stacked, the verdict
        the height its status, banner and *Runner vs desk* need (see DetailPanes)."""
        self.detail_splitter.keep_readable()


__all__ = ["COLUMNS_KEY", "FIT_ROWS", "AttemptsView", "content_widths"]
