"""The reviewer's own queue beside the Review page: every question of it, in its order,
with the state of the reviewer's own verdict — in the window and in the server window.

The list holds ids and states only (a review server's ``own_queue()`` releases nothing; the
window's comes from the queue it already read). A click, or Enter on the current row, asks
for that question (:attr:`OwnQueueList.picked`), which is then shown as the reviewer may see
it now: a submitted question with the other reviewers' verdicts and the decision, its
verdict to revise. The row of the question on the page is kept current without asking for
it again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QStyle, QWidget

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.review.reads import place_words

if TYPE_CHECKING:
    from collections.abc import Sequence

#: What each state of one's own verdict reads as in the list.
STATE_WORDS = {None: "to answer", "draft": "draft", "submitted": "submitted"}


def entry_text(number: int, entry: dict[str, Any]) -> str:
    """``"3. Q007 — draft"``: the place in one's own queue (from 1), the question id, the
    state of one's verdict."""
    state = entry.get("state")
    words = STATE_WORDS.get(state, display_text(str(state)))
    return f"{number:,}. {display_text(str(entry['question_id']))} — {words}"


def place_text(entries: Sequence[dict[str, Any]], question_id: str) -> str:
    """:func:`~.reads.place_words` of ``question_id`` in ``entries`` (the id alone when it
    is not there), invisible characters made visible."""
    shown = display_text(question_id)
    for number, entry in enumerate(entries, start=1):
        if entry["question_id"] == question_id:
            return place_words(shown, number, len(entries))
    return shown


class OwnQueueList(QListWidget):
    """The list (see the module docstring).

    Signals:
        picked: the id of the question asked for.
    """

    picked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Your queue")
        self.setToolTip("Your questions in order; click one to open it again")
        # Where the list is narrow a row gives up its beginning: the state and the end of
        # the id (court_case/rule_application/016), its most distinctive part, stay in sight.
        self.setTextElideMode(Qt.TextElideMode.ElideLeft)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.entries: list[dict[str, Any]] = []
        self._ids: list[str] = []  # the question id of each row
        self._texts: list[str] = []  # each row's text
        self._current: str | None = None
        self.itemClicked.connect(self._asked)
        self.itemActivated.connect(self._asked)

    def sizeHint(self) -> QSize:
        """Wide enough for a row of a large queue with a short id ("10,000. Q00000 — to
        answer"); a longer id gives up its beginning."""
        hint = super().sizeHint()
        text = self.fontMetrics().horizontalAdvance("10,000. Q00000 — to answer")
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return QSize(text + bar + 4 * self.frameWidth() + 8, hint.height())

    def set_entries(self, entries: Sequence[dict[str, Any]]) -> None:
        """Show ``entries`` (``question_id`` and ``state``; a server's also ``position`` in
        the plan), in their order, numbered from 1.

        The same questions in the same order (the queue read again after a write) change
        only the rows whose text changed: refilling 10,000 rows took 100–150 ms."""
        self.entries = list(entries)
        ids = [str(entry["question_id"]) for entry in self.entries]
        texts = [entry_text(number, entry) for number, entry in enumerate(self.entries, start=1)]
        self.blockSignals(True)
        if ids == self._ids:
            for row, (old, text) in enumerate(zip(self._texts, texts, strict=True)):
                if old != text and (item := self.item(row)) is not None:
                    item.setText(text)
                    item.setToolTip(text)
        else:
            self.clear()
            self.addItems(texts)
            for row, text in enumerate(texts):
                if (item := self.item(row)) is not None:
                    item.setToolTip(text)
        self._ids, self._texts = ids, texts
        self.blockSignals(False)
        self.set_current(self._current)

    def set_current(self, question_id: str | None) -> None:
        """Mark the row of ``question_id`` (the question on the page) without asking for it."""
        self._current = question_id
        self.blockSignals(True)
        row = self._ids.index(question_id) if question_id in self._ids else -1
        self.setCurrentRow(row)
        if (item := self.item(row)) is not None:
            self.scrollToItem(item)
        self.blockSignals(False)

    def _asked(self, item: QListWidgetItem) -> None:
        self.picked.emit(self._ids[self.row(item)])
