"""The Review view: one question of the reviewer's queue at a time, blind first.

Before the reviewer has answered a question the view holds only its text and
options (a :class:`~ai4hse_desk.gui.review.reads.BlindQuestion`, which
has no key) and the TRUE / FALSE / unsure buttons; the reveal panel and the
verdict form are hidden and empty. Keys, while the view has the focus:

* **1–9** set option *n* TRUE, then toggle it between TRUE and FALSE (every option
  starts unanswered), **0** marks the option set (or clicked) last unsure, **Enter**
  records the blind answer once every option is answered (an early Enter says which
  are not); *Skip blind* (asked first) records that the key was seen without one.
* Then **Ctrl+Enter** submits the verdict and moves to the next question not yet
  submitted, **Ctrl+S** saves a draft.

Beside the page, the reviewer's queue lists every question with the state of their
verdict (:class:`~.queue_list.OwnQueueList`); a click opens one again.

The view only shows and asks: :class:`~ai4hse_desk.gui.review.controller.ReviewController`
reads and writes, through its signals.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.status_style import MATCH_COLOURS, chip_style_sheet
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.plain_text import menu_text
from ai4hse_desk.gui.review.blind import BLIND_HINT, BlindAnswerPanel, unanswered_text
from ai4hse_desk.gui.review.form import REVEALED_HINT, VerdictForm
from ai4hse_desk.gui.review.panes import ReviewPanes
from ai4hse_desk.gui.review.queue_list import OwnQueueList
from ai4hse_desk.gui.review.reveal import RevealPanel
from ai4hse_desk.gui.widgets.fitted_scroll import scrolled
from ai4hse_desk.gui.widgets.focus_keys import focus_keys
from ai4hse_desk.gui.widgets.labels import plain_label, set_style_sheet

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtGui import QShowEvent

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.gui.review.reads import BlindQuestion, Reveal, ReviewQueue
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.review.records import ReviewVerdict

IDLE, BLIND, REVEALED = "idle", "blind", "revealed"
PLACEHOLDER = (
    "The key, the models' responses, the key-audit evidence and the other reviewers' "
    "verdicts appear once you have recorded your blind answer (or skipped it)."
)


class ReviewView(QWidget):
    """The question, the blind answer, the verdict form and (after the answer) the reveal.

    Signals:
        shown: the view became visible (the controller reads what it shows then).
        blind_requested: the blind answer (a tuple of TRUE/FALSE/UNSURE) to record.
        skip_blind_requested, skip_requested, back_requested, name_requested.
        submit_requested, draft_requested: the form's :class:`~.form.VerdictValues`.
        queue_picked: a question of the queue list, to open.
    """

    shown = Signal()
    blind_requested = Signal(object)
    skip_blind_requested = Signal()
    submit_requested = Signal(object)
    draft_requested = Signal(object)
    skip_requested = Signal()
    back_requested = Signal()
    name_requested = Signal()
    queue_picked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Review")
        self.phase = IDLE
        self.position = plain_label(name="Position in your queue", wrap=False)
        bold = QFont(self.position.font())
        bold.setBold(True)
        self.position.setFont(bold)
        self.progress = plain_label(name="Your progress", wrap=False)
        self.queue_line = plain_label(name="Your queue")
        self.error = plain_label(name="Review problem")
        set_style_sheet(self.error, chip_style_sheet(*MATCH_COLOURS[False]))
        self.info = plain_label(name="Review state")
        self.blind = BlindAnswerPanel()
        self.blind.changed.connect(self.clear_error)  # answering again: the last "why" goes
        self.hint = plain_label(BLIND_HINT, name="Keys")
        self.form = VerdictForm()
        self.reveal = RevealPanel()
        self.placeholder = plain_label(PLACEHOLDER, name="What appears after the blind answer")
        self.queue_list = OwnQueueList()
        self.queue_list.picked.connect(self.queue_picked)
        self._listed: ReviewQueue | None = None
        self._buttons()
        self._lay_out()
        self._shortcuts()
        self.setFocusProxy(self.blind)
        self.show_idle("Open an audit database to review its questions.")

    def _buttons(self) -> None:
        def button(text: str, slot: object, tip: str = "") -> QPushButton:
            made = QPushButton(menu_text(text))
            made.setToolTip(tip)
            made.clicked.connect(slot)
            return made

        self.name_button = button("Reviewer name…", self.name_requested.emit)
        self.list_button = QPushButton("Queue list")  # checked while the list is in sight
        self.list_button.setCheckable(True)
        self.list_button.setToolTip("Show or fold your queue beside the question")
        self.record_button = button("Record blind answer (Enter)", self.record_blind, BLIND_HINT)
        self.skip_blind_button = button(
            "Skip blind", self.skip_blind_requested.emit,
            "See the key without answering first (recorded as not blind)",
        )  # fmt: skip
        self.submit_button = button("Submit & next (Ctrl+Enter)", self.submit)
        self.draft_button = button("Save draft (Ctrl+S)", self.save_draft)
        self.skip_button = button(
            "Skip",
            self.skip_requested.emit,
            "The next question not yet submitted; nothing is saved",
        )
        self.back_button = button("Back", self.back_requested.emit, "The question shown before")

    def _lay_out(self) -> None:
        header = QHBoxLayout()
        header.addWidget(self.position, 1)
        header.addWidget(self.progress)
        header.addWidget(self.list_button)
        header.addWidget(self.name_button)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 6, 0)
        for widget in (self.info, self.blind, self.hint, self.form):
            column.addWidget(widget)
        column.addStretch(1)
        right = QWidget()
        side = QVBoxLayout(right)
        side.setContentsMargins(6, 0, 0, 0)
        side.addWidget(self.placeholder)
        side.addWidget(self.reveal)
        side.addStretch(1)
        self.splitter = ReviewPanes(self.queue_list, scrolled(left), scrolled(right))
        self.splitter.list_changed.connect(self.list_button.setChecked)
        self.list_button.clicked.connect(self.splitter.set_list_shown)
        actions = QHBoxLayout()
        for button in (self.record_button, self.skip_blind_button, self.submit_button,
                       self.draft_button):  # fmt: skip
            actions.addWidget(button)
        actions.addStretch(1)
        actions.addWidget(self.back_button)
        actions.addWidget(self.skip_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.queue_line)
        layout.addWidget(self.error)
        layout.addWidget(self.splitter, 1)
        layout.addLayout(actions)

    def _shortcuts(self) -> None:
        toggles = [(str(n), partial(self.blind.toggle, n - 1)) for n in range(1, 10)]
        self._blind_keys = focus_keys(self, [*toggles, ("0", self.blind.set_unsure),
                                             ("Return", self.record_blind),
                                             ("Enter", self.record_blind)])  # fmt: skip
        self._verdict_keys = focus_keys(self, [("Ctrl+Return", self.submit),
                                               ("Ctrl+Enter", self.submit),
                                               ("Ctrl+S", self.save_draft)])  # fmt: skip

    # -- what the controller shows ------------------------------------------------------

    def set_header(self, position: str, progress: str, queue_line: str) -> None:
        """The position in the queue, the progress line and what the queue is."""
        self.position.setText(display_text(position))
        self.progress.setText(progress)
        self.queue_line.setText(display_text(queue_line))

    def show_place(self, queue: ReviewQueue, question_id: str) -> None:
        """``question_id``'s place in ``queue``: the header, and the list (filled again when
        the queue was read again) with its row marked."""
        if queue is not self._listed:
            self._listed = queue
            self.queue_list.set_entries(
                [{"question_id": qid, "state": queue.states.get(qid)} for qid in queue.questions]
            )
        self.queue_list.set_current(question_id)
        self.set_header(*queue.header(question_id))

    def show_idle(self, text: str, *, header: str = "Review") -> None:
        """No question: ``text`` says why (no file, no index yet, no name, an empty queue)."""
        self._phase(IDLE)
        self._listed = None
        self.queue_list.set_entries([])
        self.set_header(header, "", "")
        self.info.setText(display_text(text))

    def show_blind(self, question: BlindQuestion) -> None:
        """``question`` before the blind answer: its text and options only."""
        self.reveal.clear()
        self.form.set_content(0, None, ())  # holds nothing of the last question either
        self.blind.set_question(question)
        self._phase(BLIND)
        self.blind.setFocus()

    def show_revealed(
        self,
        question: BlindQuestion,
        full: Question,
        own: ReviewVerdict,
        reveal: Reveal,
        key_audit: KeyAuditResult | None,
        start_key: Sequence[str],
    ) -> None:
        """``full`` once ``own`` exists: the recorded answer, the form, the reveal."""
        had_focus = self.blind.hasFocus()
        self.blind.set_question(question)
        self.blind.set_answer(own.blind_answer, locked=True)
        self.form.set_content(full.n_options, own, start_key)
        self.reveal.show_reveal(full, own, reveal, key_audit)
        self._phase(REVEALED)
        if had_focus or self.focusWidget() is None:
            self.form.verdict.setFocus()

    def update_reveal(
        self, full: Question, own: ReviewVerdict, reveal: Reveal, key_audit: KeyAuditResult | None
    ) -> None:
        """The reveal read again (another reviewer submitted meanwhile); the form stays."""
        self.reveal.show_reveal(full, own, reveal, key_audit)

    def _phase(self, phase: str) -> None:
        self.phase = phase
        blind, revealed = phase == BLIND, phase == REVEALED
        self.info.setVisible(phase == IDLE)
        self.blind.setVisible(phase != IDLE)
        self.hint.setVisible(phase != IDLE)
        self.hint.setText(REVEALED_HINT if revealed else BLIND_HINT)
        self.form.setVisible(revealed)
        self.reveal.setVisible(revealed)
        self.placeholder.setVisible(blind)
        for button in (self.record_button, self.skip_blind_button):
            button.setVisible(blind)
        for button in (self.submit_button, self.draft_button):
            button.setVisible(revealed)
        for button in (self.skip_button, self.back_button):
            button.setVisible(phase != IDLE)
        for shortcut in self._blind_keys:
            shortcut.setEnabled(blind)
        for shortcut in self._verdict_keys:
            shortcut.setEnabled(revealed)
        if not revealed:
            self.reveal.clear()

    def show_error(self, text: str) -> None:
        """One line saying what went wrong (plain text)."""
        self.error.setText(display_text(" ".join(text.split())))
        self.error.setVisible(True)

    def clear_error(self) -> None:
        self.error.clear()
        self.error.setVisible(False)

    # -- what the reviewer asks --------------------------------------------------------

    def record_blind(self) -> None:
        """Enter: record the blind answer shown, once every option is answered."""
        if self.phase != BLIND:
            return
        if missing := self.blind.missing():
            self.show_error(unanswered_text(missing))
            return
        self.blind_requested.emit(self.blind.answer())

    def submit(self) -> None:
        """Ctrl+Enter: submit the verdict and move on."""
        if self.phase == REVEALED:
            self.submit_requested.emit(self.form.values())

    def save_draft(self) -> None:
        """Ctrl+S: keep the form as a draft."""
        if self.phase == REVEALED:
            self.draft_requested.emit(self.form.values())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not event.spontaneous():
            self.shown.emit()


__all__ = ["BLIND", "IDLE", "PLACEHOLDER", "REVEALED", "ReviewView"]
