"""What the attempts page shows in place of a blind question's detail.

While the reviewer has not answered a question of their queue blind, the selected
attempt's panels and the compare grid hold nothing of it (the window's
:class:`~ai4hse_desk.gui.controllers.sight.Sight` keeps the attempt from them):
this cover says why, and offers the way out — answer it blind in the Review view,
or, when the desk does not know who is reviewing, give the reviewer name.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.controllers.sight import NO_NAME, PENDING_TEXT
from ai4hse_desk.gui.plain_text import menu_text
from ai4hse_desk.gui.widgets.labels import plain_label


class BlindCover(QWidget):
    """The question's id, why its detail is hidden, and a button to the way out.

    Signals:
        review_requested: the question to answer blind in the Review view.
        name_requested: the reviewer name is asked (Notes ▸ Reviewer name…).
    """

    review_requested = Signal(str)
    name_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Hidden until your blind answer")
        self.heading = plain_label(name="Hidden question")
        bold = QFont(self.heading.font())
        bold.setBold(True)
        bold.setPointSizeF(bold.pointSizeF() * 1.2)
        self.heading.setFont(bold)
        self.reason = plain_label(name="Why it is hidden")
        self.reason.setMaximumWidth(720)
        self.button = QPushButton()
        self.button.clicked.connect(self._clicked)
        self._question = ""
        self._asks_name = False
        buttons = QHBoxLayout()
        buttons.addWidget(self.button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 24, 24, 24)
        layout.addWidget(self.heading)
        layout.addWidget(self.reason)
        layout.addLayout(buttons)
        layout.addStretch(1)
        layout.setAlignment(Qt.AlignmentFlag.AlignTop)

    @property
    def question_id(self) -> str:
        """The question covered ("" when none)."""
        return self._question

    def cover(self, question_id: str, why: str) -> None:
        """Say why ``question_id``'s detail is hidden, and offer the way out."""
        self._question, self._asks_name = question_id, why == NO_NAME
        shown = display_text(question_id)
        pending = why == PENDING_TEXT
        self.heading.setText(shown if pending else f"{shown} — hidden until your blind answer")
        self.reason.setText(display_text(why))
        if self._asks_name:
            self.button.setText("Give your reviewer name…")
        else:
            self.button.setText(menu_text(f"Answer {shown} blind in the Review view"))
        self.button.setVisible(not pending)

    def _clicked(self) -> None:
        if self._asks_name:
            self.name_requested.emit()
        else:
            self.review_requested.emit(self._question)


__all__ = ["BlindCover"]
