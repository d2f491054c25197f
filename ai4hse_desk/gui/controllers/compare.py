"""The compare grid follows the selected attempt's question, while its tab is shown.

The question's stored verdicts are read from the review index on the
``compare`` lane of the window's :class:`~ai4hse_desk.gui.workers.runner.TaskRunner`
(given as ``tasks``; without one, e.g. a grid tested on its own, they are read
at once). A newer question cancels an older read, and an answer that arrives
for a question no longer shown is dropped. Moving within the question shown
reads nothing again. A click on a cell opens its attempt side by side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from ai4hse_desk.gui.controllers.views import TAB_ATTEMPT
from ai4hse_desk.gui.workers.task import QueryOp

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTabWidget

    from ai4hse_desk.gui.views.compare_grid import CompareGrid
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ListRow, ReviewIndex
    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail

#: The lane of the grid's reads.
LANE = "compare"


class CompareController(QObject):
    """Fills the grid with every attempt of the shown question (read when the tab shows)."""

    def __init__(
        self,
        grid: CompareGrid,
        tabs: QTabWidget,
        parent: QObject | None = None,
        *,
        tasks: TaskRunner | None = None,
    ) -> None:
        super().__init__(parent)
        self._grid, self._tabs, self._tasks = grid, tabs, tasks
        self._index: ReviewIndex | None = None
        self._detail: AttemptDetail | None = None
        self._shown: tuple[ReviewIndex, str] | None = None  # what the grid holds
        self._wanted: tuple[ReviewIndex, str] | None = None  # what a read is under way for
        tabs.currentChanged.connect(lambda _tab: self.refresh())
        grid.attempt_activated.connect(self._open_side_by_side)

    def set_session(self, _session: object) -> None:
        """Another file is open (or none): an empty grid until its index is ready."""
        self._detail = None
        self.set_index(None)

    def set_index(self, index: ReviewIndex | None) -> None:
        """The review index the grid reads (``None``: an empty grid)."""
        self._index = index
        self._shown = self._wanted = None
        self.refresh()

    def show_detail(self, detail: AttemptDetail) -> None:
        """The selected attempt changed."""
        self._detail = detail
        self.refresh()

    def clear(self) -> None:
        """Nothing is selected."""
        self._detail = None
        self._shown = self._wanted = None
        self._grid.clear()

    def refresh(self) -> None:
        """Read the grid again if its tab is the one shown (and its question changed)."""
        if self._tabs.currentWidget() is not self._grid:
            return
        index, detail = self._index, self._detail
        if index is None or detail is None:
            self._shown = self._wanted = None
            self._grid.clear()
            return
        wanted = (index, detail.question_id)
        if wanted == self._shown:
            self._grid.set_current(detail.attempt_id)
            return
        if wanted == self._wanted:
            return  # its read is under way
        question_id = detail.question_id
        if self._tasks is None:
            self._arrived(wanted, index.compare_grid(question_id))
            return
        self._wanted = wanted
        self._tasks.cancel(LANE)
        task = self._tasks.run(
            QueryOp(lambda _p: index.compare_grid(question_id), lane=LANE, name="compare grid")
        )
        task.succeeded.connect(lambda rows: self._arrived(wanted, rows))
        task.failed.connect(lambda text: self._failed(wanted, text))

    def _arrived(self, wanted: tuple[ReviewIndex, str], rows: list[ListRow]) -> None:
        detail = self._detail
        if detail is None or (self._index, detail.question_id) != wanted:
            return  # another question (or file) is shown now
        self._wanted, self._shown = None, wanted
        options = detail.option_rows
        key = tuple(option.key for option in options) if options else None
        texts = [option.text for option in options]
        self._grid.set_rows(wanted[1], rows, detail.attempt_id, key, texts)

    def _failed(self, wanted: tuple[ReviewIndex, str], text: str) -> None:
        if wanted == self._wanted:
            self._wanted = None
            self._grid.show_problem(text)

    def _open_side_by_side(self, _attempt_id: int) -> None:
        """A cell was clicked: its attempt is shown side by side (the window selects it)."""
        self._tabs.setCurrentIndex(TAB_ATTEMPT)


__all__ = ["LANE", "CompareController"]
