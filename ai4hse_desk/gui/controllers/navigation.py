"""Moving through the attempt list: J/K, N/P, E, and jumps from other views.

The list's current row decides the selected attempt (:class:`AttemptSelection`);
everything here only moves that row, asking the review index for the next
question or parse error in the list's own order. An empty list shows no attempt
(the selection is cleared, so the detail panes empty and their actions turn off),
and Enter in the search box hands the keyboard back to the list (J/K move again).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QObject, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QTableView

from ai4hse_desk.index import PARSE_ERROR_STATUSES

if TYPE_CHECKING:
    from ai4hse_desk.gui.controllers.attempt_list import AttemptList
    from ai4hse_desk.gui.controllers.selection import AttemptSelection
    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
    from ai4hse_desk.index.session import AuditSession

#: Pages fetched at most to find an attempt in the list (500 rows each).
FIND_PAGES = 2000


class Navigator(QObject):
    """Keeps the list's current row and the selected attempt together.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        table: QTableView,
        model: AttemptTableModel,
        selection: AttemptSelection,
        attempt_list: AttemptList,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._table = table
        self._model = model
        self._selection = selection
        self._list = attempt_list
        self._session: AuditSession | None = None
        table.selectionModel().currentRowChanged.connect(self._row_changed)
        model.modelReset.connect(self.follow_list)
        attempt_list.search_submitted.connect(self.focus_list)

    def set_session(self, session: AuditSession | None) -> None:
        """The file now open (its questions give N/P their order)."""
        self._session = session

    # -- rows -----------------------------------------------------------------------------

    def select_row(self, row: int) -> None:
        """Select ``row`` of the attempt list (fetching more rows if needed)."""
        root = self._table.rootIndex()
        while row >= self._model.rowCount() and self._model.canFetchMore(root):
            self._model.fetchMore(root)
        if 0 <= row < self._model.rowCount():
            index = self._model.index(row, 0)
            self._table.setCurrentIndex(index)
            self._table.selectRow(row)
            self._table.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def move_row(self, step: int) -> None:
        """J/K: the next or previous attempt in the list."""
        current = self._table.currentIndex().row()
        self.select_row(max(0, current + step) if current >= 0 else 0)

    def show_attempt(self, attempt_id: int) -> bool:
        """Select ``attempt_id`` in the list (fetching pages) and show it."""
        row = self._model.row_of(attempt_id, fetch_limit=FIND_PAGES)
        if row is None:
            self.message.emit(f"Attempt {attempt_id} is not in the current list.")
            return False
        self.select_row(row)
        return True

    def focus_list(self) -> None:
        """Give the list the keyboard (after Enter in the search box), a row current."""
        self._table.setFocus(Qt.FocusReason.OtherFocusReason)
        if self._table.currentIndex().row() < 0 and self._model.rowCount():
            self.select_row(0)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        attempt_id = self._model.attempt_id_at(current.row())
        if attempt_id is not None and attempt_id != self._selection.attempt_id:
            self._selection.show(attempt_id)

    def follow_list(self) -> None:
        """After the list's reset (or once, for a window whose detail is made after its
        first rows): keep the attempt shown selected if it is still listed, else the
        first row; an empty list shows nothing."""
        if not self._model.rowCount():
            self._selection.clear()  # the detail empties and its actions turn off
            return
        shown = self._selection.attempt_id
        if shown is not None:
            row = self._model.row_of(shown, fetch_limit=0)
            if row is not None:
                self._table.selectRow(row)
                return
        if self._model.rowCount():
            self.select_row(0)

    # -- N/P, E -----------------------------------------------------------------------------

    def move_question(self, direction: int) -> None:
        """N/P: the first listed attempt of the next or previous question."""
        index, session = self._model.review_index, self._session
        row = self._model.row_data(self._table.currentIndex().row())
        if index is None or session is None or row is None:
            return
        ordinal = index.neighbour_question(row.ordinal, direction, self._model.query)
        if ordinal is None:
            self.message.emit("No further question under the current filter.")
            return
        found = self._first_attempt(session.by_ordinal[ordinal].question_id)
        if found is not None:
            self.show_attempt(found)

    def next_parse_error(self) -> None:
        """E: the next attempt with a parse-error status, in the list's order."""
        index = self._model.review_index
        if index is None:
            return
        query = self._model.query
        wanted = PARSE_ERROR_STATUSES
        if query.statuses is not None:
            wanted = tuple(s for s in query.statuses if s in PARSE_ERROR_STATUSES)
        if not wanted:
            self.message.emit("The current filter shows no parse errors.")
            return
        sort, descending = self._model.sort_order
        after = self._model.key_at(self._table.currentIndex().row())
        found = index.next_matching(replace(query, statuses=wanted), sort, after, descending)
        if found is None:
            self.message.emit("No further parse error in the list.")
            return
        self.show_attempt(found[1])

    # -- jumps from the notes list and the key audit ---------------------------------------

    def jump_to_question(self, question_id: str) -> None:
        """The first listed attempt of ``question_id`` (filters cleared if they hide it)."""
        found = self._first_attempt(question_id)
        if found is None:
            self._list.clear_all()
            found = self._first_attempt(question_id)
        if found is None:
            self.message.emit(f"No attempt of {question_id} is listed.")
            return
        self.show_attempt(found)

    def jump_to_attempt(self, attempt_id: int) -> None:
        """Show ``attempt_id`` (filters cleared if they hide it)."""
        if self._model.row_of(attempt_id, fetch_limit=FIND_PAGES) is None:
            self._list.clear_all()
        self.show_attempt(attempt_id)

    def _first_attempt(self, question_id: str) -> int | None:
        index = self._model.review_index
        if index is None:
            return None
        sort, descending = self._model.sort_order
        query = replace(self._model.query, question_ids=(question_id,))
        keys = index.page_keys(query, sort, descending, None, 1)
        return keys[0][1] if keys else None


__all__ = ["FIND_PAGES", "Navigator"]
