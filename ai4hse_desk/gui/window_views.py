"""The window's top-level views beside the attempts: scores dashboard and key audit.

A mixin of :class:`~ai4hse_desk.gui.main_window.MainWindow`. Each view is
computed the first time it is shown for an opened database (``wait`` computes
it at once, for headless screenshots).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.gui.flag_dialog import FlagValues
from ai4hse_desk.gui.window_navigation import TAB_ATTEMPT, TAB_COMPARE
from ai4hse_desk.index import AttemptQuery

if TYPE_CHECKING:
    from ai4hse_desk.gui.main_window import MainWindow

    _Base = MainWindow
else:
    _Base = object

VIEW_ATTEMPTS, VIEW_SCORES, VIEW_KEYAUDIT = 0, 1, 2


class ViewsMixin(_Base):
    """Switching between attempts, scores and key audit, and their hand-overs."""

    def show_compare(self) -> None:
        """Ctrl+2: the compare grid of the current question."""
        self.views.setCurrentIndex(VIEW_ATTEMPTS)
        self.tabs.setCurrentIndex(TAB_COMPARE)

    def show_attempt_tab(self) -> None:
        """Ctrl+1: the selected attempt side by side."""
        self.views.setCurrentIndex(VIEW_ATTEMPTS)
        self.tabs.setCurrentIndex(TAB_ATTEMPT)

    def show_scores(self, *, wait: bool = False) -> None:
        """Ctrl+3: the scores dashboard (computed on first show; ``wait``: now)."""
        self._ensure_scores(wait=wait)
        self.views.setCurrentIndex(VIEW_SCORES)

    def _view_changed(self, index: int) -> None:
        if index == VIEW_SCORES:
            self._ensure_scores()
        elif index == VIEW_KEYAUDIT:
            self._ensure_keyaudit()

    def show_keyaudit(self, *, wait: bool = False) -> None:
        """Ctrl+4: questions ranked by key-audit evidence (computed on first show)."""
        self._ensure_keyaudit(wait=wait)
        self.views.setCurrentIndex(VIEW_KEYAUDIT)
        self.keyaudit.table.setFocus()

    def _ensure_keyaudit(self, *, wait: bool = False) -> None:
        session = self.session
        if session is None or self._keyaudit_loaded_for is session:
            return
        self._keyaudit_loaded_for = session
        if wait:
            self.keyaudit.load_now(session.db)
        else:
            self.keyaudit.load(session.db)

    def open_question_compare(self, question_id: str) -> None:
        """Key audit ▸ Enter: the question's first attempt, with the compare grid."""
        self.views.setCurrentIndex(VIEW_ATTEMPTS)
        self.notes.jump_to_question(question_id)
        self.tabs.setCurrentIndex(TAB_COMPARE)

    def flag_key_from_audit(self, question_id: str, option: int | None) -> None:
        """Key audit ▸ F: a key_incorrect flag on the question, the option pre-filled."""
        item = self.keyaudit.current()
        reason = item.reasons[0] if item is not None and item.reasons else ""
        self.views.setCurrentIndex(VIEW_ATTEMPTS)
        self.notes.jump_to_question(question_id)
        self.tabs.setCurrentIndex(TAB_ATTEMPT)
        self.notes.add_flag(
            preset=FlagValues("key_incorrect", option, "medium", f"Key audit: {reason}".strip())
        )

    def _ensure_scores(self, *, wait: bool = False) -> None:
        session = self.session
        if session is None or self._scores_loaded_for is session:
            return
        self._scores_loaded_for = session
        if wait:
            self.scores.load_now(session.db)
        else:
            self.scores.load(session.db)

    def show_attempts_for(self, query: AttemptQuery) -> None:
        """A click on a plotted bar or point: the attempts behind it in the list."""
        self.clear_search_box()
        self.filters.apply_query(query)
        self.views.setCurrentIndex(VIEW_ATTEMPTS)
        self.tabs.setCurrentIndex(TAB_ATTEMPT)

    def clear_search_box(self) -> None:
        """Empty the search box without searching."""
        self.search.edit.blockSignals(True)
        self.search.edit.clear()
        self.search.edit.blockSignals(False)
