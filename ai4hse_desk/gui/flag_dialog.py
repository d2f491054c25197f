"""Dialogs of the reviewer notes: add or edit a flag, write an attempt note, read a history.

Everything a reviewer typed is shown as plain text (never rich text), with
invisible and bidi characters made visible. The dialogs only collect values;
the notes controller writes them to the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.audit.records import Question
from ai4hse_desk.display.format import option_letter
from ai4hse_desk.gui.plain_text import title_text
from ai4hse_desk.gui.widget_style import table_texts
from ai4hse_desk.notes import CATEGORIES, SEVERITIES, Flag, Revision
from ai4hse_desk.notes.model import FLAG_FIELDS, MAX_NOTE, Value
from ai4hse_desk.verdicts.attempt_detail import display_text

#: What each flag category means, as the dialog offers it (order of ``CATEGORIES``).
CATEGORY_LABELS: Final = {
    "key_incorrect": "the answer key looks wrong",
    "ambiguous_wording": "the wording is ambiguous",
    "multiple_defensible": "more than one answer is defensible",
    "outdated_or_jurisdiction": "outdated, or depends on the jurisdiction",
    "option_overlap": "options overlap",
    "typo_or_format": "a typo or a formatting problem",
    "other": "something else (say what in the note)",
}
WHOLE_QUESTION: Final = "whole question"
_NO_OPTION = -1  # the option combo's data for "whole question" (None is no QVariant)
_OPTION_TEXT = 70
_CELL_TEXT = 120


def plain_label(text: str = "", name: str = "") -> QLabel:
    """A word-wrapped label that never interprets its text as HTML."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if name:
        label.setAccessibleName(name)
    return label


def one_line(text: str, limit: int = _CELL_TEXT) -> str:
    """``text`` on one line for a table cell: line breaks as ``⏎``, invisibles made visible."""
    return display_text(" ⏎ ".join(text.splitlines()), limit)


def option_text(option: int | None) -> str:
    """An option position as its letter, or "whole question"."""
    return WHOLE_QUESTION if option is None else option_letter(option)


@dataclass(frozen=True, slots=True)
class FlagValues:
    """What the flag dialog collected."""

    category: str
    option: int | None
    severity: str
    note: str


class FlagDialog(QDialog):
    """Add a flag to a question, or edit one: category, option, severity, note."""

    def __init__(
        self, question: Question, flag: Flag | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._flag = flag
        verb = "Add a flag to" if flag is None else "Edit the flag on"
        self.setWindowTitle(title_text(f"{verb} {question.question_id}"))
        self.setAccessibleName("Flag")
        self.setMinimumWidth(560)
        self.category = QComboBox()
        self.category.setAccessibleName("Category")
        for name in CATEGORIES:
            self.category.addItem(f"{name} — {CATEGORY_LABELS.get(name, name)}", name)
        self.option = QComboBox()
        self.option.setAccessibleName("Option")
        self.option.addItem("Whole question", _NO_OPTION)
        for option in question.options:
            key = "TRUE" if option.key else "FALSE"
            text = display_text(" ".join(option.text.split()), _OPTION_TEXT)
            self.option.addItem(
                f"{option_letter(option.position)} (key {key}): {text}", option.position
            )
        self.severity = QComboBox()
        self.severity.setAccessibleName("Severity")
        for name in SEVERITIES:
            self.severity.addItem(name, name)
        self.note = QPlainTextEdit()
        self.note.setAccessibleName("Note")
        self.note.setPlaceholderText(
            "Why? (a regulation, a source, the option that should differ …)"
        )
        self.problem = plain_label(name="Problem")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("Question", plain_label(display_text(question.question_id)))
        form.addRow("Category", self.category)
        form.addRow("About", self.option)
        form.addRow("Severity", self.severity)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Note"))
        layout.addWidget(self.note, 1)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)

        start = (
            FlagValues("key_incorrect", None, "medium", "")
            if flag is None
            else FlagValues(flag.category, flag.option, flag.severity, flag.note)
        )
        self.set_values(start)
        for combo in (self.category, self.option, self.severity):
            combo.currentIndexChanged.connect(self._validate)
        self.note.textChanged.connect(self._validate)
        self._validate()

    def set_values(self, values: FlagValues) -> None:
        """Fill the widgets from ``values``."""
        self.category.setCurrentIndex(max(0, self.category.findData(values.category)))
        wanted = _NO_OPTION if values.option is None else values.option
        self.option.setCurrentIndex(max(0, self.option.findData(wanted)))
        self.severity.setCurrentIndex(max(0, self.severity.findData(values.severity)))
        self.note.setPlainText(values.note)

    def values(self) -> FlagValues:
        """The values as the widgets show them."""
        option = int(self.option.currentData())
        return FlagValues(
            category=str(self.category.currentData()),
            option=None if option == _NO_OPTION else option,
            severity=str(self.severity.currentData()),
            note=self.note.toPlainText(),
        )

    def problem_text(self) -> str:
        """Why the values cannot be saved yet ("" when they can)."""
        values = self.values()
        if len(values.note) > MAX_NOTE:
            return f"A note is limited to {MAX_NOTE:,} characters ({len(values.note):,} now)."
        if values.category == "other" and not values.note.strip():
            return "Say in the note what the problem is (category “other”)."
        flag = self._flag
        if flag is not None and values == FlagValues(
            flag.category, flag.option, flag.severity, flag.note
        ):
            return "Nothing changed yet."
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        question: Question,
        flag: Flag | None = None,
        preset: FlagValues | None = None,
    ) -> FlagValues | None:
        """Show the dialog (``preset``: values to start from); the values when accepted,
        ``None`` when cancelled."""
        dialog = cls(question, flag, parent)
        if preset is not None:
            dialog.set_values(preset)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted or dialog.problem_text():
                return None
            return dialog.values()
        finally:
            dialog.deleteLater()


