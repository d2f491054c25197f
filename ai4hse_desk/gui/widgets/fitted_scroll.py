"""Scroll areas: one that asks for its content's full height, up to a limit, then scrolls;
and the plain frameless one a page puts around a part that may not fit its window."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QScrollArea, QSizePolicy, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent


class FittedScrollArea(QScrollArea):
    """Scrolls its content; asks for the content's full height up to MAX_HINT."""

    MAX_HINT = 240

    def __init__(self, content: QWidget) -> None:
        super().__init__()
        self._content = content
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setWidget(content)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def minimumSizeHint(self) -> QSize:
        """Room for two lines at least (then it scrolls)."""
        lines = 2 * self.fontMetrics().lineSpacing()
        return QSize(super().minimumSizeHint().width(), min(self.sizeHint().height(), lines))

    def sizeHint(self) -> QSize:
        content = self._content
        width = self.viewport().width()
        if content.hasHeightForWidth() and width > 0:
            height = content.heightForWidth(width)
        else:
            height = content.sizeHint().height()
        return QSize(super().sizeHint().width(), min(height, self.MAX_HINT))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.updateGeometry()


def scrolled(widget: QWidget) -> QScrollArea:
    """``widget`` in a frameless scroll area that resizes it to its viewport (scroll bars
    only when the window is smaller than the widget's minimum)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area


__all__ = ["FittedScrollArea", "scrolled"]
