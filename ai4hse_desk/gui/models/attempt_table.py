"""The attempt list's Qt model: row keys in SQL order plus a small row cache.

An adapter in the manner of Anki's browser ``DataModel``: the review index
(:class:`~ai4hse_desk.index.ReviewIndex`) filters, sorts and pages in SQL; this
model keeps only the keys of the rows fetched so far (keyset pages, never
OFFSET; more are fetched as the view scrolls, Qt's ``fetchMore``) and builds a
row only when Qt asks for it, from a bounded cache. No proxy model sits over it.

A query whose first page is slow to find (a plain ``LIKE`` search scans every
response) is prepared off the GUI thread with :func:`first_page` and handed over
with :meth:`AttemptTableModel.show_first_page`; once resolved, the index
remembers the search, so later pages come quickly.

Every Qt override here is :func:`~ai4hse_desk.gui.qt_guard.guarded`: a row the
index cannot turn into a :class:`~ai4hse_desk.index.ListRow` (a value the schema
forbids, such as text in an integer column) shows as a disabled "…" row and is
reported once through ``read_failed``, never raised into Qt.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from ai4hse_desk.display.status_style import STATUS_COLOURS, status_foreground
from ai4hse_desk.gui.models.attempt_columns import COL_STATUS, COLUMNS, status_tip
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.qt_guard import READ_ERRORS, guarded, problem_text
from ai4hse_desk.index import AttemptQuery, ListRow, ReviewIndex, SortKey

if TYPE_CHECKING:
    from collections.abc import Iterable

PAGE = 500
CACHE_ROWS = 2_000
FETCH_WINDOW = 100

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class FirstPage:
    """What a model shows first for a query in one order: the count and the first keys."""

    query: AttemptQuery
    sort: str
    descending: bool
    matching: int
    keys: list[SortKey]


def first_page(index: ReviewIndex, query: AttemptQuery, sort: str, descending: bool) -> FirstPage:
    """Count ``query``'s attempts and find its first page (on any thread)."""
    matching = index.count(query)
    keys = index.page_keys(query, sort, descending, None, PAGE)
    return FirstPage(query, sort, descending, matching, keys)


