"""Sensitivity — not official, an exploration: the metrics without some questions.

The reviewer ticks questions (or the window hands over the review's decisions — the
excluded questions, and the corrected keys the rest is scored against — or, before
any, those with an open ``key_incorrect`` flag, through
:meth:`SensitivityPanel.set_excluded_questions`); every run is scored again
(:func:`~.sensitivity_work.explore`) on the ``"sensitivity"`` lane of the window's
task runner, and shown beside the official figures, which this panel never changes.
A blind question (the window's :class:`~ai4hse_desk.gui.controllers.sight.Sight`) is
greyed out, never left out nor re-keyed: the difference would tell how many runs got
it right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.format import plural
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.models.scores_table import SensitivityTableModel
from ai4hse_desk.gui.panels.sensitivity_work import explore
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.gui.widgets.task_status import TaskStatus
from ai4hse_desk.gui.workers.task import QueryOp, Task
from ai4hse_desk.scores.sensitivity import sensitivity_rows

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from ai4hse_desk.audit import AuditDB, Question
    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.verdicts.rescore import RescoreResult

BANNER = (
    "Not official — exploration. The same metrics recomputed without the ticked questions "
    "(and against the corrected keys of the review's decisions), beside the official figures, "
    "which never change."
)
_MANUAL_REASON = "questions ticked by the reviewer"
_DEBOUNCE_MS = 400
_TEXT_PREVIEW = 90
LANE = "sensitivity"
STOPPED = "Recomputation stopped. Tick or untick a question to start again."
BLIND_TIP = "Hidden until your blind answer: it cannot be left out"
_TICKABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable


def _column(*widgets: QWidget, stretch: QWidget) -> QWidget:
    holder = QWidget()
    column = QVBoxLayout(holder)
    column.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        column.addWidget(widget, 1 if widget is stretch else 0)
    return holder


class SensitivityPanel(QWidget):
    """A checkable question list and the official-versus-exploration table."""

    recomputed = Signal()

    def __init__(self, tasks: TaskRunner, sight: Sight | None = None) -> None:
        super().__init__()
        self._tasks, self._sight = tasks, sight
        if sight is not None:
            sight.changed.connect(self._sight_changed)
        self.setAccessibleName("Sensitivity, not official")
        self.banner = QLabel(BANNER)
        self.banner.setAccessibleName("Not official banner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(
            "QLabel { background: #fef3c7; color: #000; border: 2px dashed #b45309; "
            "padding: 6px; font-weight: 600; }"
        )
        self.reason = plain_label(name="What the exploration changes")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter questions…")
        self.search.setAccessibleName("Filter questions")
        self.search.textChanged.connect(self._filter_list)
        self.questions = QListWidget()
        self.questions.setAccessibleName("Questions to leave out")
        self.questions.itemChanged.connect(self._ticks_changed)
        self.clear_button = QPushButton("Untick all")
        self.clear_button.clicked.connect(lambda: self.set_excluded_questions(set(), ""))
        self.model = SensitivityTableModel(self)
        self.table = QTableView()
        self.table.setAccessibleName("Official and exploration figures")
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # What the recomputation does, its progress, and Cancel (it rescores every run).
        self.task_status = TaskStatus()
        self.task_status.cancel_requested.connect(self.cancel)
        self.state, self.progress = self.task_status.label, self.task_status.progress
        self.cancel_button = self.task_status.cancel_button
        self._timer = QTimer(self, singleShot=True, interval=_DEBOUNCE_MS)
        self._timer.timeout.connect(self.recompute)
        self._db: AuditDB | None = None
        self._index: ReviewIndex | None = None
        self._official: list[Mapping[str, Any]] = []
        self._task: Task[RescoreResult] | None = None
        self._generation = 0
        self._updating = False
        self.explored: RescoreResult | None = None
        self._corrected: dict[str, Sequence[bool]] = {}  # the review's corrected keys
        self.reason_text = ""
        self.question_records: dict[str, Question] = {}
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(_column(QLabel("Leave out these questions:"), self.search, self.questions,
                                self.clear_button, stretch=self.questions))  # fmt: skip
        split.addWidget(_column(self.task_status, self.table, stretch=self.table))
        split.setStretchFactor(1, 3)
        split.setSizes([380, 1000])
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.reason)
        layout.addWidget(split, 1)

    # -- content --------------------------------------------------------------

    def set_source(
        self,
        db: AuditDB,
        official: Sequence[Mapping[str, Any]],
        questions: Iterable[Question],
        index: ReviewIndex | None = None,
    ) -> None:
        """Explore ``db``, whose official run objects (rescore's order) are ``official``.

        Args:
            index: the review index of ``db`` (its stored verdicts are scored).
        """
        self.clear()
        self._db, self._index = db, index
        self._official = list(official)
        self.question_records = {q.question_id: q for q in questions}
        self._updating = True
        for question in self.question_records.values():
            text = " ".join(question.text.split())
            shown = text if len(text) <= _TEXT_PREVIEW else text[: _TEXT_PREVIEW - 1] + "…"
            item = QListWidgetItem(display_text(f"{question.question_id} — {shown}"))
            item.setData(Qt.ItemDataRole.UserRole, question.question_id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.questions.addItem(item)
        self._updating = False
        self._sight_changed()
        self._show()

    def clear(self) -> None:
        """Forget the database (a running recomputation is cancelled)."""
        self.stop()
        self._db = self._index = None
        self._official = []
        self.explored, self._corrected = None, {}
        self.question_records = {}
        self._updating = True
        self.questions.clear()
        self._updating = False
        self._set_reason("")
        self.model.set_rows([])
        self.state.clear()

    def excluded(self) -> set[str]:
        """The ticked question ids (never a blind one)."""
        return {
            str(self.questions.item(i).data(Qt.ItemDataRole.UserRole))
            for i in range(self.questions.count())
            if self.questions.item(i).checkState() == Qt.CheckState.Checked
        } - self._blind()

    def set_excluded_questions(
        self, ids: set[str], reason: str, *, wait: bool = False,
        corrected: Mapping[str, Sequence[bool]] | None = None,
    ) -> None:  # fmt: skip
        """Tick exactly ``ids`` (unknown ids are ignored), score the rest against the
        ``corrected`` keys (the review's; none by default), say why, and recompute."""
        self._corrected = dict(corrected or {})
        self._updating = True
        for i in range(self.questions.count()):
            item = self.questions.item(i)
            wanted = item.data(Qt.ItemDataRole.UserRole) in ids
            item.setCheckState(Qt.CheckState.Checked if wanted else Qt.CheckState.Unchecked)
        self._updating = False
        self._set_reason(reason)
        self._timer.stop()
        self.recompute(wait=wait)

    def corrected(self) -> dict[str, Sequence[bool]]:
        """The corrected keys the exploration scores against (never a blind question's)."""
        return {qid: key for qid, key in self._corrected.items() if qid not in self._blind()}

    def _blind(self) -> frozenset[str]:
        return frozenset() if self._sight is None else self._sight.blind_questions()

    def _sight_changed(self) -> None:
        """Blind questions greyed out and unticked (the exploration recomputed if one was)."""
        blind, dropped = self._blind(), False
        self._updating = True
        for item in map(self.questions.item, range(self.questions.count())):
            hidden = item.data(Qt.ItemDataRole.UserRole) in blind
            if hidden and item.checkState() == Qt.CheckState.Checked:
                item.setCheckState(Qt.CheckState.Unchecked)
                dropped = True
            item.setFlags(item.flags() & ~_TICKABLE if hidden else item.flags() | _TICKABLE)
            item.setToolTip(BLIND_TIP if hidden else "")
        self._updating = False
        if dropped and self._db is not None:
            self.recompute()

    def _set_reason(self, reason: str) -> None:
        self.reason_text = reason
        self.reason.setText(f"Exploration: {reason}." if reason else "")

    def _ticks_changed(self, _item: QListWidgetItem) -> None:
        if not self._updating:
            self._set_reason(_MANUAL_REASON)
            self._timer.start()

    def _filter_list(self, text: str) -> None:
        needle = text.casefold().strip()
        for i in range(self.questions.count()):
            item = self.questions.item(i)
            item.setHidden(bool(needle) and needle not in item.text().casefold())

    # -- computing --------------------------------------------------------------

    def recompute(self, *, wait: bool = False) -> None:
        """Score again without the ticked questions, in the background (``wait``: until
        the exploration is shown: tests, screenshots)."""
        self.stop()
        self._generation += 1
        excluded, corrected = self.excluded(), self.corrected()
        db, index = self._db, self._index
        if db is None or not (excluded or corrected):
            self.explored = None
            self._show()
            return

        def work(progress: Progress) -> RescoreResult:
            if corrected:
                return explore(db, index, excluded, progress, corrected)
            return explore(db, index, excluded, progress)

        generation = self._generation
        task = self._tasks.run(QueryOp(work, lane=LANE))
        task.progress.connect(self.task_status.report)
        task.succeeded.connect(lambda result: self._done(result, generation))
        task.failed.connect(lambda text: self._note(f"Could not recompute: {text}", generation))
        task.cancelled.connect(lambda: self._note(STOPPED, generation))
        task.finished.connect(lambda: self._note(None, generation))
        self._task = task
        self.task_status.started(f"Recomputing without {plural(len(excluded), 'question')}…")
        if wait:
            self._tasks.wait_idle()

    def _note(self, text: str | None, generation: int) -> None:
        """A task's last word, unless a newer recomputation has started."""
        if generation != self._generation:
            return
        if text is None:
            self.task_status.ended()
        else:
            self.state.setText(text)

    def _done(self, result: RescoreResult, generation: int) -> None:
        if generation != self._generation:
            return
        self.explored = result
        self._show()
        self.recomputed.emit()

    def _show(self) -> None:
        explored = None if self.explored is None else self.explored.runs
        self.model.set_rows(sensitivity_rows(self._official, explored))
        count, keys = len(self.excluded()), len(self.corrected())
        rekeyed = f", with {plural(keys, 'corrected key')}" if keys else ""
        self.state.setText(
            f"Without {plural(count, 'question')}{rekeyed}: exploration beside the official "
            "figures." if explored is not None
            else "Tick questions to see the scores without them."
        )  # fmt: skip

    @property
    def task(self) -> Task[RescoreResult] | None:
        """The recomputation, while it runs."""
        return self._task

    def busy(self) -> bool:
        """True while a recomputation runs or waits."""
        return self._task is not None and not self._task.done

    def cancel(self) -> None:
        """Cancel: stop the recomputation; the ticks stay, the official figures too."""
        self._timer.stop()
        if self._task is not None:
            self._task.cancel()

    def stop(self) -> None:
        """Cancel a pending or running recomputation (what it delivers is ignored)."""
        self.cancel()
        self._task = None
