"""Go to… in the attempt list: the row of a question, an attempt or a row number.

:class:`GoTo` turns what :func:`~ai4hse_desk.gui.dialogs.go_to.parse_go_to` read
into a row of the attempt table model and announces it (``row_chosen``); the
attempt list controller owns it and forwards both signals. A question's row is its
first attempt in the list's order; an attempt or question the filters hide clears
them first (as a jump from the notes list does). A row the model cannot place yet
(a filtered list whose page ends are still being found) is gone to when they
arrive; a new list forgets it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.qt_guard import READ_ERRORS, problem_text
from ai4hse_desk.index import AttemptQuery

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.dialogs.go_to import GoToTarget
    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
    from ai4hse_desk.index import ReviewIndex, SortKey


class GoTo(QObject):
    """Finds the row Go to lands on.

    Args:
        clear_filters: empties the search box and every filter (the list resets).

    Signals:
        row_chosen: the row to select and scroll to.
        message: a line for the status bar.
    """

    row_chosen = Signal(int)
    message = Signal(str)

    def __init__(
        self,
        model: AttemptTableModel,
        clear_filters: Callable[[], None],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._clear_filters = clear_filters
        self._waiting: tuple[GoToTarget, SortKey | None] | None = None
        self._cleared = False  # the filters were cleared to reach the target
        model.modelReset.connect(self._forget)
        model.positions_found.connect(self._positions_found)

    def go_to(self, text: str) -> bool:
        """Go to what ``text`` names; False (and a one-line ``message``) when there is
        nothing to go to."""
        # Its dialog's module, and the text helpers it shares: on first use, not at start.
        from ai4hse_desk.gui.dialogs.go_to import parse_go_to

        target = parse_go_to(text)
        if target is None or self._model.review_index is None:
            return False
        self._waiting, self._cleared = None, False
        try:
            return self._go(target)
        except READ_ERRORS as exc:
            self.message.emit(f"Go to {target.describe()} failed: {problem_text(exc)}")
            return False

    def _forget(self) -> None:
        self._waiting = None

    def _positions_found(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            target, key = waiting
            row = int(target.value) - 1 if key is None else self._model.row_of_key(key)
            if row is not None:
                self._chosen(target, row)

    def _go(self, target: GoToTarget) -> bool:
        model = self._model
        if target.kind == "row":
            rows, wanted = model.rowCount(), int(target.value)
            if not 1 <= wanted <= rows:
                self.message.emit(f"The list has {rows:,} rows: there is no row {wanted:,}.")
                return False
            if model.key_at(wanted - 1) is None:  # far from every known key: wait
                return self._wait(target, None)
            return self._chosen(target, wanted - 1)
        key = self._key_for(target)
        if key is None:
            return False
        # Counting the rows before a key is quick on the whole list; under a filter
        # it may not be, and the page ends (on their way) place it at once.
        if not model.all_reachable and model.query != AttemptQuery():
            return self._wait(target, key)
        row = model.row_of_key(key)
        return row is not None and self._chosen(target, row)

    def _wait(self, target: GoToTarget, key: SortKey | None) -> bool:
        self._waiting = (target, key)
        self.message.emit(f"Going to {target.describe()} once the list's rows are placed…")
        return True

    def _chosen(self, target: GoToTarget, row: int) -> bool:
        self.row_chosen.emit(row)
        where = f"row {row + 1:,} of {self._model.rowCount():,}"
        cleared = " (filters and search cleared)" if self._cleared else ""
        self._cleared = False
        said = target.describe()  # "question Q060": only its first letter raised
        self.message.emit(f"{said[:1].upper()}{said[1:]}: {where}{cleared}.")
        return True

    def _key_for(self, target: GoToTarget) -> SortKey | None:
        """The listed key of an attempt or of a question's first attempt (the filters
        cleared if they hide it); ``None`` and a message when there is none."""
        index = self._model.review_index
        if index is None:
            return None
        attempt_id: int | None = None
        question_id: str | None = None
        if target.kind == "attempt":
            attempt_id = int(target.value)
            if index.key_of(None, "attempt_id", attempt_id) is None:
                self.message.emit(f"There is no attempt #{attempt_id} in this file.")
                return None
        else:
            question_id = index.find_question(str(target.value))
            if question_id is None:
                from ai4hse_desk.display.text_sanitize import display_text

                shown = display_text(str(target.value), 60)
                self.message.emit(f"There is no question {shown} in this file (nor such a row).")
                return None
        key = self._first_key(index, self._model.query, question_id, attempt_id)
        if key is None and self._first_key(index, AttemptQuery(), question_id, attempt_id) is None:
            self.message.emit(f"{target.describe().capitalize()} has no attempts.")
            return None
        if key is None:
            self._clear_filters()  # the model resets: a waiting target is forgotten
            self._cleared = True
            key = self._first_key(index, self._model.query, question_id, attempt_id)
        return key

    def _first_key(
        self,
        index: ReviewIndex,
        query: AttemptQuery,
        question_id: str | None,
        attempt_id: int | None,
    ) -> SortKey | None:
        """The key of ``attempt_id``, or of ``question_id``'s first attempt, under ``query``."""
        sort, descending = self._model.sort_order
        if attempt_id is not None:
            return index.key_of(query, sort, attempt_id)
        wanted = replace(query, question_ids=(str(question_id),))
        keys = index.page_keys(wanted, sort, descending, limit=1)
        return keys[0] if keys else None


__all__ = ["GoTo"]
