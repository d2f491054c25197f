"""The review's parts the window holds beside its pages: Review ▸ Plan…, Review ▸
Adjudicate…, and the live view of the notes store.

:class:`ReviewExtras` makes them and wires them to the pages they serve (the window,
:mod:`ai4hse_desk.gui.main_window`, only builds it and shows its lines):

* the key audit, once computed, refreshes the evidence a Review or adjudication page
  shows (it said "still being computed" when the reveal came first);
* a change of the notes store by another process (:class:`~.store_watch.StoreWatch`)
  reads the Review page and the adjudication workspace again;
* the plan's lines go to the status bar (:attr:`ReviewExtras.message`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.controllers.store_watch import StoreWatch
from ai4hse_desk.gui.review.plan_action import PlanController

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.controllers.views import ViewSwitcher
    from ai4hse_desk.gui.review.page import ReviewPage
    from ai4hse_desk.gui.views.keyaudit import KeyAuditView
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index.session import AuditSession


class ReviewExtras(QObject):
    """Review ▸ Plan…, Review ▸ Adjudicate… and the live store watch of one window.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        notes: NotesController,
        identity: ReviewerIdentity,
        tasks: TaskRunner,
        pages: tuple[ReviewPage, KeyAuditView, ViewSwitcher],
        dialogs: QWidget,
    ) -> None:
        super().__init__(dialogs)
        self._page, self._keyaudit, self._switcher = pages
        self.plan = PlanController(notes, identity, lambda: self._keyaudit.result, dialogs, self)
        self.watch = StoreWatch(notes, tasks, self)
        self.plan.message.connect(self.message)
        self._keyaudit.computed.connect(self._page.key_audit_ready)
        self.watch.changed.connect(self._page.refresh)

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none)."""
        self.plan.set_session(session)
        self.watch.set_session(session)

    def index_ready(self, index: object) -> None:
        """The open file's review index is ready: the watch starts."""
        self.watch.index_ready(index)

    def close(self) -> None:
        """The window is closing (its lanes have ended): the store watch lets go."""
        self.watch.close()

    def adjudicate(self) -> None:
        """Review ▸ Adjudicate…: the Review page's adjudication workspace."""
        self._switcher.show_review()
        self._page.show_adjudication()


__all__ = ["ReviewExtras"]