class AttemptTableModel(QAbstractTableModel):
    """Attempts matching an :class:`AttemptQuery`, in the chosen SQL order."""

    #: A row, a page or the count could not be read (one line, shown as plain text).
    read_failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._index: ReviewIndex | None = None
        self._query = AttemptQuery()
        self._sort = "attempt_id"
        self._descending = False
        self._keys: list[SortKey] = []
        self._more = False
        self._matching = 0
        self._cache: OrderedDict[int, ListRow] = OrderedDict()
        self._flagged: frozenset[str] = frozenset()
        self._broken: set[int] = set()  # attempts whose row cannot be read
        self.read_problem: str | None = None

    # -- state ------------------------------------------------------------------

    @property
    def review_index(self) -> ReviewIndex | None:
        """The index the rows come from."""
        return self._index

    @property
    def query(self) -> AttemptQuery:
        """The current filter."""
        return self._query

    @property
    def sort_order(self) -> tuple[str, bool]:
        """(sort column, descending)."""
        return self._sort, self._descending

    @property
    def matching(self) -> int:
        """How many attempts match the filter (all pages, not only the fetched ones)."""
        return self._matching

    def set_index(self, index: ReviewIndex | None) -> None:
        """Show the attempts of ``index`` (None: empty) under the current filter."""
        self._index = index
        self._broken.clear()
        self.read_problem = None
        self.refresh()

    def set_query(self, query: AttemptQuery) -> None:
        """Change the filter: count and first page in SQL, then a model reset."""
        self._query = query
        self.refresh()

    def set_flagged(self, question_ids: Iterable[str]) -> None:
        """Mark rows of these questions as flagged (the Flag column)."""
        self._flagged = frozenset(question_ids)
        self._cache.clear()
        if self._keys:
            last = self.index(len(self._keys) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def show_first_page(self, page: FirstPage) -> None:
        """Show a first page prepared elsewhere (:func:`first_page`) for its query.

        A page found for another order than the one now chosen is found again here.
        """
        self._query = page.query
        if (page.sort, page.descending) != (self._sort, self._descending):
            self.refresh()
            return
        self._reset(page.matching, page.keys)

    def refresh(self) -> None:
        """Re-run the query (filter, sort) from the first page (empty if it fails)."""
        page: FirstPage | None = None
        if self._index is not None:
            try:
                page = first_page(self._index, self._query, self._sort, self._descending)
            except READ_ERRORS as exc:
                self._failed(exc)
        if page is None:
            self._reset(0, [])
        else:
            self._reset(page.matching, page.keys)

    def _reset(self, matching: int, keys: list[SortKey]) -> None:
        self.beginResetModel()
        self._cache.clear()
        self._keys, self._matching = keys, matching
        self._more = len(keys) < matching
        self.endResetModel()

    def _failed(self, exc: BaseException) -> None:
        text = problem_text(exc)
        if self.read_problem is None:
            self.read_problem = text
        self.read_failed.emit(text)

    # -- keys -------------------------------------------------------------------

    def attempt_id_at(self, row: int) -> int | None:
        """The attempt shown in ``row`` (None outside the fetched rows)."""
        if 0 <= row < len(self._keys):
            return self._keys[row][1]
        return None

    def key_at(self, row: int) -> SortKey | None:
        """The sort key of ``row`` (its position in the listing), None outside."""
        return self._keys[row] if 0 <= row < len(self._keys) else None

    def row_of(self, attempt_id: int, fetch_limit: int = 20) -> int | None:
        """The row showing ``attempt_id``, fetching up to ``fetch_limit`` more pages."""
        for row, key in enumerate(self._keys):
            if key[1] == attempt_id:
                return row
        for _ in range(fetch_limit):
            if not self.canFetchMore(QModelIndex()):
                return None
            start = len(self._keys)
            self.fetchMore(QModelIndex())
            for row in range(start, len(self._keys)):
                if self._keys[row][1] == attempt_id:
                    return row
        return None

    def row_data(self, row: int) -> ListRow | None:
        """The light row shown at ``row`` (fetched through the cache)."""
        attempt_id = self.attempt_id_at(row)
        if attempt_id is None or self._index is None or attempt_id in self._broken:
            return None
        cached = self._cache.get(attempt_id)
        if cached is not None:
            self._cache.move_to_end(attempt_id)
            return cached
        start = max(0, row - FETCH_WINDOW // 2)
        ids = [key[1] for key in self._keys[start : start + FETCH_WINDOW]]
        ids = [i for i in ids if i not in self._broken]
        try:
            items = self._index.rows(ids, self._flagged)
        except READ_ERRORS:  # one bad row spoils its window: read this row alone
            try:
                items = self._index.rows([attempt_id], self._flagged)
            except READ_ERRORS as exc:
                self._broken.add(attempt_id)
                self._failed(exc)
                return None
        for item in items:
            self._cache[item.attempt_id] = item
        while len(self._cache) > CACHE_ROWS:
            self._cache.popitem(last=False)
        return self._cache.get(attempt_id)

    def last_key(self) -> SortKey | None:
        """The last fetched key (for keyset continuation)."""
        return self._keys[-1] if self._keys else None

    # -- Qt model interface -----------------------------------------------------

    @guarded(0)
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._keys)

    @guarded(0)
    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    @guarded(False)
    def canFetchMore(self, parent: _Index) -> bool:
        return not parent.isValid() and self._more

    @guarded(None)
    def fetchMore(self, parent: _Index) -> None:
        if parent.isValid() or not self._more or self._index is None:
            return
        try:
            page = self._index.page_keys(
                self._query, self._sort, self._descending, self.last_key(), PAGE
            )
        except READ_ERRORS as exc:
            self._more = False  # a view would ask again at every scroll
            self._failed(exc)
            return
        if not page:
            self._more = False
            return
        start = len(self._keys)
        self.beginInsertRows(QModelIndex(), start, start + len(page) - 1)
        self._keys.extend(page)
        self.endInsertRows()
        self._more = len(self._keys) < self._matching

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section].header
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section].tip:
            return COLUMNS[section].tip
        return None

    @guarded(Qt.ItemFlag.NoItemFlags)
    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self.attempt_id_at(index.row()) in self._broken:
            return Qt.ItemFlag.ItemIsSelectable  # shown greyed out: it cannot be read
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = self.row_data(index.row())
        if item is None:
            # Anki's placeholder: a row whose fetch failed shows as disabled text.
            if role == Qt.ItemDataRole.DisplayRole and index.column() == 0:
                return "…"
            if role == Qt.ItemDataRole.ToolTipRole and self.read_problem is not None:
                return plain_tooltip(f"This attempt cannot be read: {self.read_problem}")
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[column].text(item)
        if role == Qt.ItemDataRole.BackgroundRole and column == COL_STATUS:
            return QBrush(QColor(STATUS_COLOURS[item.status]))
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_STATUS:
            return QBrush(QColor(status_foreground(item.status)))
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_STATUS:
            return status_tip(item)
        if role == Qt.ItemDataRole.TextAlignmentRole and COLUMNS[column].centred:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.UserRole:
            return item.attempt_id
        return None

    @guarded(None)
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        sort = COLUMNS[column].sort if 0 <= column < len(COLUMNS) else None
        if sort is None:
            return
        self._sort = sort
        self._descending = order == Qt.SortOrder.DescendingOrder
        self.refresh()
