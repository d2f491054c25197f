"""Add a flag to a question, or edit one: category, option, severity and note.

The dialog only collects values (:class:`FlagValues`); the notes controller
writes them to the store. What the reviewer typed is shown as plain text, with
invisible and bidi characters made visible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.dialogs.save_keys import save_on_ctrl_enter
from ai4hse_desk.gui.plain_text import title_text
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.notes import CATEGORIES, SEVERITIES, Flag
from ai4hse_desk.notes.model import MAX_NOTE, category_name, flag_note_problem

if TYPE_CHECKING:
    from ai4hse_desk.audit.records import Question

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
_NO_OPTION = -1  # the option combo's data for "whole question" (None is no QVariant)
_OPTION_TEXT = 70


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
            self.category.addItem(f"{category_name(name)} — {CATEGORY_LABELS[name]}", name)
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
        save_on_ctrl_enter(self, self.buttons)

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
        problem = flag_note_problem(values.category, values.note)
        if problem:
            return f"{problem[0].upper()}{problem[1:]}."
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


__all__ = ["CATEGORY_LABELS", "FlagDialog", "FlagValues"]
