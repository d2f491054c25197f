"""Key audit: questions ranked by the evidence that their answer key needs a look.

Suggestions for a reviewer, never a change to a key or a score. Enter (or O)
opens the question with its compare grid; F starts a ``key_incorrect`` flag
with the option the evidence points at. Questions already flagged are marked.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.audit import AuditDB
from ai4hse_desk.display.format import option_letter as letter
from ai4hse_desk.gui.qt_guard import guarded, problem_text
from ai4hse_desk.gui.qt_tasks import QtTask
from ai4hse_desk.keyaudit import KeyAuditResult, QuestionSuspicion, compute_key_audit
from ai4hse_desk.progress import Progress

_Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Rank", "Question", "Option", "Score", "Flagged", "Strongest reason")


def option_text(item: QuestionSuspicion) -> str:
    """``"2 (C)"`` for an option position, ``"—"`` when the evidence names none."""
    return "—" if item.option is None else f"{item.option} ({letter(item.option)})"


class KeyAuditModel(QAbstractTableModel):
    """The ranked questions (a few thousand at most: held whole)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._items: list[QuestionSuspicion] = []
        self._flagged: frozenset[str] = frozenset()

    def set_items(self, items: list[QuestionSuspicion]) -> None:
        """Show ``items`` in their rank order."""
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def set_flagged(self, question_ids: set[str] | frozenset[str]) -> None:
        """Mark these questions as flagged."""
        self._flagged = frozenset(question_ids)
        if self._items:
            self.dataChanged.emit(self.index(0, 4), self.index(len(self._items) - 1, 4))

    def item(self, row: int) -> QuestionSuspicion | None:
        """The question shown in ``row``."""
        return self._items[row] if 0 <= row < len(self._items) else None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section] if 0 <= section < len(HEADERS) else None
        return None

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        item = self.item(index.row()) if index.isValid() else None
        if item is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            values = (
                str(index.row() + 1),
                item.question_id,
                option_text(item),
                f"{item.score:.3f}",
                "⚑" if item.question_id in self._flagged else "",
                item.reasons[0] if item.reasons else "",
            )
            return values[column]
        if role == Qt.ItemDataRole.UserRole:
            return item.question_id
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 2, 3, 4):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


class KeyAuditView(QWidget):
    """The ranked list, the reasons of the selected question, and the corpus signals."""

    open_question = Signal(str)
    flag_requested = Signal(str, object)  # question_id, option position or None
    failed = Signal(str)  # the ranking could not be computed (one line)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Key audit")
        self.result: KeyAuditResult | None = None
        self._task: QtTask | None = None
        self._generation = 0
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
            "Suggestions only: ranked by consensus against the key, discrimination, "
            "difficulty, instability and data hygiene (README ▸ Key audit). Nothing here "
            "changes a key or a score.  Enter / O: open the question and its compare grid · "
            "F: flag the key as incorrect."
        )
        self.intro.setTextFormat(Qt.TextFormat.PlainText)
        self.intro.setWordWrap(True)
        self.corpus = QLabel()
        self.corpus.setTextFormat(Qt.TextFormat.PlainText)
        self.corpus.setWordWrap(True)
        self.corpus.setAccessibleName("Corpus signals")
        self.progress = QProgressBar()
        self.progress.setFormat("re-deriving attempts %p%")
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.cancel_button.clicked.connect(self.cancel)
        bar = QHBoxLayout()
        bar.addWidget(self.corpus, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.table)
        split.addWidget(self.reasons)
        split.setSizes([900, 500])
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(bar)
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

    def load(self, db: AuditDB) -> None:
        """Compute the ranking in the background (progress, cancel)."""
        self.cancel()
        self._generation += 1
        generation = self._generation

        def work(progress: Progress) -> KeyAuditResult:
            return compute_key_audit(db, progress=progress)

        task = QtTask(work, "key audit", self)
        task.progress.connect(self._progress)
        task.succeeded.connect(lambda result: self._show(result, generation))
        task.failed.connect(lambda message: self._failed(message, generation))
        task.finished.connect(self._hide_progress)
        self._task = task
        self.progress.show()
        self.cancel_button.show()
        task.start()

    def load_now(self, db: AuditDB) -> None:
        """Compute the ranking on this thread (screenshots, tests)."""
        self._generation += 1
        try:
            result = compute_key_audit(db)
        except Exception as exc:
            self._failed(problem_text(exc), self._generation)
            return
        self._show(result, self._generation)

    def _failed(self, message: str, generation: int) -> None:
        if generation == self._generation:
            self.corpus.setText(f"Key audit failed: {message}")
            self.failed.emit(message)

    def cancel(self) -> None:
        """Stop a running computation and wait for it."""
        if self._task is not None:
            self._task.cancel()
            self._task.wait()
            self._task = None

    def clear(self) -> None:
        """Forget the ranking (another database is being opened)."""
        self.cancel()
        self.result = None
        self.model.set_items([])
        self.reasons.clear()
        self.corpus.clear()

    def _progress(self, done: int, total: int) -> None:
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(min(done, max(total, 1)))

    def _hide_progress(self) -> None:
        self.progress.hide()
        self.cancel_button.hide()

    def _show(self, result: KeyAuditResult, generation: int) -> None:
        if generation != self._generation:
            return
        self.result = result
        self.model.set_items(result.questions)
        skew = result.corpus.get("position_skew") or {}
        parts = [f"{len(result.questions):,} questions ranked"]
        if isinstance(skew, dict) and skew.get("skewed"):
            leaning = ", ".join(str(x) for x in skew.get("leaning", []) or [])
            parts.append(
                f"answer-key positions are skewed (χ² p = {skew.get('p_value')}; "
                f"TRUE keys lean to {leaning or 'some positions'})"
            )
        elif isinstance(skew, dict) and skew:
            parts.append(f"no answer-key position skew (χ² p = {skew.get('p_value')})")
        self.corpus.setText(" · ".join(parts))
        if result.questions:
            self.table.selectRow(0)

    # -- the selected question ----------------------------------------------------------

    def current(self) -> QuestionSuspicion | None:
        """The selected question."""
        return self.model.item(self.table.currentIndex().row())

    def _show_reasons(self) -> None:
        item = self.current()
        if item is None:
            self.reasons.clear()
            return
        lines = [f"{item.question_id} — score {item.score:.4f}, option {option_text(item)}", ""]
        lines += [f"• {reason}" for reason in item.reasons] or ["No signal stands out."]
        components = item.signals.get("components") if isinstance(item.signals, dict) else None
        if isinstance(components, dict):
            lines += ["", "Parts of the score:"]
            lines += [f"  {name}: {value}" for name, value in components.items()]
        self.reasons.setPlainText("\n".join(lines))

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
