"""The adjudication tab of the server window: the queue, a question's key, runs and verdicts,
and a decision.

It shows what the server released to the adjudicator and asks for what to record; the
:class:`~.server_controller.ServerReviewController` calls the server. Nothing is opened
until the adjudicator picks a question (opening one is recorded by the server as a
release). The decision starts unchosen, as on the local Adjudication page: *Record
decision* without one records nothing and says why.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFormLayout,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.gui.review.adjudication_form import KEY_TIP, correction_start, decision_box
from ai4hse_desk.gui.review.adjudication_texts import OPTION_COLUMNS, TEXT_COLUMN
from ai4hse_desk.gui.review.key_boxes import KeyBoxes
from ai4hse_desk.gui.review.server_texts import (
    detail_text,
    key_values,
    queue_item_text,
    response_rows,
)
from ai4hse_desk.gui.review.tables import show_options, show_responses
from ai4hse_desk.gui.widgets.fitted_scroll import scrolled
from ai4hse_desk.gui.widgets.item_table import item_table
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.review.server.client import verdict_of
from ai4hse_desk.review.values import KEY_CORRECTED, key_of

PICK_TEXT = "Pick a question of the queue to see its key, its runs and the verdicts."
NO_DECISION = "Choose a decision first: nothing was recorded."
_ID = Qt.ItemDataRole.UserRole


class ServerAdjudicationPanel(QWidget):
    """The tab (see the module docstring).

    Signals:
        detail_requested: a question of the queue, to show.
        decision_requested: (question id, decision, the corrected key as a LIST for
            ``key_corrected``, else "", note).
        refused: a request the panel did not pass on, and why (one plain line).
    """

    detail_requested = Signal(str)
    decision_requested = Signal(str, str, str, str)
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.queue_list = QListWidget()
        self.queue_list.setAccessibleName("Adjudication queue")
        self.queue_list.setWordWrap(True)
        self.queue_list.currentItemChanged.connect(self._picked)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setAccessibleName("The question's key, runs and verdicts")
        self.detail.setPlaceholderText(PICK_TEXT)
        self.options = item_table("Options side by side", (*OPTION_COLUMNS, TEXT_COLUMN))
        self.responses_title = plain_label(name="Model responses")
        self.responses = item_table("Model responses per run and repetition", ("Run", "Track"))
        self._show_tables(None)
        self.decision = decision_box()
        self.corrected = KeyBoxes("Corrected key", KEY_TIP)
        self.corrected.setEnabled(False)  # only for Key corrected, as on the local page
        self.decision.currentIndexChanged.connect(
            lambda _i: self.corrected.setEnabled(self.decision.currentData() == KEY_CORRECTED)
        )
        self.decision_note = QLineEdit()
        self.decide_button = QPushButton("Record decision")
        self.decide_button.clicked.connect(self._decide)
        form = QFormLayout()
        form.addRow("Decision", self.decision)
        form.addRow("Corrected key", self.corrected)
        form.addRow("Note", self.decision_note)
        form.addRow("", self.decide_button)
        evidence = QWidget()
        column = QVBoxLayout(evidence)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.detail, 1)
        column.addWidget(self.options)
        column.addWidget(self.responses_title)
        column.addWidget(self.responses)
        # The decision form stays in sight while the question, the verdicts and the runs'
        # tables (a row per run: as tall as the runs are many) scroll above it.
        right = QWidget()
        side = QVBoxLayout(right)
        side.addWidget(scrolled(evidence), 1)
        side.addLayout(form)
        split = QSplitter()
        split.addWidget(self.queue_list)
        split.addWidget(right)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(split)

    def set_queue(self, items: list[dict[str, Any]]) -> None:
        """Show the adjudication queue; nothing picked, the form cleared."""
        self.queue_list.blockSignals(True)
        self.queue_list.clear()
        self.queue_list.blockSignals(False)
        self.detail.clear()
        self._show_tables(None)
        self.decision.setCurrentIndex(0)
        self.corrected.set_key(0, ())
        self.decision_note.clear()
        for item in items:
            text = queue_item_text(item)
            entry = QListWidgetItem(text)
            entry.setToolTip(text)
            entry.setData(_ID, item["question_id"])
            self.queue_list.addItem(entry)

    def set_detail(self, shown: dict[str, Any]) -> None:
        """Show a question of the adjudication queue; the corrected key starts as on the
        local Adjudication page (:func:`~.adjudication_form.correction_start`)."""
        self.detail.setPlainText(detail_text(shown))
        self._show_tables(shown)
        official = key_values(shown.get("key"))
        decision = shown.get("decision") or {}
        start = correction_start(
            official,
            key_values(decision["key"]) if decision.get("key") else None,
            (key_values(v.get("proposed_key")) or None for v in shown.get("others") or ()),
        )
        self.corrected.set_key(len(official), start)

    def _show_tables(self, shown: dict[str, Any] | None) -> None:
        """The options side by side and every run's selection per repetition, as on the
        local Adjudication page (nothing while no question is open; the responses table
        left out when the server sent values the desk does not know)."""
        rows = [] if shown is None else response_rows(shown)
        show_responses(self.responses, self.responses_title, rows, empty=None)
        self.options.setRowCount(0)
        self.options.setVisible(shown is not None)
        if shown is None:
            return
        official = key_of(key_values(shown.get("key")))
        texts = [str(text) for text in shown.get("options") or ()]
        try:
            verdicts = [verdict_of(v) for v in shown.get("others") or ()]
        except (KeyError, TypeError, ValueError):
            verdicts = []  # (the text above names every verdict)
        show_options(self.options, official, texts, verdicts, rows)

    def _picked(self, current: QListWidgetItem | None, _previous: object) -> None:
        if current is not None:
            self.detail_requested.emit(str(current.data(_ID)))

    def _decide(self) -> None:
        item = self.queue_list.currentItem()
        if item is None:
            return
        code = self.decision.currentData()
        if code is None:
            self.refused.emit(NO_DECISION)
            return
        key = f"[{', '.join(self.corrected.key())}]" if code == KEY_CORRECTED else ""
        self.decision_requested.emit(str(item.data(_ID)), str(code), key, self.decision_note.text())
