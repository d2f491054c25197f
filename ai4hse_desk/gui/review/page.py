"""The window's Review page, built the first time it is shown or asked for.

The Review view and its controller (and their modules: the blind panel, the
verdict form, the reveal, the review store's reads) are not needed for the
window's first rows, so the page is an empty holder until then. It keeps the
open file and its review index as the window hands them over, and gives both to
the controller when it is made; from then on it passes them straight on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QShowEvent

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.controllers.session_undo import SessionUndo
    from ai4hse_desk.gui.review.controller import ReviewController
    from ai4hse_desk.gui.review.view import ReviewView
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.keyaudit import KeyAuditResult


class ReviewPage(QWidget):
    """Holds the Review view, made on first show (or first :meth:`view`).

    Signals:
        message: the controller's lines for the status bar.
    """

    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self._parts: (
            tuple[
                NotesController, ReviewerIdentity, TaskRunner,
                Callable[[], KeyAuditResult | None], SessionUndo | None,
            ]
            | None
        ) = None  # fmt: skip
        self._built: tuple[ReviewView, ReviewController] | None = None
        self._session: AuditSession | None = None
        self._index: ReviewIndex | None = None

    def attach(
        self,
        notes: NotesController,
        identity: ReviewerIdentity,
        tasks: TaskRunner,
        key_audit: Callable[[], KeyAuditResult | None],
        undo: SessionUndo | None = None,
    ) -> None:
        """What the controller works with (see :class:`ReviewController`), once the
        window has made it (a page shown before, its tab clicked while a starting window
        was still being built, is made now)."""
        self._parts = (notes, identity, tasks, key_audit, undo)
        if self.isVisible():
            self._build()

    def view(self) -> ReviewView:
        """The Review view (made now if it was not yet)."""
        return self._build()[0]

    def controller(self) -> ReviewController:
        """The Review controller (made with the view)."""
        return self._build()[1]

    def show_question(self, question_id: str) -> None:
        """Show ``question_id`` of the reviewer's queue (asked for from another view)."""
        self.controller().open_question(question_id)

    def refresh(self, *, keep_input: bool = True) -> None:
        """What the store holds changed (blind mode left, another plan; ``keep_input``
        False: the reviewer's verdict undone): a Review view on screen reads its question
        again (what the reviewer typed stays, unless ``keep_input`` is False)."""
        if self._built is not None and self._built[0].isVisible():
            self._built[1].reload(keep_input=keep_input)

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none)."""
        self._session, self._index = session, None
        if self._built is not None:
            self._built[1].set_session(session)

    def set_index(self, index: ReviewIndex | None) -> None:
        """The open file's review index is ready."""
        self._index = index
        if self._built is not None:
            self._built[1].set_index(index)

    def _build(self) -> tuple[ReviewView, ReviewController]:
        if self._built is not None:
            return self._built
        if self._parts is None:
            raise RuntimeError("the Review page was asked for before the window attached it")
        from ai4hse_desk.gui.review.controller import ReviewController
        from ai4hse_desk.gui.review.view import ReviewView

        view = ReviewView()
        controller = ReviewController(view, *self._parts, self)
        controller.message.connect(self.message)
        self._built = (view, controller)
        controller.set_session(self._session)
        if self._index is not None:
            controller.set_index(self._index)
        layout = self.layout()
        assert layout is not None  # made in __init__
        layout.addWidget(view)
        self.setFocusProxy(view)
        if self.isVisible():
            view.show()  # shown now (it reads its queue), not at the next turn of the loop
        return self._built

    def showEvent(self, event: QShowEvent) -> None:
        if self._parts is not None:  # (else made when attached)
            self._build()
        super().showEvent(event)


__all__ = ["ReviewPage"]
