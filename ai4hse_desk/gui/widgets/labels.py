"""Labels that show their text literally, style sheets set cheaply, and table texts read back.

Two labels never widen their column, whatever text an audit file holds:
:class:`ElidingLabel` (ids: one line, elided in the middle, the whole text in its tooltip)
and :class:`WrappingLabel` (prose: wraps at word boundaries, and inside a word too long
for its width).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPointF, QSize, Qt
from PySide6.QtGui import QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel, QTableWidget, QWidget

from ai4hse_desk.gui.plain_text import plain_tooltip

if TYPE_CHECKING:
    from PySide6.QtGui import QPaintEvent, QResizeEvent

_SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse


def plain_label(text: str = "", *, name: str = "", wrap: bool = True) -> QLabel:
    """A label that shows ``text`` literally (never as HTML), selectable by mouse.

    Args:
        name: its accessible name.
        wrap: break long lines at word boundaries.
    """
    label = QLabel(text)
    _make_plain(label, name)
    label.setWordWrap(wrap)
    return label


def _make_plain(label: QLabel, name: str) -> None:
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(_SELECTABLE)
    if name:
        label.setAccessibleName(name)


class ElidingLabel(QLabel):
    """Plain text on one line, elided in the middle when its column is narrower than the
    text (both ends of an id stay), with the whole text in its tooltip.

    With ``wrap``, text of short words (prose, ``[TRUE, FALSE]``) wraps at word boundaries
    instead; a word longer than :attr:`WRAP_WORD` characters (an id, a hash, a run of
    stand-ins) makes it elide. :meth:`text` is always the whole text.
    """

    #: The longest word that wraps rather than elides.
    WRAP_WORD = 24
    #: Characters shown at least before it elides (if the text is longer).
    MIN_CHARS = 10

    def __init__(self, text: str = "", *, name: str = "", wrap: bool = False) -> None:
        super().__init__()
        _make_plain(self, name)
        self._full = ""
        self._may_wrap = wrap
        self.setText(text)

    def setText(self, text: str, /) -> None:
        self._full = text
        words = text.split()
        # A short text stays one line: a wrapped label costs a height-for-width layout.
        wraps = self._may_wrap and len(text) > self.MIN_CHARS and len(words) > 1
        wraps = wraps and max(map(len, words)) <= self.WRAP_WORD
        if self.wordWrap() != wraps:
            self.setWordWrap(wraps)
        self._show()
        self.updateGeometry()

    def text(self) -> str:
        return self._full

    def is_elided(self) -> bool:
        """Whether the text shown is shorter than the text."""
        return super().text() != self._full

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        if self.wordWrap():
            return hint
        return QSize(
            self._extra() + self.fontMetrics().horizontalAdvance(self._full), hint.height()
        )

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if self.wordWrap():
            return hint
        least = self.fontMetrics().averageCharWidth() * self.MIN_CHARS + self._extra()
        return QSize(min(self.sizeHint().width(), least), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._show()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # a bold heading, a style sheet's font
            self._show()
            self.updateGeometry()

    def _extra(self) -> int:
        """Margins and style-sheet padding around the text."""
        margins = self.contentsMargins()
        return margins.left() + margins.right() + 2 * self.margin() + 2 * self.frameWidth()

    def _show(self) -> None:
        shown = self._full
        if not self.wordWrap():
            room = self.contentsRect().width() - 2 * self.margin()
            metrics = self.fontMetrics()
            if metrics.horizontalAdvance(shown) > room:
                shown = metrics.elidedText(shown, Qt.TextElideMode.ElideMiddle, room)
        if super().text() != shown:
            super().setText(shown)
        self.setToolTip(plain_tooltip(self._full) if shown != self._full else "")


class WrappingLabel(QLabel):
    """Plain prose that wraps at word boundaries like a label, and, where a word is wider
    than the label (a run of ⟨ZWSP⟩ stand-ins, a long URL), anywhere inside it, so that no
    word ever widens its column. Selectable by mouse except while a word is broken (the
    text is then drawn here, not by the label); :meth:`text` is always the whole text.
    """

    #: Characters wide at least, before words are broken.
    MIN_CHARS = 8

    def __init__(self, text: str = "", *, name: str = "") -> None:
        super().__init__()
        _make_plain(self, name)
        self.setWordWrap(True)
        self._longest = 0
        self._breaking = False
        self.setText(text)

    def setText(self, text: str, /) -> None:
        super().setText(text)
        self._measure()

    def _measure(self) -> None:
        metrics = self.fontMetrics()
        words = super().text().split()
        self._longest = max((metrics.horizontalAdvance(word) for word in words), default=0)
        self._update_breaking()
        self.updateGeometry()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._measure()

    def is_breaking_words(self) -> bool:
        """Whether a word is now broken to fit the width."""
        return self._breaking

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        least = self.fontMetrics().averageCharWidth() * self.MIN_CHARS + self._extra()
        return QSize(min(hint.width(), least), min(hint.height(), self.fontMetrics().height()))

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        width = min(hint.width(), 40 * self.fontMetrics().averageCharWidth() + self._extra())
        return QSize(width, self.heightForWidth(width))

    def heightForWidth(self, width: int) -> int:
        room = width - self._extra()
        if self._longest <= room or room <= 0:
            return super().heightForWidth(width)
        return self._layout(room)[1] + self._extra_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_breaking()

    def paintEvent(self, event: QPaintEvent) -> None:
        if not self._breaking:
            super().paintEvent(event)
            return
        margin = self.margin()
        rect = self.contentsRect().adjusted(margin, margin, -margin, -margin)
        layout, _height = self._layout(rect.width())
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        layout.draw(painter, QPointF(rect.topLeft()))
        painter.end()

    def _extra(self) -> int:
        margins = self.contentsMargins()
        return margins.left() + margins.right() + 2 * self.margin()

    def _extra_height(self) -> int:
        margins = self.contentsMargins()
        return margins.top() + margins.bottom() + 2 * self.margin()

    def _update_breaking(self) -> None:
        breaking = self._longest > self.contentsRect().width() - 2 * self.margin()
        if breaking != self._breaking:
            self._breaking = breaking
            # The label's own selection would not match the text drawn here.
            flags = Qt.TextInteractionFlag.NoTextInteraction if breaking else _SELECTABLE
            self.setTextInteractionFlags(flags)
            self.update()

    def _layout(self, width: int) -> tuple[QTextLayout, int]:
        """The text laid out ``width`` wide, breaking words where they do not fit."""
        layout = QTextLayout(super().text().replace("\n", "\u2028"), self.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        height = 0.0
        layout.beginLayout()
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            line.setPosition(QPointF(0, height))
            height += line.height()
        layout.endLayout()
        return layout, int(height + 0.999)


def set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Set a style sheet only when it changes (each set re-polishes and relayouts)."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


def table_texts(table: QTableWidget) -> list[tuple[str, ...]]:
    """A table's cell texts, row by row, as shown."""

    def text(row: int, column: int) -> str:
        item = table.item(row, column)
        return "" if item is None else item.text()

    return [
        tuple(text(row, column) for column in range(table.columnCount()))
        for row in range(table.rowCount())
    ]


__all__ = ["ElidingLabel", "WrappingLabel", "plain_label", "set_style_sheet", "table_texts"]
