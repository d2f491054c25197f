"""Review ▸ Plan…: the review plan's settings, asked in one dialog.

The reviewers (names separated by commas), how many review each question (K), the
order of the queues (corpus, a seeded shuffle, or the key audit's most suspect
first) and whether to replace a plan in force (its verdicts stay). Every question of
the file is planned. What the store refuses comes back in the dialog as one plain
line, the values kept (:class:`~ai4hse_desk.gui.review.plan_action.PlanController`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.format import plural
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.dialogs.save_keys import save_on_ctrl_enter
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.review.values import SEED_RANGE

#: The orders a plan may follow, with their words.
ORDER_HELP = {
    "corpus": "corpus order",
    "random": "shuffled (seeded: the same seed gives the same plan)",
    "keyaudit": "the key audit's most suspect questions first",
}


@dataclass(frozen=True)
class PlanValues:
    """What the dialog holds."""

    reviewers: tuple[str, ...]
    per_question: int
    order: str
    seed: int | None
    replace: bool = False

    def problem(self) -> str:
        """Why these values make no plan ("" when they may): checked before the store."""
        if not self.reviewers:
            return "Name the reviewers, separated by commas."
        if self.per_question > len(self.reviewers):
            return (
                f"{self.per_question} reviewers per question need at least that many "
                f"reviewers ({len(self.reviewers)} named)."
            )
        return ""


def _names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())


class PlanDialog(QDialog):
    """The plan's settings (see the module docstring)."""

    def __init__(
        self,
        questions: int,
        creator: str,
        start: PlanValues | None = None,
        problem: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Review plan")
        self.setAccessibleName("Review plan")
        self.setMinimumWidth(520)
        self.reviewers = QLineEdit()
        self.reviewers.setAccessibleName("Reviewers")
        self.reviewers.setPlaceholderText("ann, bob, cy")
        self.per_question = QSpinBox()
        self.per_question.setAccessibleName("Reviewers per question")
        self.per_question.setRange(1, 99)
        self.per_question.setValue(2)
        self.order = QComboBox()
        self.order.setAccessibleName("Order")
        for code, words in ORDER_HELP.items():
            self.order.addItem(f"{code} — {words}", code)
        self.seed = QLineEdit(str(random.randint(0, SEED_RANGE[1])))  # (an order, not a secret)
        self.seed.setAccessibleName("Seed")
        self.replace = QCheckBox("Replace the plan in force (every verdict stays)")
        self._refusal = display_text(problem)  # the store's word on the last try
        self.problem = plain_label(name="Problem")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Make the plan")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        save_on_ctrl_enter(self, self.buttons)
        form = QFormLayout()
        form.addRow("Reviewers", self.reviewers)
        form.addRow("Reviewers per question (K)", self.per_question)
        form.addRow("Order", self.order)
        form.addRow("Seed", self.seed)
        form.addRow("Questions", plain_label(f"all {plural(questions, 'question')} of the file"))
        form.addRow("Made by", plain_label(display_text(creator), name="Made by"))
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.replace)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        if start is not None:
            self.set_values(start)
        self.order.currentIndexChanged.connect(lambda _i: self._follow())
        for signal in (self.reviewers.textChanged, self.seed.textChanged):
            signal.connect(lambda _t: self._check())
        self.per_question.valueChanged.connect(lambda _v: self._check())
        self._follow()

    def set_values(self, values: PlanValues) -> None:
        """Fill the dialog with ``values`` (a plan refused: asked again, as it was)."""
        self.reviewers.setText(", ".join(values.reviewers))
        self.per_question.setValue(values.per_question)
        self.order.setCurrentIndex(max(0, self.order.findData(values.order)))
        if values.seed is not None:
            self.seed.setText(str(values.seed))
        self.replace.setChecked(values.replace)

    def _follow(self) -> None:
        self.seed.setEnabled(self.order.currentData() == "random")
        self._check()

    def _seed(self) -> int | str | None:
        """The seed (``None`` unless shuffled), or why the text is not one."""
        if self.order.currentData() != "random":
            return None
        low, high = SEED_RANGE
        try:
            seed = int(self.seed.text().strip())
        except ValueError:
            return f"The seed is a whole number from {low} to {high}."
        return seed if low <= seed <= high else f"The seed is a whole number from {low} to {high}."

    def values(self) -> PlanValues:
        """What the dialog holds now (a seed that is not a number counts as none)."""
        seed = self._seed()
        return PlanValues(
            _names(self.reviewers.text()), self.per_question.value(),
            str(self.order.currentData()), seed if isinstance(seed, int) else None,
            self.replace.isChecked(),
        )  # fmt: skip

    def problem_text(self) -> str:
        """Why the plan cannot be made yet ("" when it may be asked for)."""
        seed = self._seed()
        return seed if isinstance(seed, str) else self.values().problem()

    def _check(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem or self._refusal)
        self.problem.setVisible(bool(problem or self._refusal))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    @classmethod
    def ask(
        cls,
        parent: QWidget | None,
        questions: int,
        creator: str,
        start: PlanValues | None = None,
        problem: str = "",
    ) -> PlanValues | None:
        """Show the dialog; the values when accepted, ``None`` when cancelled."""
        dialog = cls(questions, creator, start, problem, parent)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted or dialog.problem_text():
                return None
            return dialog.values()
        finally:
            dialog.deleteLater()


__all__ = ["ORDER_HELP", "PlanDialog", "PlanValues"]