class NoteDialog(QDialog):
    """Write or edit a note on one attempt ("the extraction looks wrong")."""

    def __init__(self, title: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._original = text
        self.setWindowTitle(title_text(title))
        self.setAccessibleName("Attempt note")
        self.setMinimumWidth(480)
        self.note = QPlainTextEdit(text)
        self.note.setAccessibleName("Note")
        self.note.setPlaceholderText("What looks wrong with this attempt?")
        self.problem = plain_label(name="Problem")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(title))
        layout.addWidget(self.note, 1)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.note.textChanged.connect(self._validate)
        self._validate()

    def problem_text(self) -> str:
        """Why the note cannot be saved yet ("" when it can)."""
        text = self.note.toPlainText()
        if not text.strip():
            return "Write the note first."
        if len(text) > MAX_NOTE:
            return f"A note is limited to {MAX_NOTE:,} characters ({len(text):,} now)."
        if self._original and text == self._original:
            return "Nothing changed yet."
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    @classmethod
    def ask(cls, parent: QWidget | None, title: str, text: str = "") -> str | None:
        """Show the dialog; the note when accepted, ``None`` when cancelled."""
        dialog = cls(title, text, parent)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted or dialog.problem_text():
                return None
            return dialog.note.toPlainText()
        finally:
            dialog.deleteLater()


def format_time(at: str) -> str:
    """``2025-01-01T10:00:00.000000Z`` as ``2025-01-01 10:00:00 UTC``."""
    return f"{at[:10]} {at[11:19]} UTC" if len(at) >= 19 else at


def format_value(name: str, value: Value, limit: int = _CELL_TEXT) -> str:
    """One field's value as the history shows it."""
    if name == "option":
        return option_text(value if isinstance(value, int) else None)
    if value is None:
        return "—"
    if name == "note":
        return f"“{one_line(str(value), limit)}”"
    return display_text(str(value))


_ACTIONS: Final = {"create": "created", "edit": "edited", "state": "state changed", "undo": "undo"}


def _field_rank(name: str) -> int:
    """Fields in the order the dialog asks for them (option, category, … state)."""
    return FLAG_FIELDS.index(name) if name in FLAG_FIELDS else len(FLAG_FIELDS)


def revision_rows(revisions: Sequence[Revision]) -> list[tuple[str, str, str, str]]:
    """(when, reviewer, action, what changed) per revision, oldest first."""
    times = {rev.revision_id: rev.at for rev in revisions}
    rows = []
    for rev in revisions:
        action = _ACTIONS.get(rev.action, rev.action)
        if rev.action == "undo" and rev.reverts is not None:
            reverted = times.get(rev.reverts)
            action = f"undo of the change at {format_time(reverted)}" if reverted else "undo"
        changes = sorted(rev.changes.items(), key=lambda change: _field_rank(change[0]))
        if rev.action == "create":
            changed = "; ".join(f"{k}: {format_value(k, new)}" for k, (_, new) in changes)
        else:
            changed = "; ".join(
                f"{k}: {format_value(k, old)} → {format_value(k, new)}" for k, (old, new) in changes
            )
        rows.append((format_time(rev.at), display_text(rev.reviewer), action, changed or "—"))
    return rows


class HistoryDialog(QDialog):
    """Every revision of one flag or note: who, when, what changed; the full values below."""

    COLUMNS: Final = ("When", "Reviewer", "Action", "What changed")

    def __init__(
        self, title: str, revisions: Sequence[Revision], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._revisions = list(revisions)
        self.setWindowTitle(title_text(title))
        self.setAccessibleName("History")
        self.resize(900, 460)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setAccessibleName("Revisions")
        self.table.setHorizontalHeaderLabels(list(self.COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for column in range(3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        for row, cells in enumerate(revision_rows(self._revisions)):
            self.table.insertRow(row)
            for column, text in enumerate(cells):
                self.table.setItem(row, column, QTableWidgetItem(text))
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setAccessibleName("Values after the selected revision")
        self.table.currentCellChanged.connect(lambda row, *_: self._show(row))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 2)
        layout.addWidget(QLabel("After the selected revision:"))
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        if self._revisions:
            self.table.selectRow(len(self._revisions) - 1)

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self._revisions):
            self.details.setPlainText("")
            return
        rev = self._revisions[row]
        lines = [f"{format_time(rev.at)} · {rev.reviewer} · {rev.action}"]
        for name, value in sorted(rev.values.items(), key=lambda item: _field_rank(item[0])):
            if name != "note":
                lines.append(f"{name}: {format_value(name, value)}")
        note = rev.values.get("note")
        lines += ["note:", display_text("" if note is None else str(note))]
        self.details.setPlainText("\n".join(lines))

    def row_texts(self) -> list[tuple[str, ...]]:
        """The table's cells, row by row (what a reader sees)."""
        return table_texts(self.table)
