"""A status bar whose messages are plain text with invisible characters made visible.

Its lines often carry what a file or a store holds (a question id, a reviewer's name, a
server's refusal): a right-to-left override or a zero-width space there must not reorder or
hide the rest of the line, as in every other place the window shows such text
(:func:`~ai4hse_desk.display.text_sanitize.display_text`).
"""

from __future__ import annotations

from PySide6.QtWidgets import QStatusBar, QWidget

from ai4hse_desk.display.text_sanitize import display_text


class PlainStatusBar(QStatusBar):
    """:class:`QStatusBar` that shows every message through ``display_text``."""

    def __init__(self, message: str = "", *permanent: QWidget) -> None:
        """Show ``message``; ``permanent``: widgets kept at the right (Qt's permanent ones)."""
        super().__init__()
        for widget in permanent:
            self.addPermanentWidget(widget)
        if message:
            self.showMessage(message)

    def showMessage(self, text: str, /, timeout: int | None = None) -> None:
        super().showMessage(display_text(text), timeout or 0)


__all__ = ["PlainStatusBar"]
