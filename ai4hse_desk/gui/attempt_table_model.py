"""The attempt list's Qt model: row keys in SQL order plus a small row cache.

An adapter in the manner of Anki's browser ``DataModel``: the review index
(:class:`~ai4hse_desk.index.ReviewIndex`) filters, sorts and pages in SQL; this
model keeps only the keys of the rows fetched so far (keyset pages, never
OFFSET; more are fetched as the view scrolls, Qt's ``fetchMore``) and builds a
row only when Qt asks for it, from a bounded cache. No proxy model sits over it.

Every Qt override here is :func:`~ai4hse_desk.gui.qt_guard.guarded`: a row the
index cannot turn into a :class:`~ai4hse_desk.index.ListRow` (a value the schema
forbids, such as text in an integer column) shows as a placeholder and is
reported once through ``read_failed``, never raised into Qt.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from ai4hse_desk.display.status_style import STATUS_COLOURS, status_foreground, status_label
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.qt_guard import guarded, problem_text
from ai4hse_desk.index import AttemptQuery, ListRow, ReviewIndex, SortKey
from ai4hse_desk.protocol.outcome import Status

PAGE = 500
CACHE_ROWS = 2_000
FETCH_WINDOW = 100

#: (header, sort column in the index or None, accessor) — declared once.
COLUMNS: tuple[tuple[str, str | None], ...] = (
    ("Question", "ordinal"),
    ("Model", "model"),
    ("Run", "run_id"),
    ("Track", "track"),
    ("Rep", "repetition"),
    ("Desk status", "status"),
    ("Correct", "correct"),
    ("Strict", "strict"),
    ("Runner ≠ desk", "disagrees"),
    ("Flag", None),
)
COL_STATUS = 5
_KNOWN_STATUSES = frozenset(s.value for s in Status) | {"—"}
_Index = QModelIndex | QPersistentModelIndex


def _tick(value: bool) -> str:
    return "✓" if value else "✗"


class AttemptTableModel(QAbstractTableModel):
    """Attempts matching an :class:`AttemptQuery`, in the chosen SQL order."""

    #: A row, a page or the count could not be read (one line, shown as plain text).
    read_failed = Signal(str)

    def __init__(self, parent: Any = None) -> None:
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

    def refresh(self) -> None:
        """Re-run the query (filter, sort) from the first page (empty if it fails)."""
        keys: list[SortKey] = []
        matching = 0
        if self._index is not None:
            try:
                matching = self._index.count(self._query)
                keys = self._index.page_keys(self._query, self._sort, self._descending, None, PAGE)
            except Exception as exc:
                keys, matching = [], 0
                self._failed(exc)
        self.beginResetModel()
        self._cache.clear()
        self._keys, self._matching = keys, matching
        self._more = len(keys) < matching
        self.endResetModel()

    def _failed(self, exc: Exception) -> None:
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
        except Exception:  # one bad row spoils its window: read this row alone
            try:
                items = self._index.rows([attempt_id], self._flagged)
            except Exception as exc:
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
        except Exception as exc:
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
            return COLUMNS[section][0]
        if role == Qt.ItemDataRole.ToolTipRole and COLUMNS[section][1] is None:
            return "Flagged questions (reviewer notes)"
        return None

    @guarded(Qt.ItemFlag.NoItemFlags)
    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
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
            return self._display(item, column)
        if role == Qt.ItemDataRole.BackgroundRole and column == COL_STATUS:
            return QBrush(QColor(STATUS_COLOURS[item.status]))
        if role == Qt.ItemDataRole.ForegroundRole and column == COL_STATUS:
            return QBrush(QColor(status_foreground(item.status)))
        if role == Qt.ItemDataRole.ToolTipRole and column == COL_STATUS:
            # Tooltips may render as rich text: only known status names go in.
            recorded = item.recorded_status or "—"
            if recorded not in _KNOWN_STATUSES:
                recorded = "an unrecognised value"
            return f"desk: {item.status.value}; runner recorded: {recorded}"
        if role == Qt.ItemDataRole.TextAlignmentRole and column >= 4:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.UserRole:
            return item.attempt_id
        return None

    @staticmethod
    def _display(item: ListRow, column: int) -> str:
        if column == 0:
            return item.question_id
        if column == 1:
            return item.model
        if column == 2:
            return item.run_id
        if column == 3:
            return item.track.value
        if column == 4:
            return str(item.repetition)
        if column == COL_STATUS:
            return status_label(item.status)
        if column == 6:
            return _tick(item.correct)
        if column == 7:
            return _tick(item.strict)
        if column == 8:
            return "≠" if item.disagrees else ""
        return "⚑" if item.flagged else ""

    @guarded(None)
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS) or COLUMNS[column][1] is None:
            return
        self._sort = str(COLUMNS[column][1])
        self._descending = order == Qt.SortOrder.DescendingOrder
        self.refresh()
