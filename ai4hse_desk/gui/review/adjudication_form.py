"""The decision form of the adjudication workspace: decision, corrected key, note.

The corrected key (one TRUE/FALSE per option) is asked for ``key_corrected`` only
and sent only then; it starts from the first proposed key that differs from the
official key (else from the official key), or from the question's current
correction. A question decided before shows its latest decision, to revise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QPlainTextEdit,
    QWidget,
)

from ai4hse_desk.gui.review.adjudication_reads import DecisionValues
from ai4hse_desk.gui.review.adjudication_texts import DECISION_HELP
from ai4hse_desk.gui.review.key_boxes import KeyBoxes
from ai4hse_desk.review.names import decision_name
from ai4hse_desk.review.values import DECISIONS, KEY_CORRECTED, answer_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ai4hse_desk.review.queue import QueueItem

CHOOSE = "Choose a decision…"
KEY_TIP = (
    "Required for Key corrected (and sent only then): one TRUE/FALSE per option. It starts "
    "from the first proposed key that differs from the official key."
)


def correction_start(
    official: tuple[str, ...],
    corrected: tuple[str, ...] | None,
    proposed: Iterable[tuple[str, ...] | None],
) -> tuple[str, ...]:
    """The corrected key a decision form starts from: the current correction, else the
    first proposed key other than the official key, else the official key (the local
    Adjudication page's and the server window's)."""
    if corrected is not None:
        return corrected
    return next((key for key in proposed if key is not None and key != official), official)


def starting_key(item: QueueItem) -> tuple[str, ...]:
    """:func:`correction_start` of a queue item."""
    decision = item.decision
    return correction_start(
        answer_of(item.official_key),
        None if decision is None else decision.corrected_key,
        (verdict.proposed_key for verdict in item.verdicts),
    )


def decision_box() -> QComboBox:
    """The decisions to choose from, each with what it means, starting unchosen
    (:data:`CHOOSE`, no data): the local Adjudication page's and the server window's."""
    box = QComboBox()
    box.setAccessibleName("Decision")
    box.addItem(CHOOSE, None)
    for code in DECISIONS:
        box.addItem(f"{decision_name(code)} — {DECISION_HELP[code]}", code)
    return box


class DecisionForm(QWidget):
    """The fields of one decision."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Your decision")
        self.decision = decision_box()
        self.decision.currentIndexChanged.connect(lambda _i: self._follow_decision())
        self._key_holder = KeyBoxes("Corrected key", KEY_TIP)
        self.note = QPlainTextEdit()
        self.note.setAccessibleName("Decision note")
        self.note.setTabChangesFocus(True)
        self.note.setPlaceholderText("why (recorded with the decision; shown in the report)")
        self.note.setFixedHeight(self.note.fontMetrics().lineSpacing() * 3 + 12)
        form = QFormLayout(self)
        form.setContentsMargins(0, 4, 0, 0)
        form.addRow("Decision", self.decision)
        form.addRow("Corrected key", self._key_holder)
        form.addRow("Note", self.note)

    def set_item(self, item: QueueItem) -> None:
        """Start the form on ``item``: its latest decision if it has one, else empty."""
        self._key_holder.set_key(len(item.official_key), starting_key(item))
        decision = item.decision
        code = None if decision is None else decision.decision
        self.decision.setCurrentIndex(max(0, self.decision.findData(code)) if code else 0)
        self.note.setPlainText("" if decision is None else decision.note)
        self._follow_decision()

    def choose(self, code: str, key: Sequence[str] | None = None, note: str = "") -> None:
        """Set the form (keyboard users and tests): ``code``, the corrected key, the note."""
        self.decision.setCurrentIndex(self.decision.findData(code))
        self._key_holder.set_values(key or ())
        self.note.setPlainText(note)

    @property
    def key_boxes(self) -> list[QComboBox]:
        """The corrected key's boxes, one per option."""
        return self._key_holder.boxes

    def _follow_decision(self) -> None:
        self._key_holder.setEnabled(self.decision.currentData() == KEY_CORRECTED)

    def values(self) -> DecisionValues:
        """What the form holds now."""
        code = self.decision.currentData()
        key = self._key_holder.key()
        return DecisionValues(
            decision=None if code is None else str(code),
            key=key if code == KEY_CORRECTED else None,
            note=self.note.toPlainText(),
        )


__all__ = [
    "CHOOSE",
    "KEY_TIP",
    "DecisionForm",
    "correction_start",
    "decision_box",
    "starting_key",
]
