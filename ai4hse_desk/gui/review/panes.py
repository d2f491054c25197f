"""The Review page's three panes — your queue, the question, the reveal — arranged by the
width they get.

The rule: the queue list stands at the left while the page is at least
:meth:`ReviewPanes.with_list_width` wide: the list's own width, :data:`QUESTION_WIDTH` for the
question and its verdict form, :data:`REVEAL_WIDTH` for the key, the runs' grid and the
evidence (constants, so the list does not come and go as the form appears after the blind
answer). Narrower — a window of 800 px, two reviewers side by side on one screen — the list
folds away; the page's *Queue list* button (or dragging its left edge) opens it again. Until
the reviewer moves a handle or uses the button, the question and the reveal share the width
left evenly, the question never narrower than its content's minimum
(:meth:`ReviewPanes.question_width`), so the blind answer's buttons and the form stay in
sight: at 800 px they were cut off behind a sideways scroll bar. Moved, the sizes stay as the
reviewer left them until the page crosses the rule's width.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QScrollArea, QSplitter, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent

#: The width the reveal needs beside the question (the key table, the runs' grid).
REVEAL_WIDTH = 360
#: The width the question column needs beside the list: its text, the blind answer and a
#: verdict form of four options (about 470 px at default fonts) without a sideways scroll.
QUESTION_WIDTH = 480


class ReviewPanes(QSplitter):
    """Queue list | question | reveal (see the module docstring).

    Signals:
        list_changed: the queue list came into sight (True) or folded away (False).
    """

    list_changed = Signal(bool)

    def __init__(self, queue: QWidget, question: QScrollArea, reveal: QScrollArea) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setObjectName("review_splitter")
        self._queue, self._question = queue, question
        for number, (pane, stretch) in enumerate(((queue, 0), (question, 1), (reveal, 1))):
            self.addWidget(pane)
            self.setStretchFactor(number, stretch)
        self.setCollapsible(1, False)
        self.setCollapsible(2, False)
        self.splitterMoved.connect(self._moved)
        self._with_list: bool | None = None  # not arranged yet
        self._by_reviewer = False  # a handle moved in this arrangement
        self._shown = False  # the list's state last reported
        # The question column's least width changes with its content (the verdict form
        # appears after the blind answer): arranged again once that is laid out.
        self._arrange_soon = QTimer(self)
        self._arrange_soon.setSingleShot(True)
        self._arrange_soon.setInterval(0)
        self._arrange_soon.timeout.connect(self._arrange)
        if (content := question.widget()) is not None:
            content.installEventFilter(self)

    def question_width(self) -> int:
        """The least width of the question column: its content's minimum and a scroll bar."""
        content = self._question.widget()
        least = content.minimumSizeHint().width() if content is not None else 0
        return least + self._question.verticalScrollBar().sizeHint().width()

    def with_list_width(self) -> int:
        """The width from which the queue list stands beside the question and the reveal."""
        handles = 2 * self.handleWidth()
        return self._queue.sizeHint().width() + QUESTION_WIDTH + REVEAL_WIDTH + handles

    def list_shown(self) -> bool:
        """Whether the queue list has any width."""
        return self.sizes()[0] > 0

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self._arrange_soon.start()
        return super().eventFilter(watched, event)

    def _arrange(self) -> None:
        with_list = self.width() >= self.with_list_width()
        if with_list != self._with_list:
            self._with_list, self._by_reviewer = with_list, False
        if not self._by_reviewer and (widths := self._default_widths(with_list)) != self.sizes():
            self.setSizes(widths)
        self._report()

    def set_list_shown(self, shown: bool) -> None:
        """The reviewer shows or folds the list (kept, as a moved handle is, until the page
        crosses the rule's width)."""
        self.setSizes(self._default_widths(shown))
        self._by_reviewer = True
        self._report()

    def _default_widths(self, with_list: bool) -> list[int]:
        queue = self._queue.sizeHint().width() if with_list else 0
        free = self.width() - 2 * self.handleWidth() - queue
        question = max(self.question_width(), free // 2)
        return [queue, question, max(0, free - question)]

    def _moved(self, _position: int, _index: int) -> None:
        self._by_reviewer = True
        self._report()

    def _report(self) -> None:
        if (shown := self.list_shown()) != self._shown:
            self._shown = shown
            self.list_changed.emit(shown)
