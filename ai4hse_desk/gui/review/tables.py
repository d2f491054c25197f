"""The review pages' read-only tables: plain-text cells, fitted to their rows; the runs'
responses per repetition (the Review view's reveal, the adjudication workspace and the
review server's two pages show the same table); the key against the reviewer's blind
answer, option by option (the local and the server's Review page); the options side by
side for an adjudicator."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QTableWidget, QTableWidgetItem

from ai4hse_desk.display.format import option_letter, plural
from ai4hse_desk.display.status_style import MATCH_COLOURS, status_label
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.palette_mode import status_colours_now
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.review.adjudication_texts import (
    DIFFERS,
    OPTION_COLUMNS,
    TEXT_COLUMN,
    option_rows,
    reviewer_columns,
)
from ai4hse_desk.gui.review.texts import (
    VOTES_COLUMN,
    VOTES_TIP,
    option_answer,
    option_votes,
    response_cell,
    response_tip,
)
from ai4hse_desk.gui.widgets.item_table import header_tip, item_table

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtWidgets import QLabel

    from ai4hse_desk.gui.review.texts import ResponseRow
    from ai4hse_desk.review.records import ReviewVerdict

#: Columns before the repetitions in the responses table (run, track).
RUN_COLUMNS = 2
#: The key against the blind answer, option by option.
KEY_COLUMNS = ("Option", "Key", "Your blind answer", VOTES_COLUMN)


def fill_cells(table: QTableWidget, rows: Sequence[Sequence[str]], *, tips: bool = False) -> None:
    """Fill ``table`` with plain-text cells (``tips``: each cell's text as its tooltip too)."""
    table.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if tips and text:
                item.setToolTip(plain_tooltip(text))
            table.setItem(r, c, item)


def fit_height(table: QTableWidget, *, stretch_last: bool = True) -> None:
    """As tall as its rows (the page scrolls, not each table); every column as wide as
    its contents, the last one taking the spare width unless not ``stretch_last``."""
    header = table.horizontalHeader()
    last = table.columnCount() - 1
    for column in range(last + 1):
        mode = (
            QHeaderView.ResizeMode.Stretch
            if column == last and stretch_last
            else QHeaderView.ResizeMode.ResizeToContents
        )
        header.setSectionResizeMode(column, mode)
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    height = header.sizeHint().height() + 2 * table.frameWidth()
    height += sum(table.rowHeight(r) for r in range(table.rowCount()))
    height += table.horizontalScrollBar().sizeHint().height()  # room if it is needed
    table.setFixedHeight(height)


#: What the responses title says of a question no run answered (in the audit file).
NO_RESPONSES = "No model response to this question in the audit file."


def show_responses(
    table: QTableWidget,
    title: QLabel,
    rows: Sequence[ResponseRow],
    *,
    empty: str | None = NO_RESPONSES,
) -> None:
    """Every run's extracted selection per repetition (a run a row), coloured by status;
    without rows the title says ``empty``, or is hidden when ``empty`` is None (the
    review server's pages, whose text already says what was released)."""
    runs: list[tuple[str, str, str]] = []
    for row in rows:
        entry = (row.run_id, row.model, row.track.value)
        if entry not in runs:
            runs.append(entry)
    repetitions = sorted({row.repetition for row in rows})
    table.clear()
    table.setColumnCount(RUN_COLUMNS + len(repetitions))
    table.setHorizontalHeaderLabels(["Run", "Track", *(f"rep {r}" for r in repetitions)])
    fill_cells(table, [(display_text(run), track) for run, _model, track in runs])
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
    title.setText(
        f"Model responses: {correct:,} of {plural(len(rows), 'attempt')} correct, "
        f"{plural(len(runs), 'run')} (each cell: the extracted selection, ✓ correct)"
        if rows else empty or ""
    )  # fmt: skip
    title.setVisible(bool(rows) or empty is not None)
    table.setVisible(bool(rows))
    # The repetitions side by side at one width (the widest one's), none stretched
    # across the spare width: the table may end before its frame does.
    fit_height(table, stretch_last=False)
    header = table.horizontalHeader()
    widths = [header.sectionSize(c) for c in range(RUN_COLUMNS, table.columnCount())]
    for column in range(RUN_COLUMNS, table.columnCount()):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(column, max(widths))


def key_table() -> QTableWidget:
    """An empty table of the key against the blind answer (:func:`show_key`)."""
    table = item_table("Key per option", KEY_COLUMNS)
    header_tip(table, KEY_COLUMNS.index(VOTES_COLUMN), VOTES_TIP)
    return table


def show_key(
    table: QTableWidget,
    key: Sequence[bool],
    blind: Sequence[str] | None,
    rows: Sequence[ResponseRow],
) -> None:
    """Option by option: the key, the blind answer (``None``: recorded as not blind) and
    how many of ``rows``' attempts select the option."""
    fill_cells(table, [
        (option_letter(p), "TRUE" if k else "FALSE",
         option_answer(None if blind is None else blind[p]), option_votes(rows, p))
        for p, k in enumerate(key)
    ])  # fmt: skip
    fit_height(table)


def show_options(
    table: QTableWidget,
    official: Sequence[bool],
    texts: Sequence[str],
    verdicts: Sequence[ReviewVerdict],
    rows: Sequence[ResponseRow],
) -> None:
    """The options side by side for an adjudicator: the official key, the runs' votes,
    each reviewer's blind answer and proposed key, the cells that differ from the key
    coloured (:func:`~.adjudication_texts.option_rows`), the option's text last."""
    columns = [*OPTION_COLUMNS, *reviewer_columns(verdicts), TEXT_COLUMN]
    table.setColumnCount(len(columns))
    table.setHorizontalHeaderLabels(columns)
    header_tip(table, columns.index(VOTES_COLUMN), VOTES_TIP)
    fill_cells(table, option_rows(official, texts, verdicts, rows), tips=True)
    background, foreground = (QBrush(QColor(c)) for c in MATCH_COLOURS[False])
    for row in range(table.rowCount()):
        for column in range(table.columnCount()):
            cell = table.item(row, column)
            if cell is not None and cell.text().endswith(DIFFERS):
                cell.setBackground(background)
                cell.setForeground(foreground)
    fit_height(table)


__all__ = [
    "KEY_COLUMNS",
    "NO_RESPONSES",
    "RUN_COLUMNS",
    "fill_cells",
    "fit_height",
    "key_table",
    "show_key",
    "show_options",
    "show_responses",
]
