"""What the Review view shows once the reviewer answered blind: the key and the evidence.

The key against the blind answer option by option (with how many attempts
select each option), every run's extracted selection and status per repetition
(the compare grid's rows, from the review index), the key-audit evidence, the
question's flags, and the other reviewers' submitted verdicts and where the review
of the question stands (the adjudicator's decision) — those only once the store
hands them over (after this reviewer submitted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QVBoxLayout, QWidget

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.review.tables import (
    fill_cells,
    fit_height,
    key_table,
    show_key,
    show_responses,
)
from ai4hse_desk.gui.review.texts import (
    OTHER_COLUMNS,
    blind_summary,
    evidence_text,
    final_text,
    flags_text,
    key_text,
    other_row,
)
from ai4hse_desk.gui.widgets.item_table import item_table
from ai4hse_desk.gui.widgets.labels import WrappingLabel, plain_label

if TYPE_CHECKING:
    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.gui.review.reads import Reveal
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.review.records import ReviewVerdict

WITHHELD = "Other reviewers' submitted verdicts appear once you submit yours."


class RevealPanel(QWidget):
    """The key, the responses, the evidence and the other reviewers' verdicts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Key and evidence")
        self.key_line = plain_label(name="Answer key", wrap=False)
        bold = QFont(self.key_line.font())
        bold.setBold(True)
        self.key_line.setFont(bold)
        self.labels = WrappingLabel(name="Question labels")
        self.blind_line = plain_label(name="Your blind answer against the key")
        self.options = key_table()
        self.responses_title = plain_label(name="Model responses")
        self.responses = item_table("Model responses per run and repetition", ("Run", "Track"))
        self.evidence = WrappingLabel(name="Key-audit evidence")
        self.decision = WrappingLabel(name="Where the review of this question stands")
        self.flags = WrappingLabel(name="Flags on this question")
        self.others_title = plain_label(name="Other reviewers")
        self.others = item_table("Other reviewers' verdicts", OTHER_COLUMNS)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.key_line, self.labels, self.blind_line, self.options,
                       self.responses_title, self.responses, self.evidence, self.flags,
                       self.decision, self.others_title, self.others):  # fmt: skip
            layout.addWidget(widget)
        layout.addStretch(1)

    def show_reveal(
        self,
        question: Question,
        own: ReviewVerdict,
        reveal: Reveal,
        key_audit: KeyAuditResult | None,
    ) -> None:
        """Fill every part for ``question`` (the reviewer's ``own`` verdict exists)."""
        key = question.key
        self.key_line.setText(key_text(key))
        labels = " · ".join(f"{k}: {v}" for k, v in sorted(question.labels.items()))
        self.labels.setText(display_text(labels))
        self.labels.setVisible(bool(labels))
        self.blind_line.setText(blind_summary(own, key))
        show_key(self.options, key, own.blind_answer, reveal.rows)
        show_responses(self.responses, self.responses_title, reveal.rows)
        self.show_evidence(question, key_audit)
        self.flags.setText(flags_text(reveal.flags, reveal.sealed_flags))
        others = reveal.others
        self.decision.setText(final_text(reveal.final))
        self.decision.setVisible(reveal.final is not None)
        self.others.setVisible(others is not None)
        if others is None:
            self.others_title.setText(WITHHELD)
        else:
            self.others_title.setText(
                f"Other reviewers' submitted verdicts: {len(others)}"
                if others else "No other reviewer has submitted a verdict on this question yet."
            )  # fmt: skip
            fill_cells(self.others, [other_row(v) for v in others], tips=True)
            fit_height(self.others)

    def show_evidence(self, question: Question, key_audit: KeyAuditResult | None) -> None:
        """The key audit's evidence on ``question`` (again when the audit finishes)."""
        self.evidence.setText(evidence_text(question, key_audit))

    def clear(self) -> None:
        """Nothing shown (a blind question, or no question)."""
        for label in (self.key_line, self.blind_line, self.responses_title, self.evidence,
                      self.flags, self.decision, self.others_title, self.labels):  # fmt: skip
            label.clear()
        for table in (self.options, self.responses, self.others):
            table.setRowCount(0)


__all__ = ["WITHHELD", "RevealPanel"]
