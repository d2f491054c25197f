"""Every flag, attempt note and submitted review concern of the notes store in one table.

A **review concern** is a submitted verdict other than ``key_ok`` (issue 13: it
shows wherever flags show); its row gives the reviewer, the verdict and the note,
and the flag category the concern counts as. Filters: state (a concern counts as
an open flag, so "open" lists it), category (a category hides attempt notes,
which have none), reviewer (the author) and kind. *Decision* says what the review
made of the row's question (its final state), where the reviewer may see it. A
double-click on a flag or a concern shows the first listed attempt of its question;
on an attempt note, that attempt. Every text is shown as plain text. People write notes, so
the list is thousands at most: the notes controller reads it whole, off the GUI thread, the
core filters it (:func:`~ai4hse_desk.review.list_rows.note_rows`) and a thin model
(:class:`~ai4hse_desk.gui.models.notes_table.NotesTableModel`) shows it, the view asking
only for the rows it draws (20,000 flags refresh in well under 0.1 s). It holds only what
the visibility policy lets the reviewer see: under the table, a line says what is hidden,
on which questions, and why, with a button to answer a blind one in the Review view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.models.notes_table import NotesTableModel
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.notes import CATEGORIES, STATES, AttemptNote, Flag
from ai4hse_desk.notes.model import category_name
from ai4hse_desk.review.list_rows import COLUMNS, KINDS, note_rows

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence, Set

    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.records import ReviewVerdict


#: Rows whose texts set the columns' widths (Qt's default, 1,000, cost 0.1 s per refresh).
_WIDTH_ROWS = 100
#: Pixels of a filter beside its text (frame, margins, arrow): at its narrowest a filter
#: shows its first choice whole, and the four and the count fit an 800-px window (at their
#: longest choices the dock widened it to about 980 px).
_COMBO_FRAME = 36


def _combo(name: str, choices: Sequence[tuple[str, str | None]]) -> QComboBox:
    """A filter as wide as its longest choice where there is room, down to its first choice
    ("Any state") where there is not (a longer choice elided); its list as wide as its
    longest choice."""
    combo = QComboBox()
    combo.setAccessibleName(name)
    combo.setMinimumWidth(combo.fontMetrics().horizontalAdvance(choices[0][0]) + _COMBO_FRAME)
    for label, value in choices:
        combo.addItem(label, value)
    _fit_list(combo)
    return combo


def _fit_list(combo: QComboBox) -> None:
    view = combo.view()
    view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width())


class NotesList(QWidget):
    """The filters and the table of every flag, note and submitted review concern."""

    question_activated = Signal(str)
    attempt_activated = Signal(int)
    review_requested = Signal(str)  # a blind question, to answer in the Review view

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Notes list")
        self._flags: list[Flag] = []
        self._notes: list[AttemptNote] = []
        self._concerns: list[ReviewVerdict] = []
        self._states: dict[str, FinalState] = {}
        self._has_store = False
        self.state = _combo("State filter", [("Any state", None), *((s, s) for s in STATES)])
        self.state.setToolTip("A submitted review concern counts as an open flag")
        self.category = _combo(
            "Category filter",
            [("Any category", None), *((category_name(c), c) for c in CATEGORIES)],
        )
        self.category.setToolTip("Attempt notes have no category: choosing one lists flags only")
        self.reviewer = _combo("Reviewer filter", [("Any reviewer", None)])
        self.kind = _combo("Kind filter", KINDS)
        self.count = plain_label(name="Notes shown")
        self.hidden = plain_label(name="Notes hidden from you")
        self.review_button = QPushButton()
        self.review_button.clicked.connect(
            lambda: self.review_requested.emit(self.review_button.property("question"))
        )
        self.model = NotesTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Flags, attempt notes and review concerns")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setResizeContentsPrecision(_WIDTH_ROWS)
        for column in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        # Newest change first until a header is clicked.
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.doubleClicked.connect(lambda index: self.activate_row(index.row()))

        filters = QHBoxLayout()
        for label, combo in (
            ("State", self.state),
            ("Category", self.category),
            ("Reviewer", self.reviewer),
            ("Kind", self.kind),
        ):
            filters.addWidget(QLabel(label))
            filters.addWidget(combo)
        self.count.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        filters.addWidget(self.count, 1)  # the spare width: one line where there is room
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        below = QHBoxLayout()
        below.addWidget(self.hidden, 1)
        below.addWidget(self.review_button)
        layout.addLayout(below)
        for combo in (self.state, self.category, self.reviewer, self.kind):
            combo.currentIndexChanged.connect(lambda _i: self.refresh())
        self._show_hidden({}, frozenset())
        self.refresh()

    def set_items(
        self,
        flags: Sequence[Flag],
        notes: Sequence[AttemptNote],
        *,
        has_store: bool,
        concerns: Sequence[ReviewVerdict] = (),
        hidden: tuple[Mapping[str, int], Set[str]] = ({}, frozenset()),
        states: Mapping[str, FinalState] | None = None,
    ) -> None:
        """List every flag, note and submitted concern of the store (``has_store``: False
        when there is none) the reviewer may see; ``hidden``: how many the policy hides
        on each question, and the blind questions among them; ``states``: the final state
        of each question the reviewer may see decided (the *Decision* column)."""
        self._flags, self._notes, self._has_store = list(flags), list(notes), has_store
        self._concerns = [v for v in concerns if v.concern]
        self._states = dict(states or {})
        self._show_hidden(*hidden)
        self.refresh()

    def _show_hidden(self, counts: Mapping[str, int], blind: Set[str]) -> None:
        """The line under the table: what the policy hides, where, why."""
        blinded = sorted(q for q in counts if q in blind)
        sealed = sorted(q for q in counts if q not in blind)
        parts = []
        if counts:
            from ai4hse_desk.review.visibility import HIDDEN_TEXT, SEALED_TEXT  # (it hid them)

            for ids, why in ((blinded, HIDDEN_TEXT), (sealed, SEALED_TEXT)):
                named = ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
                if ids:
                    parts.append(f"{sum(counts[q] for q in ids)} on {named}: {why}")
        self.hidden.setText(display_text("Hidden from you: " + " · ".join(parts)) if parts else "")
        self.hidden.setVisible(bool(parts))
        first = blinded[0] if blinded else ""
        self.review_button.setProperty("question", first)
        self.review_button.setText(f"Answer {display_text(first)} blind…".replace("&", "&&"))
        self.review_button.setVisible(bool(first))

    def refresh(self) -> None:
        """Show what the current filters let through."""
        flags, notes, concerns = self._flags, self._notes, self._concerns
        authors = {f.reviewer for f in flags} | {n.reviewer for n in notes}
        self._refresh_reviewers(authors | {v.reviewer for v in concerns})
        rows = note_rows(
            flags,
            notes,
            state=self.state.currentData(),
            category=self.category.currentData(),
            reviewer=self.reviewer.currentData(),
            kind=self.kind.currentData(),
            concerns=concerns,
            states=self._states,
        )
        self.model.set_rows(rows)
        what = "flags, notes and review concerns" if concerns else "flags and notes"
        total = len(flags) + len(notes) + len(concerns)
        self.count.setText(
            "No notes for this file yet"
            if not self._has_store
            else f"{len(rows):,} of {total:,} {what}"
        )

    def _refresh_reviewers(self, names: set[str]) -> None:
        chosen = self.reviewer.currentData()
        self.reviewer.blockSignals(True)
        self.reviewer.clear()
        self.reviewer.addItem("Any reviewer", None)
        for name in sorted(names | ({chosen} if chosen else set())):
            self.reviewer.addItem(display_text(name), name)
        self.reviewer.setCurrentIndex(max(0, self.reviewer.findData(chosen)))
        self.reviewer.blockSignals(False)
        _fit_list(self.reviewer)

    def row_texts(self) -> list[tuple[str, ...]]:
        """The table's cells, row by row, as shown."""
        return self.model.texts()

    def activate_row(self, row: int) -> None:
        """Jump to what ``row`` concerns (as a double-click does)."""
        found = self.model.note_row(row)
        if found is None:
            return
        if found.kind == "attempt_note" and found.attempt_id is not None:
            self.attempt_activated.emit(found.attempt_id)
        else:  # a flag or a review concern: its question
            self.question_activated.emit(found.question_id)


class NotesDock(QDockWidget):
    """The notes list in a dock; its content is read while it is shown.

    Signals:
        shown: the dock became visible (its list may be out of date).
    """

    shown = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Reviewer notes", parent)
        self.setObjectName("notes_dock")
        self.list = NotesList()
        self.setWidget(self.list)
        self.visibilityChanged.connect(self._visible)

    def _visible(self, visible: bool) -> None:
        if visible:
            self.shown.emit()
