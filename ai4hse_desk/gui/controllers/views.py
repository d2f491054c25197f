"""Switching between the window's pages, and the hand-overs between them.

The attempts page (side by side, or the compare grid), the scores dashboard,
the key audit and the Review view. Scores are computed the first time they are shown
for an opened file; the key audit in the background as soon as the file's review
index is ready (or when its page is shown first) (``wait`` waits for them, for headless
screenshots and tests). A click on a plotted bar filters the attempt list; the key audit opens a
question's compare grid or starts a ``key_incorrect`` flag on it. The Filters dock
filters the attempt list only, and folds away in a narrow window
(:class:`~.filters_dock_rule.FiltersDockRule`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.controllers.filters_dock_rule import FiltersDockRule

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget, QTabWidget

    from ai4hse_desk.gui.controllers.attempt_list import AttemptList
    from ai4hse_desk.gui.controllers.navigation import Navigator
    from ai4hse_desk.gui.views.keyaudit import KeyAuditView
    from ai4hse_desk.gui.views.scores import ScoresView
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import AttemptQuery
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.review.final_state import Exploration

VIEW_ATTEMPTS, VIEW_SCORES, VIEW_KEYAUDIT, VIEW_REVIEW = 0, 1, 2, 3
TAB_ATTEMPT, TAB_COMPARE = 0, 1


class ViewSwitcher(QObject):
    """Shows one page or tab at a time and computes scores and key audit on first show.

    Signals:
        flag_requested: (question id, the dialog's starting values) from the key audit.
    """

    flag_requested = Signal(str, object)

    def __init__(
        self,
        pages: QTabWidget,
        detail_tabs: QTabWidget,
        scores: ScoresView,
        keyaudit: KeyAuditView,
        navigator: Navigator,
        attempt_list: AttemptList,
        tasks: TaskRunner,
        filters_dock: QDockWidget | None = None,
    ) -> None:
        super().__init__(pages)
        self.filters_rule = (
            None
            if filters_dock is None
            else FiltersDockRule(
                filters_dock, pages, on_attempts=pages.currentIndex() == VIEW_ATTEMPTS
            )
        )
        self._pages, self._detail = pages, detail_tabs
        self._scores, self._keyaudit = scores, keyaudit
        self._navigator, self._list = navigator, attempt_list
        self._tasks = tasks
        self._session: AuditSession | None = None
        self._scores_for: AuditSession | None = None
        self._keyaudit_for: AuditSession | None = None
        pages.currentChanged.connect(self._page_changed)
        scores.filter_requested.connect(self.show_attempts_for)
        keyaudit.open_question.connect(self.open_question_compare)
        keyaudit.flag_requested.connect(self._flag_from_audit)

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none): its scores and key audit are computed anew."""
        self._session = session
        self._scores_for = self._keyaudit_for = None
        self._scores.clear()
        self._keyaudit.clear()

    def index_ready(self, _index: object) -> None:
        """The review index is ready: the key audit starts in the background (the Review
        view shows its evidence without a visit to its page); a scores page shown now is
        computed."""
        session = self._session
        if session is not None and self._keyaudit_for is not session:
            self._keyaudit_for = session
            self._keyaudit.load(session.db, index=session.index)
        self._page_changed(self._pages.currentIndex())

    def show_attempt_tab(self) -> None:
        """Ctrl+1: the selected attempt side by side."""
        self._pages.setCurrentIndex(VIEW_ATTEMPTS)
        self._detail.setCurrentIndex(TAB_ATTEMPT)

    def show_compare(self) -> None:
        """Ctrl+2: the compare grid of the current question."""
        self._pages.setCurrentIndex(VIEW_ATTEMPTS)
        self._detail.setCurrentIndex(TAB_COMPARE)

    def show_scores(self, *, wait: bool = False) -> None:
        """Ctrl+3: the scores dashboard (computed on first show; ``wait``: until shown)."""
        self._pages.setCurrentIndex(VIEW_SCORES)
        if wait:
            self._tasks.wait_idle()

    def show_keyaudit(self, *, wait: bool = False) -> None:
        """Ctrl+4: questions ranked by key-audit evidence (computed on first show)."""
        self._pages.setCurrentIndex(VIEW_KEYAUDIT)
        self._keyaudit.table.setFocus()
        if wait:
            self._tasks.wait_idle()

    def show_review(self, *, wait: bool = False) -> None:
        """Ctrl+5: the Review view, one question of the reviewer's queue, blind first."""
        self._pages.setCurrentIndex(VIEW_REVIEW)
        page = self._pages.widget(VIEW_REVIEW)
        if page is not None:
            page.setFocus()  # its keys (1–9, 0, Enter) work at once
        if wait:
            self._tasks.wait_idle()

    def explore_without(self, explored: Exploration, reason: str) -> None:
        """Scores ▸ Sensitivity: the metrics without ``explored``'s excluded questions and
        with its corrected keys (never official)."""
        self.show_scores()
        self._scores.set_excluded_questions(
            set(explored.excluded), reason, corrected=explored.corrected_keys
        )

    def _page_changed(self, page: int) -> None:
        if self.filters_rule is not None:
            self.filters_rule.page_changed(page == VIEW_ATTEMPTS)
        session = self._session
        if session is None:
            return
        if page == VIEW_SCORES and self._scores_for is not session:
            self._scores_for = session
            self._scores.load(session.db, index=session.index)
        elif page == VIEW_KEYAUDIT and self._keyaudit_for is not session:
            self._keyaudit_for = session
            self._keyaudit.load(session.db, index=session.index)

    def show_attempts_for(self, query: AttemptQuery) -> None:
        """A click on a plotted bar or point: the attempts behind it in the list."""
        self._list.apply_query(query)
        self.show_attempt_tab()

    def open_question_compare(self, question_id: str) -> None:
        """Key audit ▸ Enter: the question's first attempt, with the compare grid."""
        self._pages.setCurrentIndex(VIEW_ATTEMPTS)
        self._navigator.jump_to_question(question_id)
        self._detail.setCurrentIndex(TAB_COMPARE)

    def _flag_from_audit(self, question_id: str, option: int | None) -> None:
        """Key audit ▸ F: a key_incorrect flag on the question, the option pre-filled."""
        item = self._keyaudit.current()
        reason = item.reasons[0] if item is not None and item.reasons else ""
        self.show_attempt_tab()
        self._navigator.jump_to_question(question_id)
        from ai4hse_desk.gui.dialogs.flag import FlagValues  # the dialog's module, on use

        preset = FlagValues("key_incorrect", option, "medium", f"Key audit: {reason}".strip())
        self.flag_requested.emit(question_id, preset)


__all__ = [
    "TAB_ATTEMPT",
    "TAB_COMPARE",
    "VIEW_ATTEMPTS",
    "VIEW_KEYAUDIT",
    "VIEW_REVIEW",
    "VIEW_SCORES",
    "ViewSwitcher",
]
