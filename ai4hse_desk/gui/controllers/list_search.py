"""Finding a search's rows for the attempt list: its first page, then its count.

A full-text search shows its first page at once, found as datasette finds a table's
first page (an index-driven ``LIMIT``:
:meth:`~ai4hse_desk.index.ReviewIndex.first_keys`); when a whole page matched, every
match is counted on the list's lane and the list then holds them all. A plain
``LIKE`` search (before the full-text index is built) scans every response, so its
count and first page are found on the lane while the list shows what it showed.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.models.attempt_listing import FirstPage, first_page
from ai4hse_desk.gui.qt_guard import READ_ERRORS
from ai4hse_desk.gui.workers.task import QueryOp
from ai4hse_desk.index.positions import PAGE

if TYPE_CHECKING:
    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import AttemptQuery, ReviewIndex, SortKey


class ListSearch(QObject):
    """Shows a search's rows in the model: at once what can be, the rest from a task.

    Signals:
        searching: True while the search is found (or counted) in the background.
        failed: the search could not be found (one line).
    """

    searching = Signal(bool)
    failed = Signal(str)

    def __init__(self, model: AttemptTableModel, tasks: TaskRunner, lane: str) -> None:
        super().__init__(model)
        self._model = model
        self._tasks = tasks
        self._lane = lane
        self.wanted: AttemptQuery | None = None  # a search still found or counted

    def forget(self) -> None:
        """Drop the search being found (its answer is ignored when it comes)."""
        self.wanted = None

    def show(self, index: ReviewIndex, query: AttemptQuery, full_text: bool) -> None:
        """Show ``query``'s rows (a search; ``full_text``: with the full-text index)."""
        sort, descending = self._model.sort_order
        if full_text:
            keys: list[SortKey] = []
            with suppress(*READ_ERRORS):  # (else the model's own read says what failed)
                keys = index.first_keys(query, sort, descending, PAGE)
            self.wanted = query if len(keys) == PAGE else None  # (the counts line waits)
            if keys:
                self._model.show_first_page(FirstPage(query, sort, descending, len(keys), keys))
            else:
                self._model.set_query(query)
            if self.wanted is None:
                self.searching.emit(False)
                return
        self.wanted = query
        self.searching.emit(True)
        task = self._tasks.run(
            QueryOp(lambda _p: first_page(index, query, sort, descending), lane=self._lane)
        )
        task.succeeded.connect(self._found)
        task.failed.connect(lambda message: self._failed(query, message))

    def _found(self, page: FirstPage) -> None:
        if page.query != self.wanted:
            return
        self.wanted = None
        self.searching.emit(False)
        self._model.show_first_page(page)

    def _failed(self, query: AttemptQuery, message: str) -> None:
        if query == self.wanted:
            self.wanted = None
            self.searching.emit(False)
            self.failed.emit(message)


__all__ = ["ListSearch"]
