"""Dropping one local file on a widget opens it (the main window: an audit database)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject

from ai4hse_desk.gui.qt_guard import guarded

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QWidget


class FileDrop(QObject):
    """An event filter on ``target``: one dragged local file is accepted; dropped, it is
    handed to ``open_path``."""

    def __init__(self, target: QWidget, open_path: Callable[[str], object]) -> None:
        super().__init__(target)
        self._open = open_path
        target.setAcceptDrops(True)
        target.installEventFilter(self)

    @guarded(False)
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.Drop):
            return super().eventFilter(watched, event)
        dropped: QDragEnterEvent | QDropEvent = event  # type: ignore[assignment]
        urls = dropped.mimeData().urls()
        if len(urls) != 1 or not urls[0].isLocalFile():
            return False
        dropped.acceptProposedAction()
        if kind == QEvent.Type.Drop:
            self._open(urls[0].toLocalFile())
        return True
