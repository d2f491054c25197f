"""The attempt list's Qt model: every matching attempt at its row, a few pages of keys.

An adapter in the manner of Anki's browser ``DataModel``: the review index filters,
counts, sorts and pages in SQL. ``rowCount`` is the whole filtered count, so the
scroll bar spans the list; a row's key is read by position through
:class:`~ai4hse_desk.index.positions.ListPositions` (keyset pages from either end,
a held page, a key found by Go to, or the page ends; never an ``OFFSET`` scan) and
its light row is built only when Qt asks, from a bounded cache (:mod:`.attempt_rows`).
A page by key is one index seek, read here; the page ends (one pass over the listing)
and a slow first page (a plain ``LIKE`` search) are found off the GUI thread
(:meth:`~AttemptTableModel.positions_job`, :func:`~.attempt_listing.first_page`) and
handed over (:meth:`~AttemptTableModel.set_positions`, ``show_first_page``).

What a row may tell of its question's key is the window's
:class:`~ai4hse_desk.gui.controllers.sight.Sight`'s to say: a blind question's
revealing cells are masked, and it is left out of a listing by correctness
(:mod:`.attempt_listing`). Every Qt override is
:func:`~ai4hse_desk.gui.qt_guard.guarded`: a row the index cannot read shows as a
disabled "…" row and is reported once through ``read_failed``, never raised into Qt.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor

from ai4hse_desk.gui.controllers.sight import HIDDEN_CELL
from ai4hse_desk.gui.models.attempt_columns import (
    COL_STATUS,
    COLUMNS,
    PLACEHOLDER,
    cell_text,
    cell_tip,
    placeholder_tip,
)
from ai4hse_desk.gui.models.attempt_listing import FirstPage, first_page, listed_query
from ai4hse_desk.gui.models.attempt_rows import RowCache, ids_around
from ai4hse_desk.gui.palette_mode import status_colours_now
from ai4hse_desk.gui.qt_guard import READ_ERRORS, guarded, problem_text
from ai4hse_desk.index import AttemptQuery, ListRow, ReviewIndex, SortKey
from ai4hse_desk.index.positions import Listing, ListPositions, PageEnds, page_ends

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.progress import Progress

_Index = QModelIndex | QPersistentModelIndex
T = TypeVar("T")
_R = Qt.ItemDataRole
#: The roles ``data`` answers: a view asks for ten per cell; the rest get None unread.
_ROLES = frozenset(map(int, (_R.DisplayRole, _R.BackgroundRole, _R.ForegroundRole,
                             _R.ToolTipRole, _R.TextAlignmentRole, _R.UserRole)))  # fmt: skip
_DISPLAY, _TOOLTIP = int(_R.DisplayRole), int(_R.ToolTipRole)
_COLOURS = frozenset(map(int, (_R.BackgroundRole, _R.ForegroundRole)))


#: The page ends :func:`~ai4hse_desk.index.positions.page_ends` found for a listing.
FoundPositions = tuple[ListPositions, PageEnds]


class AttemptTableModel(QAbstractTableModel):
    """Attempts matching an :class:`AttemptQuery`, in the chosen SQL order, every one
    at its row.

    Signals:
        read_failed: a row, a page or the count could not be read (one line, plain text).
        positions_found: every row of the list can now be read at once (the page
            ends arrived); rows shown as "…" have been refreshed.
    """

    read_failed = Signal(str)
    positions_found = Signal()

    def __init__(self, parent: QObject | None = None, sight: Sight | None = None) -> None:
        """``sight``: what the person at the desk may see (``None``: everything)."""
        super().__init__(parent)
        self._index: ReviewIndex | None = None
        self._sight = sight
        self._asked = self._query = AttemptQuery()  # as the filters ask; as listed
        self._sort, self._descending = "attempt_id", False
        self._rows: ListPositions | None = None
        self._matching = 0
        self._cache = RowCache(self._failed)
        self.read_problem: str | None = None
        if sight is not None:
            sight.changed.connect(self._sight_changed)

    @property
    def review_index(self) -> ReviewIndex | None:
        """The index the rows come from."""
        return self._index

    @property
    def query(self) -> AttemptQuery:
        """The current filter, as listed (:meth:`listed`)."""
        return self._query

    def listed(self, query: AttemptQuery) -> AttemptQuery:
        """``query`` as the list runs it now (:func:`~.attempt_listing.listed_query`)."""
        blind = frozenset() if self._sight is None else self._sight.blind_questions()
        return listed_query(query, self._sort, blind)

    def _sight_changed(self) -> None:
        """What may be seen changed: the listing again if it leaves other questions out."""
        if self._index is not None and self.listed(self._asked) != self._query:
            self.refresh()
        else:
            self._cache.clear()
            self._all_rows_changed()

    @property
    def sort_order(self) -> tuple[str, bool]:
        """(sort column, descending)."""
        return self._sort, self._descending

    @property
    def matching(self) -> int:
        """How many attempts match the filter: the number of rows."""
        return self._matching

    @property
    def all_reachable(self) -> bool:
        """True when any row can be read at once (else far rows wait for the page ends)."""
        return self._rows is None or self._rows.all_reachable

    def set_index(self, index: ReviewIndex | None) -> None:
        """Show the attempts of ``index`` (None: empty) under the current filter."""
        self._index = index
        self._cache.forget_broken()
        self.read_problem = None
        self.refresh()

    def set_query(self, query: AttemptQuery) -> None:
        """Change the filter: count and first page in SQL, then a model reset."""
        self._asked = query
        self.refresh()

    def set_flagged(self, question_ids: Iterable[str]) -> None:
        """Mark rows of these questions as flagged (the Flag column)."""
        self._cache.flagged = frozenset(question_ids)
        self._cache.clear()
        self._all_rows_changed()

    def show_first_page(self, page: FirstPage) -> None:
        """Show a first page prepared elsewhere (:func:`first_page`) for its query (as
        :meth:`listed`); one found for another order or listing is found again here."""
        self._asked, ordered = page.query, (page.sort, page.descending)
        if ordered != (self._sort, self._descending) or self.listed(page.query) != page.query:
            self.refresh()
            return
        self._query = page.query
        self._reset(page.matching, page.keys)

    def refresh(self) -> None:
        """Re-run the query (filter, sort) from the first page (empty if it fails)."""
        page: FirstPage | None = None
        self._query = self.listed(self._asked)
        if self._index is not None:
            try:
                page = first_page(self._index, self._query, self._sort, self._descending)
            except READ_ERRORS as exc:
                self._failed(exc)
        self._reset(*((0, []) if page is None else (page.matching, page.keys)))

    def _reset(self, matching: int, keys: list[SortKey]) -> None:
        self.beginResetModel()
        self._cache.clear()
        self._matching, self._rows = matching, None
        if self._index is not None and matching:
            listing = Listing(self._query, self._sort, self._descending)
            self._rows = ListPositions(self._index, listing, matching, keys)
        self.endResetModel()

    def _failed(self, exc: BaseException) -> None:
        text = problem_text(exc)
        self.read_problem = self.read_problem or text  # the first one
        self.read_failed.emit(text)

    def _all_rows_changed(self) -> None:
        if self._matching:
            last = self.index(self._matching - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    # -- positions ----------------------------------------------------------------

    def positions_job(self) -> Callable[[Progress], FoundPositions] | None:
        """The work finding the page ends of this list (on a worker thread; its answer
        goes to :meth:`set_positions`); ``None`` when every row can be read already."""
        rows = self._rows
        if rows is None or rows.all_reachable:
            return None
        return lambda progress: (rows, page_ends(rows.index, rows.listing, rows.total, progress))

    def set_positions(self, found: FoundPositions) -> None:
        """Take the page ends :meth:`positions_job` found (ignored if the list changed)."""
        rows, ends = found
        if rows is not self._rows or not rows.set_page_ends(ends):
            return
        self._all_rows_changed()  # the placeholders fill in
        self.positions_found.emit()

    # -- keys -------------------------------------------------------------------

    def _read(self, read: Callable[[ListPositions], T]) -> T | None:
        """``read(rows)`` on the listing shown (``None`` when none, or if the index fails)."""
        if self._rows is None:
            return None
        try:
            return read(self._rows)
        except READ_ERRORS as exc:
            self._failed(exc)
            return None

    def key_at(self, row: int) -> SortKey | None:
        """The sort key of ``row`` (read by keyset if need be); ``None`` if not reachable (yet)."""
        return self._read(lambda rows: rows.key_at(row))

    def attempt_id_at(self, row: int) -> int | None:
        """The attempt shown in ``row`` (see :meth:`key_at`)."""
        return None if (key := self.key_at(row)) is None else key[1]

    def row_of(self, attempt_id: int, fetch_limit: int = 1) -> int | None:
        """The row of ``attempt_id`` (``None``: not listed; ``fetch_limit`` 0: in memory)."""
        if fetch_limit == 0:
            return self._read(lambda rows: rows.held_position(attempt_id))
        return self._read(lambda rows: rows.find(attempt_id))

    def row_of_key(self, key: SortKey) -> int | None:
        """The row of a key of this listing (as :meth:`ReviewIndex.page_keys` gives them)."""
        return self._read(lambda rows: rows.position_of(key))

    def row_data(self, row: int) -> ListRow | None:
        """The light row shown at ``row`` (fetched through the cache)."""
        attempt_id = self.attempt_id_at(row)
        if attempt_id is None or self._index is None or self._rows is None:
            return None
        return self._cache.get(
            self._index, attempt_id, partial(ids_around, self._rows, row, attempt_id)
        )

    # -- Qt model interface -----------------------------------------------------

    @guarded(0)
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._matching

    @guarded(0)
    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section].header
        if role == Qt.ItemDataRole.ToolTipRole:  # the whole header, then what it means
            return COLUMNS[section].tip or COLUMNS[section].header
        return None

    @guarded(Qt.ItemFlag.NoItemFlags)
    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self._cache.is_broken(self.attempt_id_at(index.row())):
            return Qt.ItemFlag.ItemIsSelectable  # shown greyed out: it cannot be read
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid():
            return None
        item = self.row_data(index.row())
        if item is None:  # Anki's placeholder: not read yet, or unreadable (disabled)
            if role == _DISPLAY and index.column() == 0:
                return PLACEHOLDER
            if role == _TOOLTIP:
                broken = self._cache.is_broken(self.attempt_id_at(index.row()))
                return placeholder_tip(self.read_problem if broken else None)
            return None
        column, sight = index.column(), self._sight
        # Why this cell may not tell its value ("" when it may): the Sight says.
        why = sight.hidden_reason(item.question_id) if sight and COLUMNS[column].reveals else ""
        if role == Qt.ItemDataRole.DisplayRole:
            mask = None if not why or sight is None else "" if sight.pending else HIDDEN_CELL
            return cell_text(column, item, mask)
        if role in _COLOURS and column == COL_STATUS:  # colours, not brushes
            shade = status_colours_now(item.status, item.correct)[role == _R.ForegroundRole]
            return None if why else QColor(shade)
        if role == Qt.ItemDataRole.ToolTipRole:
            return cell_tip(column, item, why)
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
