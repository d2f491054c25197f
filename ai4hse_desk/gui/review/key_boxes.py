"""A key entered as one TRUE/FALSE box per option: a verdict's proposed key, a decision's
corrected key.

The boxes stand four options to a line (A–D, then E–H under them …), so a question with
many options never makes its form wider than four boxes do: in one row, nine options
needed about 760 px, more than the Review page's question column has beside the reveal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QWidget

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.review.values import FALSE, TRUE

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Options on one line of boxes.
PER_LINE = 4


class KeyBoxes(QWidget):
    """The boxes of one key; ``role`` names them for screen readers ("Proposed key")."""

    def __init__(self, role: str, tip: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip(tip)
        self._role = role
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setColumnStretch(2 * PER_LINE, 1)  # spare width to the right
        self.boxes: list[QComboBox] = []

    def set_key(self, options: int, start: Sequence[str]) -> None:
        """One box per option, each set to ``start``'s value (FALSE beyond it)."""
        while self._grid.count():
            taken = self._grid.takeAt(0)
            widget = taken.widget() if taken is not None else None
            if widget is not None:
                widget.deleteLater()
        self.boxes = []
        for position in range(options):
            letter = option_letter(position)
            box = QComboBox()
            box.setAccessibleName(f"{self._role}, option {letter}")
            box.addItems([TRUE, FALSE])
            box.setCurrentText(start[position] if position < len(start) else FALSE)
            line, column = divmod(position, PER_LINE)
            self._grid.addWidget(QLabel(letter), line, 2 * column)
            self._grid.addWidget(box, line, 2 * column + 1)
            self.boxes.append(box)

    def set_values(self, values: Sequence[str]) -> None:
        """Set the boxes to ``values`` in order (the boxes beyond them unchanged)."""
        for box, value in zip(self.boxes, values, strict=False):
            box.setCurrentText(value)

    def key(self) -> tuple[str, ...]:
        """The key the boxes hold, one TRUE or FALSE per option."""
        return tuple(box.currentText() for box in self.boxes)
