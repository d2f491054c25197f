"""Moving through the attempt list and filling the side-by-side detail (the window's keys).

A mixin of :class:`~ai4hse_desk.gui.main_window.MainWindow`: J/K, N/P, E, the
selection, and the panels of the selected attempt. The attributes it uses
(``model``, ``table``, ``session``, the panels …) are the window's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QAbstractItemView

from ai4hse_desk.gui.qt_guard import problem_text
from ai4hse_desk.index import PARSE_ERROR_STATUSES
from ai4hse_desk.verdicts.attempt_detail import build_detail

if TYPE_CHECKING:
    from ai4hse_desk.gui.main_window import MainWindow

    _Base = MainWindow
else:
    _Base = object

TAB_ATTEMPT, TAB_COMPARE = 0, 1


def _cannot(attempt_id: int) -> str:
    return f"Attempt {attempt_id} cannot be shown"


class NavigationMixin(_Base):
    """Selection, J/K/N/P/E navigation and the detail of the selected attempt."""

    def select_row(self, row: int) -> None:
        """Select ``row`` of the attempt list (fetching more rows if needed)."""
        while row >= self.model.rowCount() and self.model.canFetchMore(self.table.rootIndex()):
            self.model.fetchMore(self.table.rootIndex())
        if 0 <= row < self.model.rowCount():
            index = self.model.index(row, 0)
            self.table.setCurrentIndex(index)
            self.table.selectRow(row)
            self.table.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def move_row(self, step: int) -> None:
        """J/K: the next or previous attempt in the list."""
        current = self.table.currentIndex().row()
        self.select_row(max(0, current + step) if current >= 0 else 0)

    def move_question(self, direction: int) -> None:
        """N/P: the first listed attempt of the next or previous question."""
        index, session = self.model.review_index, self.session
        if index is None or session is None or self.current_attempt is None:
            return
        row = self.model.row_data(self.table.currentIndex().row())
        if row is None:
            return
        ordinal = index.neighbour_question(row.ordinal, direction, self.model.query)
        if ordinal is None:
            self.statusBar().showMessage("No further question under the current filter.")
            return
        question = session.by_ordinal[ordinal]
        sort, descending = self.model.sort_order
        query = replace(self.model.query, question_ids=(question.question_id,))
        keys = index.page_keys(query, sort, descending, None, 1)
        if keys:
            self.show_attempt(keys[0][1])

    def next_parse_error(self) -> None:
        """E: the next attempt with a parse-error status, in the list's order."""
        index = self.model.review_index
        if index is None:
            return
        query = self.model.query
        wanted = PARSE_ERROR_STATUSES
        if query.statuses is not None:
            wanted = tuple(s for s in query.statuses if s in PARSE_ERROR_STATUSES)
        if not wanted:
            self.statusBar().showMessage("The current filter shows no parse errors.")
            return
        sort, descending = self.model.sort_order
        row = self.table.currentIndex().row()
        after = self.model.key_at(row)
        found = index.next_matching(replace(query, statuses=wanted), sort, after, descending)
        if found is None:
            self.statusBar().showMessage("No further parse error in the list.")
            return
        self.show_attempt(found[1])

    def show_attempt(self, attempt_id: int) -> None:
        """Select ``attempt_id`` in the list (fetching pages) and show it."""
        row = self.model.row_of(attempt_id, fetch_limit=2000)
        if row is None:
            self.statusBar().showMessage(f"Attempt {attempt_id} is not in the current list.")
            return
        self.select_row(row)

    def _row_changed(self, current: Any, _previous: Any) -> None:
        row = self.table.currentIndex().row()
        attempt_id = self.model.attempt_id_at(row)
        if attempt_id is None or attempt_id == self.current_attempt:
            return
        self._fill_detail(attempt_id)

    def _fill_detail(self, attempt_id: int) -> None:
        session = self.session
        if session is None:
            return
        try:
            attempt = session.attempt(attempt_id)
            if attempt is None:
                return
            question = session.questions[attempt.question_id]
            run = session.runs[attempt.run_id]
            detail = build_detail(attempt, question, run)
        except KeyError as exc:  # an attempt of a run or question the file does not list
            self.unreadable(f"it refers to an unknown run or question {exc}", _cannot(attempt_id))
            return
        except Exception as exc:  # a value the schema forbids (text in an integer column …)
            self.unreadable(problem_text(exc), _cannot(attempt_id))
            return
        self.current_attempt = attempt_id
        self.current_question = attempt.question_id
        self.question_panel.set_detail(detail)
        self.verdict_panel.set_detail(detail)
        self.response_view.set_response(detail.raw_response, detail.spans)
        self._refresh_compare()
        self.attempt_shown.emit(attempt_id)

    def _refresh_compare(self) -> None:
        if self.tabs.currentIndex() != TAB_COMPARE:
            return
        index, question_id = self.model.review_index, self.current_question
        if index is None or question_id is None or self.current_attempt is None:
            self.compare.clear()
            return
        rows = index.compare_grid(question_id)
        self.compare.set_rows(question_id, rows, self.current_attempt)
