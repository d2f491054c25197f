"""The adjudication workspace: the queue, and one question's evidence and decision form.

On the left, the questions the person named in the window may decide (never one
they review), each with why it is there; *Show decided questions too* lists the
decided ones, to revise. On the right, for the question selected: its text, the
options side by side — the official key, how many runs select each option, and each
reviewer's blind answer and proposed key on it (``≠ key`` where they differ) — every
submitted verdict (blind answer, proposed key as a diff against the key, confidence,
source, note), the latest decision, the key audit's evidence, every run's choices
per repetition, and the decision form (**Ctrl+Enter** records it).

The view only shows and asks: :class:`~.adjudication_controller.AdjudicationController`
reads and writes, through its signals.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.status_style import MATCH_COLOURS, chip_style_sheet
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.review.adjudication_form import DecisionForm
from ai4hse_desk.gui.review.adjudication_texts import (
    OPTION_COLUMNS,
    TEXT_COLUMN,
    VERDICT_COLUMNS,
    decision_text,
    queue_entry,
    queue_header,
    reasons_text,
    verdict_cells,
)
from ai4hse_desk.gui.review.tables import fill_cells, fit_height, show_options, show_responses
from ai4hse_desk.gui.review.texts import evidence_text, selected_letters
from ai4hse_desk.gui.widgets.fitted_scroll import scrolled
from ai4hse_desk.gui.widgets.focus_keys import focus_keys
from ai4hse_desk.gui.widgets.item_table import item_table
from ai4hse_desk.gui.widgets.labels import WrappingLabel, plain_label, set_style_sheet

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtGui import QShowEvent

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.gui.review.adjudication_reads import AdjudicationRead
    from ai4hse_desk.index import ListRow
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.review.queue import QueueItem

EMPTY = "No question waits for your decision."
PICK = "Select a question of the queue."
RECORD_TIP = "Record the decision (Ctrl+Enter); Notes ▸ Undo takes it back"
_MOVES = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown,
                    Qt.Key.Key_Home, Qt.Key.Key_End})  # fmt: skip


class AdjudicationView(QWidget):
    """The adjudication queue beside one question's evidence and the decision form.

    Signals:
        shown: the view became visible (the controller reads the queue then).
        question_selected: a question of the queue was selected.
        decide_requested: the form's :class:`~.adjudication_reads.DecisionValues`.
        decided_toggled: whether decided questions are listed too.
        name_requested: Reviewer name… (the adjudicator is the name in the window).
    """

    shown = Signal()
    question_selected = Signal(str)
    decide_requested = Signal(object)
    decided_toggled = Signal(bool)
    name_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Adjudication")
        self.question: Question | None = None
        self.item: QueueItem | None = None
        self.header = plain_label(name="Who adjudicates")
        self.name_button = QPushButton("Reviewer name…")
        self.name_button.clicked.connect(self.name_requested.emit)
        self.error = plain_label(name="Adjudication problem")
        set_style_sheet(self.error, chip_style_sheet(*MATCH_COLOURS[False]))
        self.error.hide()
        self.decided_box = QCheckBox("Show decided questions too")
        self.decided_box.toggled.connect(self.decided_toggled.emit)
        self.queue = QListWidget()
        self.queue.setAccessibleName("Adjudication queue")
        self.queue.setWordWrap(True)  # each entry: the question and its state, then why
        self.queue.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.queue.setSpacing(2)
        self.queue.currentItemChanged.connect(self._picked)
        self.empty = plain_label(EMPTY, name="Nothing to adjudicate")
        self.title = plain_label(name="Question adjudicated", wrap=False)
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self.reasons = plain_label(name="Why it is in the queue")
        self.text = WrappingLabel(name="Question text")
        self.key_line = plain_label(name="Official key", wrap=False)
        self.options = item_table("Options side by side", (*OPTION_COLUMNS, TEXT_COLUMN))
        self.verdicts = item_table("Submitted verdicts side by side", VERDICT_COLUMNS)
        self.decision_line = WrappingLabel(name="Latest decision")
        self.evidence = WrappingLabel(name="Key-audit evidence")
        self.responses_title = plain_label(name="Model responses")
        self.responses = item_table("Model responses per run and repetition", ("Run", "Track"))
        self.form = DecisionForm()
        self.record_button = QPushButton("Record decision (Ctrl+Enter)")
        self.record_button.setToolTip(RECORD_TIP)
        self.record_button.clicked.connect(self.record)
        self._lay_out()
        focus_keys(self, [("Ctrl+Return", self.record), ("Ctrl+Enter", self.record)])
        self.show_empty(EMPTY)

    def _lay_out(self) -> None:
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 6, 0)
        column.addWidget(self.decided_box)
        column.addWidget(self.queue, 1)
        self.detail = QWidget()
        side = QVBoxLayout(self.detail)
        side.setContentsMargins(6, 0, 0, 0)
        for widget in (self.title, self.reasons, self.text, self.key_line, self.options,
                       self.verdicts, self.decision_line, self.evidence, self.responses_title,
                       self.responses):  # fmt: skip
            side.addWidget(widget)
        side.addStretch(1)
        area = scrolled(self.detail)
        # The form stays in sight while the evidence scrolls; the button under it, not
        # beside it: beside it, form and button needed about 690 px, and an 800-px window
        # cut the page off on the right.
        self.deciding = QWidget()
        actions = QVBoxLayout(self.deciding)
        actions.setContentsMargins(6, 4, 0, 0)
        actions.addWidget(self.form)
        actions.addWidget(self.record_button, 0, Qt.AlignmentFlag.AlignRight)
        right = QWidget()
        holder = QVBoxLayout(right)
        holder.setContentsMargins(0, 0, 0, 0)
        holder.addWidget(self.empty)
        holder.addWidget(area, 1)
        holder.addWidget(self.deciding)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([320, 1000])
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.name_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.error)
        layout.addWidget(self.splitter, 1)

    # -- what the controller shows ------------------------------------------------------

    def show_queue(self, read: AdjudicationRead, current: str | None) -> str | None:
        """List ``read``'s questions, ``current`` selected (else the first); the selected
        question is returned (``None``: the list is empty)."""
        self.header.setText(
            queue_header(read.adjudicator, read.open, read.decided, read.own, read.hidden)
        )
        ids = [item.question_id for item in read.items]
        chosen = current if current in ids else (ids[0] if ids else None)
        self.queue.blockSignals(True)
        self.queue.clear()
        for item in read.items:
            entry = QListWidgetItem(queue_entry(item))
            entry.setData(Qt.ItemDataRole.UserRole, item.question_id)
            entry.setToolTip(reasons_text(item.reasons))
            self.queue.addItem(entry)
        if chosen is not None:
            self.queue.setCurrentRow(ids.index(chosen))
        self.queue.blockSignals(False)
        if chosen is None:
            self.show_empty(EMPTY if read.adjudicator else "")
        return chosen

    def show_empty(self, text: str) -> None:
        """No question shown: ``text`` says why."""
        self.question = self.item = None
        self.empty.setText(display_text(text))
        self.empty.setVisible(bool(text))
        self.detail.setVisible(False)
        self.deciding.setVisible(False)

    def show_item(
        self,
        question: Question,
        item: QueueItem,
        rows: Sequence[ListRow],
        key_audit: KeyAuditResult | None,
    ) -> None:
        """Everything on ``item`` and the form to decide it (``rows``: its attempts)."""
        before = self.item
        keep_form = before is not None and (before.question_id, before.decision) == (
            item.question_id, item.decision)  # fmt: skip
        self.question, self.item = question, item
        self.empty.hide()
        self.detail.setVisible(True)
        self.deciding.setVisible(True)
        verdicts = len(item.verdicts)
        self.title.setText(
            f"{display_text(item.question_id)} · {verdicts} submitted verdict"
            f"{'' if verdicts == 1 else 's'}"
        )
        self.reasons.setText(f"In the queue because {reasons_text(item.reasons)}.")
        self.text.setText(display_text(question.text))
        self.key_line.setText(f"Official key: {selected_letters(item.official_key)}")
        texts = [option.text for option in question.options]
        show_options(self.options, item.official_key, texts, item.verdicts, rows)
        fill_cells(self.verdicts, [verdict_cells(v, item.official_key) for v in item.verdicts],
                   tips=True)  # fmt: skip
        fit_height(self.verdicts)
        self.decision_line.setText(decision_text(item.decision, item.official_key))
        self.show_evidence(question, key_audit)
        show_responses(self.responses, self.responses_title, rows)
        if not keep_form:  # what the adjudicator chose so far stays on a re-read
            self.form.set_item(item)

    def show_evidence(self, question: Question, key_audit: KeyAuditResult | None) -> None:
        """The key audit's evidence on ``question`` (again when the audit finishes)."""
        self.evidence.setText(evidence_text(question, key_audit))

    def show_error(self, text: str) -> None:
        """One line saying what went wrong (plain text)."""
        self.error.setText(display_text(" ".join(text.split())))
        self.error.setVisible(True)

    def clear_error(self) -> None:
        self.error.clear()
        self.error.setVisible(False)

    def queue_texts(self) -> list[str]:
        """The queue's lines, as listed."""
        return [self.queue.item(i).text() for i in range(self.queue.count())]

    def select(self, question_id: str) -> None:
        """Select ``question_id`` in the queue (as a click does)."""
        for row in range(self.queue.count()):
            if self.queue.item(row).data(Qt.ItemDataRole.UserRole) == question_id:
                self.queue.setCurrentRow(row)

    # -- what the adjudicator asks ------------------------------------------------------

    def _picked(self, current: QListWidgetItem | None, _previous: object) -> None:
        if current is not None:
            self.clear_error()
            self.question_selected.emit(str(current.data(Qt.ItemDataRole.UserRole)))

    def record(self) -> None:
        """Ctrl+Enter: record the decision in the form."""
        if self.item is not None:
            self.decide_requested.emit(self.form.values())

    def event(self, event: QEvent) -> bool:
        """The arrows, Page Up/Down, Home and End move in the queue (or the field that has
        the focus), not the attempt list (the window's J/K and arrow shortcuts)."""
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            if plain and event.key() in _MOVES:
                event.accept()
                return True
        return super().event(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():
            self.shown.emit()


__all__ = ["EMPTY", "PICK", "AdjudicationView"]
