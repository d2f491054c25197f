"""The Review page of a review server: one question of the login's queue, blind first, and
the adjudication tab (:class:`~.server_adjudication.ServerAdjudicationPanel`) for an
adjudicator.

It only shows what the server released and asks for what to record; the
:class:`~.server_controller.ServerReviewController` calls the server. Before the blind
answer the page holds the question's text and options only (the server sent nothing
more); recording it (or *Skip blind*, recorded as "not blind") brings the key against the
blind answer option by option and the runs' selections and responses (in words, and run by
run) in the local page's tables (:mod:`.tables`; they scroll), and the verdict form, which
stays in sight; the other reviewers' verdicts follow once the verdict is submitted. The
blind answer, the verdict form and their keys are the local Review page's
(:class:`~.blind.BlindAnswerPanel`, :class:`~.form.VerdictForm`; Enter records the blind
answer, Ctrl+Enter submits and moves on, Ctrl+S saves a draft).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.dialogs.confirm import confirm
from ai4hse_desk.gui.plain_text import menu_text
from ai4hse_desk.gui.review.blind import BLIND_HINT, BlindAnswerPanel, unanswered_text
from ai4hse_desk.gui.review.changes import SKIP_BLIND
from ai4hse_desk.gui.review.form import REVEALED_HINT, VerdictForm, starting_key
from ai4hse_desk.gui.review.queue_list import OwnQueueList, place_text
from ai4hse_desk.gui.review.reads import BlindQuestion
from ai4hse_desk.gui.review.server_adjudication import ServerAdjudicationPanel
from ai4hse_desk.gui.review.server_texts import (
    key_values,
    progress_line,
    response_rows,
    reveal_text,
)
from ai4hse_desk.gui.review.tables import key_table, show_key, show_responses
from ai4hse_desk.gui.widgets.fitted_scroll import scrolled
from ai4hse_desk.gui.widgets.focus_keys import focus_keys
from ai4hse_desk.gui.widgets.item_table import item_table
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.review.server.client import verdict_of
from ai4hse_desk.review.values import key_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.review.form import VerdictValues

DONE_TEXT = "Your queue is done: every question has your submitted verdict."


def _read_only() -> QPlainTextEdit:
    text = QPlainTextEdit()
    text.setReadOnly(True)
    return text


class ServerReviewPage(QWidget):
    """The page (see the module docstring).

    Signals:
        next_requested: the next question not yet submitted.
        question_picked: a question of the reviewer's own queue, to open again.
        blind_requested: (question id, the blind answer or ``None`` for "not blind").
        refused: a request the page did not pass on, and why (one plain line).
        verdict_requested: (question id, the form's values, submit).
    """

    next_requested = Signal()
    question_picked = Signal(str)
    blind_requested = Signal(str, object)
    refused = Signal(str)
    verdict_requested = Signal(str, object, bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.role = ""
        self.question_id: str | None = None
        self.shown: dict[str, Any] | None = None
        self.who = plain_label(name="Login and progress")
        self.next_button = QPushButton("Next question")
        self.next_button.clicked.connect(self.next_requested)
        top = QHBoxLayout()
        top.addWidget(self.who, 1)
        top.addWidget(self.next_button)
        self.tabs = QTabWidget()
        self.tabs.addTab(self._review_tab(), "Review")
        self.adjudication = ServerAdjudicationPanel()
        self.adjudication.refused.connect(self.refused)
        self.tabs.addTab(self.adjudication, "Adjudication")
        self.tabs.setTabVisible(1, False)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.tabs, 1)

    # -- building ------------------------------------------------------------------------

    def _review_tab(self) -> QWidget:
        self.own_queue = OwnQueueList()
        self.own_queue.picked.connect(self.question_picked)
        self.place = plain_label(name="Question and its place in your queue")
        bold = self.place.font()
        bold.setBold(True)
        self.place.setFont(bold)
        self.blind = BlindAnswerPanel()
        self.hint = plain_label(BLIND_HINT, name="Keys")
        record = partial(self._blind, skip=False)
        keys: list[tuple[str, Callable[[], object]]] = [
            (str(n), partial(self.blind.toggle, n - 1)) for n in range(1, 10)
        ]
        keys += [("0", self.blind.set_unsure), ("Return", record), ("Enter", record)]
        focus_keys(self.blind, keys)  # while the blind answer has the focus, as on the local page
        self.record_button = QPushButton("Record blind answer (Enter)")
        self.record_button.clicked.connect(record)
        self.skip_button = QPushButton("Skip blind")
        self.skip_button.setToolTip("See the key without answering: recorded as not blind")
        self.skip_button.clicked.connect(lambda: self._blind(skip=True))
        self.key_options = key_table()
        self.reveal = _read_only()
        self.reveal.setAccessibleName("Key, runs and other verdicts")
        self.responses_title = plain_label(name="Model responses")
        self.responses = item_table("Model responses per run and repetition", ("Run", "Track"))
        self.form = VerdictForm()
        submit, draft = partial(self._verdict, submit=True), partial(self._verdict, submit=False)
        self.submit_button = QPushButton(menu_text("Submit & next (Ctrl+Enter)"))
        self.submit_button.clicked.connect(submit)
        self.draft_button = QPushButton("Save draft (Ctrl+S)")
        self.draft_button.clicked.connect(draft)
        buttons = QHBoxLayout()
        for button in (self.record_button, self.skip_button, self.submit_button, self.draft_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        evidence = QWidget()
        column = QVBoxLayout(evidence)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (self.key_options, self.reveal, self.responses_title, self.responses):
            column.addWidget(widget, 1 if widget is self.reveal else 0)
        # The form stays in sight while the key, the runs and their responses scroll: all
        # of them at once need about 780 px, more than a 1366×768 laptop's window.
        self.revealed = QWidget()
        revealed = QVBoxLayout(self.revealed)
        revealed.setContentsMargins(0, 0, 0, 0)
        revealed.addWidget(scrolled(evidence), 1)
        revealed.addWidget(self.form)
        self._filler = QWidget()  # the space the reveal takes once it is there
        tab = QWidget()  # its keys while the focus is in it (not on the Adjudication tab)
        focus_keys(tab, [("Ctrl+Return", submit), ("Ctrl+Enter", submit), ("Ctrl+S", draft)])
        layout = QVBoxLayout(tab)
        layout.addWidget(self.place)
        layout.addWidget(self.blind)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)
        layout.addWidget(self.revealed, 1)
        layout.addWidget(self._filler, 1)
        self._set_state(None)
        split = QSplitter()
        split.addWidget(self.own_queue)
        split.addWidget(tab)
        split.setStretchFactor(1, 1)
        split.setSizes([self.own_queue.sizeHint().width(), 900])
        return split

    # -- what the server sent ------------------------------------------------------------

    def set_identity(self, me: dict[str, Any]) -> None:
        """Show who is logged in; the adjudication tab for an adjudicator or coordinator."""
        self.role = str(me.get("role", ""))
        judge = bool(me.get("adjudicator") or me.get("coordinator"))
        self.tabs.setTabVisible(1, judge)
        self.tabs.setTabVisible(0, bool(me.get("reviewer")))
        self.next_button.setVisible(bool(me.get("reviewer")))
        if judge and not me.get("reviewer"):
            self.tabs.setCurrentIndex(1)
        what = "coordinator" if me.get("coordinator") else "adjudicator" if judge else ""
        self.who.setText(display_text(self.role) + (f" · {what}" if what else ""))

    def set_progress(self, progress: dict[str, Any]) -> None:
        """Show the login's progress."""
        self.who.setText(progress_line(progress, self.role))

    def set_question(self, shown: dict[str, Any] | None) -> None:
        """Show a question as the server released it (``None``: the queue is done)."""
        self.shown = shown
        if shown is None:
            self.question_id = None
            self.place.setText("")
            self.own_queue.set_current(None)
            self.blind.set_question(BlindQuestion("", DONE_TEXT, ()))
            self._set_state(None)
            return
        changed = shown["question_id"] != self.question_id
        self.question_id = str(shown["question_id"])
        self.place.setText(place_text(self.own_queue.entries, self.question_id))
        self.own_queue.set_current(self.question_id)
        if changed:
            options = tuple(str(t) for t in shown.get("options") or ())
            self.blind.set_question(BlindQuestion(self.question_id, str(shown["text"]), options))
            if shown.get("key") is None:
                self.blind.setFocus()  # keys 1-9, 0 and Enter answer at once, as on the local page
        own = shown.get("verdict")
        if own is not None:  # recorded: the blind answer (or none, not blind) is fixed
            answer = own.get("blind_answer")
            self.blind.set_answer(None if answer is None else tuple(answer), locked=True)
        self.reveal.setPlainText(reveal_text(shown))
        if shown.get("key") is not None:
            rows = response_rows(shown)
            mine = None if own is None else verdict_of(own)
            key = key_of(key_values(shown["key"]))
            show_key(self.key_options, key, None if mine is None else mine.blind_answer, rows)
            show_responses(self.responses, self.responses_title, rows, empty=None)
            start = starting_key(None if mine is None else mine.blind_answer, shown["key"])
            self.form.set_content(len(shown.get("options") or ()), mine, start)
        self._set_state(shown)

    def _set_state(self, shown: dict[str, Any] | None) -> None:
        blind = shown is not None and shown.get("key") is None
        revealed = shown is not None and shown.get("key") is not None
        self.record_button.setVisible(blind)
        self.skip_button.setVisible(blind)
        self.revealed.setVisible(revealed)
        self._filler.setVisible(not revealed)
        self.hint.setText(REVEALED_HINT if revealed else BLIND_HINT)
        self.hint.setVisible(shown is not None)
        self.submit_button.setVisible(revealed)
        self.draft_button.setVisible(revealed)
        if not revealed:
            self.reveal.clear()
            self.key_options.setRowCount(0)
            self.responses.setRowCount(0)

    def set_adjudication_queue(self, items: list[dict[str, Any]]) -> None:
        """Show the adjudication queue; its size in the tab's title."""
        self.adjudication.set_queue(items)
        self.tabs.setTabText(1, f"Adjudication ({len(items)})")

    def set_own_queue(self, entries: list[dict[str, Any]]) -> None:
        """Show the reviewer's own queue (ids and the states of their verdicts)."""
        self.own_queue.set_entries(entries)
        if self.question_id is not None:
            self.place.setText(place_text(entries, self.question_id))

    # -- what the user asks for ----------------------------------------------------------

    def _blind(self, *, skip: bool) -> None:
        """Enter records the blind answer once every option is answered; Skip blind asks
        first (it gives the blind answer up for good) — as in the local Review view."""
        qid = self.question_id
        if not qid or not self.record_button.isVisible():
            return
        if skip:
            text = SKIP_BLIND.format(qid=display_text(qid))
            if confirm(self, "Skip the blind answer", text, "Skip blind, show the key"):
                self.blind_requested.emit(qid, None)
        elif missing := self.blind.missing():
            self.refused.emit(unanswered_text(missing))
        else:
            self.blind_requested.emit(qid, self.blind.answer())

    def _verdict(self, *, submit: bool) -> None:
        if self.question_id and self.shown and self.shown.get("key") is not None:
            values: VerdictValues = self.form.values()
            self.verdict_requested.emit(self.question_id, values, submit)
