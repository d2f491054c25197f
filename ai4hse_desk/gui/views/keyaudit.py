"""Key audit: questions ranked by the evidence that their answer key needs a look.

Suggestions for a reviewer, never a change to a key or a score. Enter (or O)
opens the question with its compare grid; F starts a ``key_incorrect`` flag
with the option the evidence points at. Questions already flagged are marked.
The ranking is computed on the ``"keyaudit"`` lane of the window's task runner,
from the review index's stored verdicts, in the background as soon as that index is
ready (the window's view switcher starts it when a file opens), so the Review view
has its evidence without a visit here.

What it shows (issue 35): the suspicion rank, the evidence in plain words (the runs
named by strength), and P(key wrong) only where that number is honest (the corpus
and the question are like the real data it was calibrated on); elsewhere "—" and
the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.models.keyaudit_table import KeyAuditModel, option_text, probability_text
from ai4hse_desk.gui.qt_guard import guarded
from ai4hse_desk.gui.review.texts import rank_words
from ai4hse_desk.gui.widgets.task_status import TaskStatus
from ai4hse_desk.gui.workers.task import QueryOp, Task

if TYPE_CHECKING:
    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.keyaudit import KeyAuditResult, QuestionSuspicion
    from ai4hse_desk.progress import Progress

LANE = "keyaudit"


class KeyAuditView(QWidget):
    """The ranked list, the reasons of the selected question, and the corpus signals."""

    open_question = Signal(str)
    flag_requested = Signal(str, object)  # question_id, option position or None
    failed = Signal(str)  # the ranking could not be computed (one line)
    computed = Signal()  # a ranking is shown (``result`` is set)

    def __init__(self, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self.setAccessibleName("Key audit")
        self.result: KeyAuditResult | None = None
        self._task: Task[KeyAuditResult] | None = None
        self._generation = 0
        self._hidden: frozenset[str] = frozenset()  # blind questions, left out (hide_questions)
        self.model = KeyAuditModel(self)
        self.table = QTableView()
        self.table.setAccessibleName("Questions ranked by key-audit evidence")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.selectionModel().currentRowChanged.connect(lambda *_: self._show_reasons())
        self.table.doubleClicked.connect(lambda _index: self.open_current())
        self.reasons = QPlainTextEdit()
        self.reasons.setReadOnly(True)
        self.reasons.setAccessibleName("Key-audit reasons")
        self.intro = QLabel(
            "Suggestions only, most suspicious key first: ranked by how the runs answer "
            "(runs that converge on another answer, and how strong those runs are). "
            "P(key wrong) is shown only where it was calibrated on real key errors; "
            "elsewhere the rank and the evidence stand alone. Nothing here changes a key or "
            "a score.  Enter / O: open the question and its compare grid · F: flag the key "
            "as incorrect."
        )
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        self.intro.setWordWrap(True)
        self.task_status = TaskStatus(progress_format="re-deriving attempts %p%")
        self.task_status.cancel_requested.connect(self.cancel)
        self.corpus = self.task_status.label
        self.corpus.setAccessibleName("Corpus signals")
        self.progress = self.task_status.progress
        self.cancel_button = self.task_status.cancel_button
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.reasons)
        split.setSizes([900, 500])
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.task_status)
        layout.addWidget(split, 1)
        # Keys are read by the list itself (an event filter), so they act exactly when
        # the ranked list has the focus and never shadow the attempt view's keys.
        self.table.installEventFilter(self)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for text, slot in (
            ("Open question and compare grid (Enter, O)", self.open_current),
            ("Flag key as incorrect… (F)", self.flag_current),
        ):
            action = QAction(text, self.table)
            action.triggered.connect(slot)
            self.table.addAction(action)

    @guarded(False)
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table and event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                return False
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_O):
                self.open_current()
                return True
            if event.key() == Qt.Key.Key_F:
                self.flag_current()
                return True
        return super().eventFilter(watched, event)

    # -- loading ------------------------------------------------------------------

    def load(self, db: AuditDB, *, index: ReviewIndex | None = None) -> None:
        """Compute the ranking in the background (progress, cancel).

        Args:
            index: the review index of ``db``: its stored verdicts are used.
        """
        self.cancel()
        self._generation += 1
        generation = self._generation

        def work(progress: Progress) -> KeyAuditResult:
            # Imported on the task's thread when the ranking is asked for: the keyaudit
            # package loads numpy, which the window's start-up does not need.
            from ai4hse_desk.keyaudit import compute_key_audit

            return compute_key_audit(db, progress=progress, index=index)

        task = self._tasks.run(QueryOp(work, lane=LANE))
        task.progress.connect(self.task_status.report)
        task.succeeded.connect(lambda result: self._show(result, generation))
        task.failed.connect(lambda message: self._failed(message, generation))
        task.finished.connect(lambda: self._finished(generation))
        self._task = task
        self.task_status.started()
        self.task_status.report(0, 1)

    def load_now(self, db: AuditDB, *, index: ReviewIndex | None = None) -> None:
        """:meth:`load`, and wait until the ranking is shown (screenshots, tests)."""
        self.load(db, index=index)
        self._tasks.wait_idle()

    def _failed(self, message: str, generation: int) -> None:
        if generation == self._generation:
            self.corpus.setText(f"Key audit failed: {message}")
            self.failed.emit(message)

    def cancel(self) -> None:
        """Stop a running computation (what it still delivers is ignored)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.task_status.ended()

    def clear(self) -> None:
        """Forget the ranking (another database is being opened)."""
        self.cancel()
        self.result = None
        self.model.set_items([])
        self.reasons.clear()
        self.corpus.clear()
        self.corpus.setToolTip("")

    def _finished(self, generation: int) -> None:
        if generation == self._generation:
            self._task = None
            self.task_status.ended()

    def _show(self, result: KeyAuditResult, generation: int) -> None:
        if generation != self._generation:
            return
        self.result = result
        shown = [item for item in result.questions if item.question_id not in self._hidden]
        self.model.set_items(shown)
        skew = result.corpus.get("position_skew") or {}
        parts = [f"{len(result.questions):,} questions ranked"]
        if not shown and result.questions:
            parts.append("all hidden until you have answered them blind (Review view)")
        elif left_out := len(result.questions) - len(shown):
            parts.append(
                f"{len(shown):,} shown, {left_out:,} hidden until your blind answer (Review view)"
            )
        from ai4hse_desk.keyaudit.skew import skew_words  # (loaded with the first result)

        phrase, detail = skew_words(skew if isinstance(skew, dict) else {})
        if phrase:
            parts.append(phrase)
        self.corpus.setToolTip(detail)
        calibration = result.corpus.get("calibration") or {}
        if isinstance(calibration, dict) and calibration:
            honest = calibration.get("questions_with_probability", 0)
            parts.append(
                f"P(key wrong) shown for {honest:,} of {len(result.questions):,}"
                if honest
                else f"no P(key wrong) shown: {calibration.get('reason', 'not calibrated')}"
            )
        self.corpus.setText(" · ".join(parts))
        if shown:
            self.table.selectRow(0)
        self._show_reasons()  # (a reset says nothing to the selection: the pane follows here)
        self.computed.emit()

    def hide_questions(self, question_ids: frozenset[str]) -> None:
        """Leave these questions out of the list, their evidence with them (a reviewer's
        blind questions: the window's :class:`~ai4hse_desk.gui.controllers.sight.Sight`
        says which)."""
        if question_ids != self._hidden:
            self._hidden = frozenset(question_ids)
            if self.result is not None:
                self._show(self.result, self._generation)

    # -- the selected question ----------------------------------------------------------

    def current(self) -> QuestionSuspicion | None:
        """The selected question."""
        return self.model.item(self.table.currentIndex().row())

    def _show_reasons(self) -> None:
        item, result = self.current(), self.result
        if item is None or result is None:
            self.reasons.clear()
            return
        lines = [
            f"{item.question_id} — {rank_words(result, item, item.rank)}, "
            f"option {option_text(item)}",
            probability_line(item),
            "",
        ]
        lines += [f"• {reason}" for reason in item.reasons] or ["No signal stands out."]
        self.reasons.setPlainText(display_text("\n".join(lines)))  # reasons name runs, models

    def open_current(self) -> None:
        """Enter / O: ask the window to open the selected question."""
        item = self.current()
        if item is not None:
            self.open_question.emit(item.question_id)

    def flag_current(self) -> None:
        """F: ask the window to start a key_incorrect flag on the selected question."""
        item = self.current()
        if item is not None:
            self.flag_requested.emit(item.question_id, item.option)


def probability_line(item: QuestionSuspicion) -> str:
    """The probability in words: the number where it is honest, else why not."""
    if item.probability is not None:
        return (
            f"P(key wrong) {probability_text(item)}: of keys shown near this number, about "
            f"that share were wrong in the real data it was calibrated on"
        )
    why = item.withheld or "not calibrated"
    return f"No probability shown ({why}): the rank and the evidence stand."
