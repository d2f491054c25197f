"""The compare grid follows the selected attempt's question, while its tab is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTabWidget

    from ai4hse_desk.gui.views.compare_grid import CompareGrid
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail


class CompareController(QObject):
    """Fills the grid with every attempt of the shown question (read when the tab shows)."""

    def __init__(self, grid: CompareGrid, tabs: QTabWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._grid, self._tabs = grid, tabs
        self._index: ReviewIndex | None = None
        self._detail: AttemptDetail | None = None
        tabs.currentChanged.connect(lambda _tab: self.refresh())

    def set_session(self, _session: object) -> None:
        """Another file is open (or none): an empty grid until its index is ready."""
        self._detail = None
        self.set_index(None)

    def set_index(self, index: ReviewIndex | None) -> None:
        """The review index the grid reads (``None``: an empty grid)."""
        self._index = index
        self.refresh()

    def show_detail(self, detail: AttemptDetail) -> None:
        """The selected attempt changed."""
        self._detail = detail
        self.refresh()

    def clear(self) -> None:
        """Nothing is selected."""
        self._detail = None
        self._grid.clear()

    def refresh(self) -> None:
        """Read the grid again if its tab is the one shown."""
        if self._tabs.currentWidget() is not self._grid:
            return
        if self._index is None or self._detail is None:
            self._grid.clear()
            return
        question_id = self._detail.question_id
        rows = self._index.compare_grid(question_id)
        self._grid.set_rows(question_id, rows, self._detail.attempt_id)


__all__ = ["CompareController"]
