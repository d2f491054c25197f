"""The question of the selected attempt: its text, the answer key and the
desk's extracted answer option by option, and the exact-match verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.status_style import (
    MATCH_COLOURS,
    VALUE_COLOURS,
    chip_style_sheet,
)
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.palette_mode import status_colours_now
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.widgets.fitted_scroll import FittedScrollArea
from ai4hse_desk.gui.widgets.labels import (
    ElidingLabel,
    WrappingLabel,
    plain_label,
    set_style_sheet,
    table_texts,
)
from ai4hse_desk.notes.model import category_name

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.notes import Flag
    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail, OptionRow

#: Heading shown while no attempt is selected.
NO_SELECTION = "No attempt selected"

_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
#: Beside the letter of an option with an open flag (the flag column's mark).
FLAG_MARK = "⚑"
_MATCH_NAMES = {True: "matches the key", False: "differs from the key", None: "not extracted"}


class QuestionPanel(QWidget):
    """Question id, ordinal and labels, the question text, the options table
    (option, text, key, extracted, match) and the exact-match verdict.

    Everything is read-only plain text; invisible and bidi characters in the
    question and option texts are shown as visible stand-ins. Nothing widens the panel:
    the heading (a long imported id) elides in the middle, the texts wrap, inside long
    words too, and the option texts wrap in their cells with the whole text in a tooltip.
    """

    COLUMNS: tuple[str, ...] = ("Option", "Text", "Key", "Extracted", "Match")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Question and answer key")
        self._heading = ElidingLabel(name="Question id and ordinal")
        heading_font = QFont(self._heading.font())
        heading_font.setBold(True)
        self._heading.setFont(heading_font)
        self._labels = WrappingLabel(name="Question labels")
        self._text = WrappingLabel(name="Question text")
        self._table = self._make_table()
        self._verdict = plain_label(name="Exact-match verdict")
        self._question: str | None = None
        self._letters: dict[int, tuple[int, str]] = {}  # option position → (row, letter)
        #: (question id, option position → categories of its open flags), from the notes.
        self._option_flags: tuple[str | None, Mapping[int, tuple[str, ...]]] = (None, {})

        text_holder = QWidget()
        text_layout = QVBoxLayout(text_holder)
        text_layout.setContentsMargins(0, 0, 0, 0)
        text_layout.addWidget(self._text)
        text_layout.addStretch(1)
        self._text_area = FittedScrollArea(text_holder)
        #: Shown only while an attempt is.
        self._body: tuple[QWidget, ...] = (
            self._labels,
            self._text_area,
            self._table,
            self._verdict,
        )

        layout = QVBoxLayout(self)
        layout.addWidget(self._heading)
        layout.addWidget(self._labels)
        layout.addWidget(self._text_area)
        layout.addWidget(self._table, 1)
        layout.addWidget(self._verdict)
        layout.addStretch(0)
        self.clear()

    def _make_table(self) -> QTableWidget:
        table = QTableWidget(0, len(self.COLUMNS))
        table.setObjectName("optionsTable")
        table.setAccessibleName("Options, answer key and extracted answer")
        table.setHorizontalHeaderLabels(list(self.COLUMNS))
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setWordWrap(True)
        table.verticalHeader().setVisible(False)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header = table.horizontalHeader()
        for column in range(len(self.COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        table.verticalHeader().sectionResized.connect(self._fit_table_height)
        # Rows re-wrapped at a new width (a scroll bar that came, a resize) change the
        # length to fit, not always with a section signal; the range says so.
        table.verticalScrollBar().rangeChanged.connect(self._range_changed)
        return table

    # ----------------------------------------------------------------- public

    def set_detail(self, detail: AttemptDetail) -> None:
        """Show the question, options and verdict of ``detail``."""
        self._heading.setText(display_text(detail.heading))
        self._labels.setText(display_text(detail.labels_line))
        self._text.setText(display_text(detail.question_text))
        self._text_area.updateGeometry()
        self._table.setRowCount(len(detail.option_rows))
        self._question = detail.question_id
        self._letters = {}
        for row, option in enumerate(detail.option_rows):
            self._fill_row(row, option)
            self._letters[option.position] = (row, option.letter)
        self._mark_flagged()
        self._verdict.setText(detail.verdict_text)
        background, foreground = status_colours_now(detail.status, detail.correct)
        set_style_sheet(self._verdict, chip_style_sheet(background, foreground))
        for widget in self._body:
            widget.setVisible(True)
        self._fit_table_height()

    def set_option_flags(self, question_id: str | None, flags: Sequence[Flag]) -> None:
        """Mark the options of ``question_id`` with an open flag: ⚑ beside the letter,
        the flags' categories in its tooltip (whole-question flags mark no option)."""
        marked: dict[int, tuple[str, ...]] = {}
        for flag in flags:
            if flag.state == "open" and flag.option is not None:
                marked[flag.option] = (*marked.get(flag.option, ()), category_name(flag.category))
        self._option_flags = (question_id, marked)
        self._mark_flagged()

    def clear(self) -> None:
        """Show nothing but the "no attempt selected" heading."""
        self._question, self._letters = None, {}
        self._heading.setText(NO_SELECTION)
        self._labels.setText("")
        self._text.setText("")
        self._table.clearContents()
        self._table.setRowCount(0)
        self._verdict.setText("")
        self._verdict.setStyleSheet("")
        for widget in self._body:
            widget.setVisible(False)

    def table(self) -> QTableWidget:
        """The read-only options table."""
        return self._table

    def heading_text(self) -> str:
        return self._heading.text()

    def labels_text(self) -> str:
        return self._labels.text()

    def question_text(self) -> str:
        return self._text.text()

    def verdict_text(self) -> str:
        return self._verdict.text()

    def row_texts(self) -> list[tuple[str, ...]]:
        """The table's cell texts, row by row (what a reader sees)."""
        return table_texts(self._table)

    # ---------------------------------------------------------------- private

    def _fit_table_height(self) -> None:
        """Let the table grow no taller than its rows (more room goes below)."""
        table = self._table
        header = table.horizontalHeader()
        height = max(header.height(), header.sizeHint().height())
        height += table.verticalHeader().length() + 2 * table.frameWidth()
        if table.horizontalScrollBar().isVisible():
            height += table.horizontalScrollBar().height()
        table.setMaximumHeight(height)

    def _range_changed(self, _least: int, most: int) -> None:
        if most > 0:  # the rows no longer fit the table's height
            self._fit_table_height()

    def _mark_flagged(self) -> None:
        question_id, flags = self._option_flags
        shown = flags if question_id is not None and question_id == self._question else {}
        for position, (row, letter) in self._letters.items():
            item = self._table.item(row, 0)
            if item is None:
                continue
            categories = shown.get(position, ())
            item.setText(f"{letter} {FLAG_MARK}" if categories else letter)
            if categories:
                noun = "flag" if len(categories) == 1 else "flags"
                tip = f"Open {noun} on option {letter}: {', '.join(categories)}"
                item.setToolTip(plain_tooltip(tip))
            else:
                item.setToolTip("")

    def _fill_row(self, row: int, option: OptionRow) -> None:
        cells = (
            self._item(option.letter, centred=True),
            self._item(display_text(option.text), tip=True),
            self._chip_item(option.key_text, VALUE_COLOURS[option.key]),
            self._chip_item(
                option.extracted_text,
                None if option.extracted is None else VALUE_COLOURS[option.extracted],
            ),
            self._chip_item(
                option.match_text, None if option.match is None else MATCH_COLOURS[option.match]
            ),
        )
        cells[4].setData(
            Qt.ItemDataRole.AccessibleTextRole,
            f"Option {option.letter} {_MATCH_NAMES[option.match]}",
        )
        for column, item in enumerate(cells):
            self._table.setItem(row, column, item)

    @staticmethod
    def _item(text: str, *, centred: bool = False, tip: bool = False) -> QTableWidgetItem:
        item = QTableWidgetItem(text)
        item.setFlags(_FLAGS)
        if tip:  # a cell wraps at word boundaries only: a long word is elided there
            item.setToolTip(plain_tooltip(text))
        alignment = Qt.AlignmentFlag.AlignTop
        if centred:
            alignment |= Qt.AlignmentFlag.AlignHCenter
        item.setTextAlignment(alignment)
        return item

    @classmethod
    def _chip_item(cls, text: str, colours: tuple[str, str] | None) -> QTableWidgetItem:
        item = cls._item(text, centred=True)
        if colours is not None:
            item.setBackground(QColor(colours[0]))
            item.setForeground(QColor(colours[1]))
            font = item.font()
            font.setBold(True)
            item.setFont(font)
        return item
