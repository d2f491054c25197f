"""The window's Review page: the reviewer's queue (blind first) and the adjudication
workspace, each built the first time it is shown or asked for.

The Review view and its controller (and their modules: the blind panel, the
verdict form, the reveal, the review store's reads) are not needed for the
window's first rows, so the page holds two empty tabs until then. It keeps the
open file and its review index as the window hands them over, and gives both to
each controller when it is made; from then on it passes them straight on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QShowEvent

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.controllers.session_undo import SessionUndo
    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.gui.review.adjudication_controller import AdjudicationController
    from ai4hse_desk.gui.review.adjudication_view import AdjudicationView
    from ai4hse_desk.gui.review.controller import ReviewController
    from ai4hse_desk.gui.review.view import ReviewView
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.keyaudit import KeyAuditResult

QUEUE_TAB, ADJUDICATION_TAB = 0, 1
TAB_TITLES = ("Your queue — blind first", "Adjudication")


def _holder() -> QWidget:
    widget = QWidget()
    layout = QVBoxLayout(widget)
    layout.setContentsMargins(0, 0, 0, 0)
    return widget


class ReviewPage(QWidget):
    """Holds the Review view and the adjudication workspace, each made on first show.

    Signals:
        message: the controllers' lines for the status bar.
    """

    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Review pages")
        self.tabs.setDocumentMode(True)
        for title in TAB_TITLES:
            self.tabs.addTab(_holder(), title)
        self.tabs.currentChanged.connect(lambda _tab: self._build_shown())
        layout.addWidget(self.tabs)
        self._parts: (
            tuple[
                NotesController, ReviewerIdentity, TaskRunner,
                Callable[[], KeyAuditResult | None], SessionUndo | None,
            ]
            | None
        ) = None  # fmt: skip
        self._sight: Sight | None = None
        self._built: tuple[ReviewView, ReviewController] | None = None
        self._judging: tuple[AdjudicationView, AdjudicationController] | None = None
        self._session: AuditSession | None = None
        self._index: ReviewIndex | None = None

    def attach(
        self,
        notes: NotesController,
        identity: ReviewerIdentity,
        tasks: TaskRunner,
        key_audit: Callable[[], KeyAuditResult | None],
        undo: SessionUndo | None = None,
        sight: Sight | None = None,
    ) -> None:
        """What the controllers work with (see :class:`ReviewController`), once the
        window has made it (a page shown before, its tab clicked while a starting window
        was still being built, is made now). ``sight``: what the viewer may see (the
        adjudication workspace needs it)."""
        self._parts, self._sight = (notes, identity, tasks, key_audit, undo), sight
        if self.isVisible():
            self._build_shown()

    def view(self) -> ReviewView:
        """The Review view (made now if it was not yet)."""
        return self._build()[0]

    def controller(self) -> ReviewController:
        """The Review controller (made with the view)."""
        return self._build()[1]

    def adjudication(self) -> AdjudicationView:
        """The adjudication workspace (made now if it was not yet)."""
        return self._build_adjudication()[0]

    def adjudicator(self) -> AdjudicationController:
        """The adjudication workspace's controller (made with it)."""
        return self._build_adjudication()[1]

    def show_question(self, question_id: str) -> None:
        """Show ``question_id`` of the reviewer's queue (asked for from another view)."""
        self.tabs.setCurrentIndex(QUEUE_TAB)
        self.controller().open_question(question_id)

    def show_adjudication(self) -> None:
        """Review ▸ Adjudicate…: the adjudication workspace."""
        self.tabs.setCurrentIndex(ADJUDICATION_TAB)
        self.adjudication().setFocus()

    def refresh(self, *, keep_input: bool = True) -> None:
        """What the store holds changed (blind mode left, another plan, another process;
        ``keep_input`` False: the reviewer's verdict undone): what is on screen reads it
        again (what the reviewer typed stays, unless ``keep_input`` is False)."""
        if self._built is not None and self._built[0].isVisible():
            self._built[1].reload(keep_input=keep_input)
        if self._judging is not None:
            self._judging[1].refresh()

    def key_audit_ready(self) -> None:
        """The key audit finished: the evidence on screen is shown again."""
        if self._built is not None:
            self._built[1].key_audit_ready()
        if self._judging is not None:
            self._judging[1].key_audit_ready()

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none)."""
        self._session, self._index = session, None
        for built in (self._built, self._judging):
            if built is not None:
                built[1].set_session(session)

    def set_index(self, index: ReviewIndex | None) -> None:
        """The open file's review index is ready."""
        self._index = index
        for built in (self._built, self._judging):
            if built is not None:
                built[1].set_index(index)

    def _needs_parts(self) -> tuple[
        NotesController, ReviewerIdentity, TaskRunner,
        Callable[[], KeyAuditResult | None], SessionUndo | None,
    ]:  # fmt: skip
        if self._parts is None:
            raise RuntimeError("the Review page was asked for before the window attached it")
        return self._parts

    def _place(self, tab: int, widget: QWidget) -> None:
        holder = self.tabs.widget(tab)
        layout = None if holder is None else holder.layout()
        assert layout is not None  # made in __init__
        layout.addWidget(widget)
        if self.tabs.currentIndex() == tab:
            self.setFocusProxy(widget)
            if self.isVisible():
                widget.show()  # shown now (it reads what it shows), not at the next turn

    def _build(self) -> tuple[ReviewView, ReviewController]:
        if self._built is not None:
            return self._built
        parts = self._needs_parts()
        from ai4hse_desk.gui.review.controller import ReviewController
        from ai4hse_desk.gui.review.view import ReviewView

        view = ReviewView()
        controller = ReviewController(view, *parts, self)
        controller.message.connect(self.message)
        self._built = (view, controller)
        controller.set_session(self._session)
        if self._index is not None:
            controller.set_index(self._index)
        self._place(QUEUE_TAB, view)
        return self._built

    def _build_adjudication(self) -> tuple[AdjudicationView, AdjudicationController]:
        if self._judging is not None:
            return self._judging
        notes, identity, tasks, key_audit, undo = self._needs_parts()
        if self._sight is None:
            raise RuntimeError("the adjudication workspace needs the window's Sight")
        from ai4hse_desk.gui.review.adjudication_controller import AdjudicationController
        from ai4hse_desk.gui.review.adjudication_view import AdjudicationView

        view = AdjudicationView()
        controller = AdjudicationController(
            view, notes, (identity, self._sight), tasks, key_audit, undo, self
        )
        controller.message.connect(self.message)
        self._judging = (view, controller)
        controller.set_session(self._session)
        if self._index is not None:
            controller.set_index(self._index)
        self._place(ADJUDICATION_TAB, view)
        return self._judging

    def _build_shown(self) -> None:
        """Build what the current tab shows (once the window attached the page)."""
        if self._parts is None:
            return
        if self.tabs.currentIndex() == QUEUE_TAB:
            self.setFocusProxy(self._build()[0])
        else:
            self.setFocusProxy(self._build_adjudication()[0])

    def showEvent(self, event: QShowEvent) -> None:
        self._build_shown()
        super().showEvent(event)


__all__ = ["ADJUDICATION_TAB", "QUEUE_TAB", "TAB_TITLES", "ReviewPage"]
