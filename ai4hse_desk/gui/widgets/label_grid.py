"""Rows of plain-text labels under optional bold headers, reused from one attempt to the next.

No text widens the grid: prose wraps, and a long id elides in the middle with the whole
text in its tooltip (:class:`~ai4hse_desk.gui.widgets.labels.ElidingLabel`); the columns
share the free width by their stretch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QLabel, QWidget

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.widgets.labels import ElidingLabel, plain_label, set_style_sheet

if TYPE_CHECKING:
    from collections.abc import Sequence


_ONE_LINE = Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft
_WRAPPED = Qt.AlignmentFlag.AlignTop


def bold(label: QLabel) -> QLabel:
    """``label`` in a bold font (returned, for chaining)."""
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


class LabelGrid(QWidget):
    """Rows of plain-text labels under optional bold column headers; labels are
    reused from one attempt to the next and surplus rows hidden."""

    def __init__(
        self,
        accessible_name: str,
        columns: int,
        header: Sequence[str] = (),
        stretch: Sequence[int] = (1,),
    ) -> None:
        super().__init__()
        self.setAccessibleName(accessible_name)
        self._columns = columns
        self._header = tuple(header)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        for column in stretch:
            self._grid.setColumnStretch(column, 1)
        for column, title in enumerate(self._header):
            label = bold(plain_label(title, name=title, wrap=False))
            self._grid.addWidget(label, 0, column)
        self._rows: list[list[QLabel]] = []

    def set_rows(self, rows: Sequence[Sequence[str]]) -> list[list[QLabel]]:
        """Show ``rows`` (one text per column) and return their labels."""
        first = 1 if self._header else 0
        while len(self._rows) < len(rows):
            labels: list[QLabel] = [
                ElidingLabel(wrap=column > 0) for column in range(self._columns)
            ]
            for column, label in enumerate(labels):
                self._grid.addWidget(label, first + len(self._rows), column, _ONE_LINE)
            self._rows.append(labels)
        for labels, texts in zip(self._rows, rows, strict=False):
            for column, (label, text) in enumerate(zip(labels, texts, strict=True)):
                shown = display_text(text)
                # Only what changed is set: most rows (the run's settings, field names)
                # stay the same from one attempt to the next, and every set costs a relayout.
                if label.text() != shown or label.isHidden():
                    # Values of several short words wrap; an id (a dated run id would be
                    # cut at a hyphen) or a long word elides (ElidingLabel).
                    label.setText(shown)
                    # A line as wide as its text (a chip), wrapped text as wide as the column.
                    self._grid.setAlignment(label, _WRAPPED if label.wordWrap() else _ONE_LINE)
                    label.setVisible(True)
                    title = self._header[column] if self._header else ""
                    label.setAccessibleName(f"{texts[0]}, {title}" if title else texts[0])
                set_style_sheet(label, "")
        for labels in self._rows[len(rows) :]:
            for label in labels:
                label.setText("")
                set_style_sheet(label, "")
                label.setVisible(False)
        return self._rows[: len(rows)]

    def texts(self) -> list[tuple[str, ...]]:
        """The texts of the rows shown."""
        return [
            tuple(label.text() for label in row) for row in self._rows if row[0].isVisibleTo(self)
        ]


__all__ = ["LabelGrid", "bold"]
