"""What the Review view shows once the reviewer answered blind: the key and the evidence.

The key against the blind answer option by option (with how many attempts
select each option), every run's extracted selection and status per repetition
(the compare grid's rows, from the review index), the key-audit evidence, the
question's flags, and the other reviewers' submitted verdicts — those only once
the store hands them over (after this reviewer submitted).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.format import option_letter, plural
from ai4hse_desk.display.status_style import status_label
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.palette_mode import status_colours_now
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.review.texts import (
    OTHER_COLUMNS,
    blind_summary,
    evidence_text,
    flags_text,
    key_text,
    option_answer,
    option_votes,
    other_row,
    response_cell,
    response_tip,
)
from ai4hse_desk.gui.widgets.item_table import item_table
from ai4hse_desk.gui.widgets.labels import plain_label

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.gui.review.reads import Reveal
    from ai4hse_desk.index import ListRow
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.review.records import ReviewVerdict

OPTION_COLUMNS = ("Option", "Key", "Your blind answer", "Attempts selecting it")
#: Columns before the repetitions in the responses table (run, track).
RUN_COLUMNS = 2
WITHHELD = "Other reviewers' submitted verdicts appear once you submit yours."


def _cells(table: QTableWidget, rows: Sequence[Sequence[str]], *, tips: bool = False) -> None:
    """Fill ``table`` with plain-text cells (``tips``: each cell's text as its tooltip too)."""
    table.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if tips and text:
                item.setToolTip(plain_tooltip(text))
            table.setItem(r, c, item)


class RevealPanel(QWidget):
    """The key, the responses, the evidence and the other reviewers' verdicts."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Key and evidence")
        self.key_line = plain_label(name="Answer key", wrap=False)
        bold = QFont(self.key_line.font())
        bold.setBold(True)
        self.key_line.setFont(bold)
        self.labels = plain_label(name="Question labels")
        self.blind_line = plain_label(name="Your blind answer against the key")
        self.options = item_table("Key per option", OPTION_COLUMNS)
        self.responses_title = plain_label(name="Model responses")
        self.responses = item_table("Model responses per run and repetition", ("Run", "Track"))
        self.evidence = plain_label(name="Key-audit evidence")
        self.flags = plain_label(name="Flags on this question")
        self.others_title = plain_label(name="Other reviewers")
        self.others = item_table("Other reviewers' verdicts", OTHER_COLUMNS)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.key_line, self.labels, self.blind_line, self.options,
                       self.responses_title, self.responses, self.evidence, self.flags,
                       self.others_title, self.others):  # fmt: skip
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
        blind = own.blind_answer
        _cells(self.options, [
            (option_letter(p), "TRUE" if k else "FALSE",
             option_answer(None if blind is None else blind[p]), option_votes(reveal.rows, p))
            for p, k in enumerate(key)
        ])  # fmt: skip
        self._fit(self.options)
        self._show_responses(reveal.rows)
        self.evidence.setText(evidence_text(question, key_audit))
        self.flags.setText(flags_text(reveal.flags, reveal.sealed_flags))
        others = reveal.others
        self.others.setVisible(others is not None)
        if others is None:
            self.others_title.setText(WITHHELD)
        else:
            self.others_title.setText(
                f"Other reviewers' submitted verdicts: {len(others)}"
                if others else "No other reviewer has submitted a verdict on this question yet."
            )  # fmt: skip
            _cells(self.others, [other_row(v) for v in others], tips=True)
            self._fit(self.others)

    def _show_responses(self, rows: Sequence[ListRow]) -> None:
        runs: list[tuple[str, str, str]] = []
        for row in rows:
            entry = (row.run_id, row.model, row.track.value)
            if entry not in runs:
                runs.append(entry)
        repetitions = sorted({row.repetition for row in rows})
        table = self.responses
        table.clear()
        table.setColumnCount(RUN_COLUMNS + len(repetitions))
        table.setHorizontalHeaderLabels(["Run", "Track", *(f"rep {r}" for r in repetitions)])
        _cells(table, [(display_text(run), track) for run, _model, track in runs])
        for r, (run, model, track) in enumerate(runs):
            cell = table.item(r, 0)
            if cell is not None:
                cell.setToolTip(plain_tooltip(display_text(f"{run}: {model}, {track}")))
        run_row = {run[0]: i for i, run in enumerate(runs)}
        rep_col = {rep: RUN_COLUMNS + i for i, rep in enumerate(repetitions)}
        for row in rows:
            item = QTableWidgetItem(response_cell(row, status_label(row.status)))
            background, foreground = status_colours_now(row.status, row.correct)
            item.setBackground(QBrush(QColor(background)))
            item.setForeground(QBrush(QColor(foreground)))
            item.setToolTip(response_tip(row))
            table.setItem(run_row[row.run_id], rep_col[row.repetition], item)
        correct = sum(row.correct for row in rows)
        self.responses_title.setText(
            f"Model responses: {correct} of {plural(len(rows), 'attempt')} correct, "
            f"{plural(len(runs), 'run')} (each cell: the extracted selection, ✓ correct)"
            if rows else "No model response to this question in the audit file."
        )  # fmt: skip
        table.setVisible(bool(rows))
        self._fit(table)

    @staticmethod
    def _fit(table: QTableWidget) -> None:
        """As tall as its rows (the panel scrolls, not each table)."""
        header = table.horizontalHeader()
        last = table.columnCount() - 1
        for column in range(last + 1):
            mode = (
                QHeaderView.ResizeMode.Stretch
                if column == last
                else QHeaderView.ResizeMode.ResizeToContents
            )
            header.setSectionResizeMode(column, mode)
        table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        height = header.sizeHint().height() + 2 * table.frameWidth()
        height += sum(table.rowHeight(r) for r in range(table.rowCount()))
        height += table.horizontalScrollBar().sizeHint().height()  # room if it is needed
        table.setFixedHeight(height)

    def clear(self) -> None:
        """Nothing shown (a blind question, or no question)."""
        for label in (self.key_line, self.blind_line, self.responses_title, self.evidence,
                      self.flags, self.others_title, self.labels):  # fmt: skip
            label.clear()
        for table in (self.options, self.responses, self.others):
            table.setRowCount(0)


__all__ = ["OPTION_COLUMNS", "WITHHELD", "RevealPanel"]
