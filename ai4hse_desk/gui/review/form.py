"""The verdict form of the Review view: verdict, proposed key, confidence, source, note.

Shown only after the blind answer. The proposed key (one TRUE/FALSE per option)
is asked for ``key_wrong`` only and sent only then: it starts from the blind
answer, an option answered unsure starting from the official key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLineEdit,
    QPlainTextEdit,
    QWidget,
)

from ai4hse_desk.gui.review.key_boxes import KeyBoxes
from ai4hse_desk.review.names import verdict_name
from ai4hse_desk.review.values import (
    CONFIDENCES,
    FALSE,
    KEY_WRONG,
    MAX_SOURCE,
    TRUE,
    UNSURE,
    VERDICTS,
    proposes_the_official_key,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.review.records import ReviewVerdict

#: What each verdict means, beside its name in the list.
VERDICT_HELP = {
    "key_ok": "the key is right",
    "key_wrong": "the key is wrong (propose the right one)",
    "multiple_defensible": "more than one answer is defensible",
    "no_correct_option": "no option is correct",
    "unclear_question": "the question is unclear",
    "unclear_options": "the options are unclear",
    "outdated_or_jurisdiction": "outdated, or depends on the jurisdiction",
    "typo_or_format": "a typo or a formatting problem",
    "other": "something else (say what in the note)",
}
CHOOSE = "Choose a verdict…"
#: The keys of the form, said under the question once the key is revealed.
REVEALED_HINT = (
    "Ctrl+Enter submits and moves to the next question not yet submitted; Ctrl+S saves a draft."
)
KEY_TIP = (
    "Required for Key wrong (and sent only then): one TRUE/FALSE per option. It starts "
    "from your blind answer; an option you answered unsure starts from the official key."
)


@dataclass(frozen=True)
class VerdictValues:
    """What the form holds (``proposed_key`` only for ``key_wrong``)."""

    verdict: str | None
    proposed_key: tuple[str, ...] | None
    confidence: str | None
    source: str
    note: str

    def problem(self, key: Sequence[bool], *, submit: bool) -> str:
        """Why these values cannot be recorded against the official ``key`` ("" if they can)."""
        if submit and self.verdict is None:
            return "Choose a verdict before submitting (or save a draft)."
        if proposes_the_official_key(self.verdict, self.proposed_key, tuple(key)):
            return (
                "Key wrong: the proposed key is the official key; change the options "
                "you think the key has wrong."
            )
        return ""


def starting_key(blind: Sequence[str] | None, key: Sequence[bool]) -> tuple[str, ...]:
    """The proposed key a form starts with: the blind answer, unsure (or not blind) → key."""
    official = tuple(TRUE if value else FALSE for value in key)
    if blind is None:
        return official
    return tuple(o if b == UNSURE else b for b, o in zip(blind, official, strict=True))


class VerdictForm(QWidget):
    """The fields of one verdict."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Your verdict")
        self.verdict = QComboBox()
        self.verdict.setAccessibleName("Verdict")
        self.verdict.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.verdict.setMinimumContentsLength(24)
        self.verdict.addItem(CHOOSE, None)
        for name in VERDICTS:
            self.verdict.addItem(f"{verdict_name(name)} — {VERDICT_HELP[name]}", name)
        self.verdict.currentIndexChanged.connect(lambda _i: self._follow_verdict())
        self._key_holder = KeyBoxes("Proposed key", KEY_TIP)
        self.confidence = QComboBox()
        self.confidence.setAccessibleName("Confidence")
        self.confidence.addItem("not given", None)
        for level in CONFIDENCES:
            self.confidence.addItem(level, level)
        self.source = QLineEdit()
        self.source.setAccessibleName("Source checked")
        self.source.setPlaceholderText("a regulation, a standard, a URL")
        self.source.setMaxLength(MAX_SOURCE)
        self.note = QPlainTextEdit()
        self.note.setAccessibleName("Note")
        self.note.setTabChangesFocus(True)
        self.note.setPlaceholderText("why (optional)")
        self.note.setFixedHeight(self.note.fontMetrics().lineSpacing() * 3 + 12)
        form = QFormLayout(self)
        form.setContentsMargins(0, 4, 0, 0)
        form.addRow("Verdict", self.verdict)
        form.addRow("Proposed key", self._key_holder)
        form.addRow("Confidence", self.confidence)
        form.addRow("Source checked", self.source)
        form.addRow("Note", self.note)

    def set_content(self, options: int, own: ReviewVerdict | None, start: Sequence[str]) -> None:
        """Show ``own`` (or an empty form); the proposed key starts at ``start`` unless
        ``own`` proposed one."""
        proposed = own.proposed_key if own is not None and own.proposed_key else tuple(start)
        self._key_holder.set_key(options, proposed)
        verdict = None if own is None else own.verdict
        self.verdict.setCurrentIndex(max(0, self.verdict.findData(verdict)) if verdict else 0)
        level = None if own is None else own.confidence
        self.confidence.setCurrentIndex(max(0, self.confidence.findData(level)) if level else 0)
        self.source.setText("" if own is None else own.source)
        self.note.setPlainText("" if own is None else own.note)
        self._follow_verdict()

    @property
    def key_boxes(self) -> list[QComboBox]:
        """The proposed key's boxes, one per option."""
        return self._key_holder.boxes

    def _follow_verdict(self) -> None:
        self._key_holder.setEnabled(self.verdict.currentData() == KEY_WRONG)

    def values(self) -> VerdictValues:
        """What the form holds now."""
        verdict = self.verdict.currentData()
        key = self._key_holder.key()
        level = self.confidence.currentData()
        return VerdictValues(
            verdict=None if verdict is None else str(verdict),
            proposed_key=key if verdict == KEY_WRONG else None,
            confidence=None if level is None else str(level),
            source=self.source.text(),
            note=self.note.toPlainText(),
        )


__all__ = [
    "CHOOSE",
    "KEY_TIP",
    "REVEALED_HINT",
    "VERDICT_HELP",
    "VerdictForm",
    "VerdictValues",
    "starting_key",
]
