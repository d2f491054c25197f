"""Flags on the shown question and notes on the shown attempt, with their buttons.

A view only: the notes controller fills it and answers its signals (add, edit,
state changes, history). Every text is plain (table cells never interpret
HTML), with invisible and bidi characters made visible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QTableWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.note_text import format_time, one_line, option_text
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.widgets.item_table import fill_items, item_table, selected_id
from ai4hse_desk.gui.widgets.labels import plain_label, table_texts
from ai4hse_desk.notes.model import category_name

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.notes import AttemptNote, Flag


def _button(text: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setToolTip(tip)
    return button


class FlagsPanel(QWidget):
    """The flags of the current question and the notes of the current attempt."""

    add_flag_requested = Signal()
    edit_flag_requested = Signal(str)  # flag id
    flag_state_requested = Signal(str, str)  # flag id, new state
    add_note_requested = Signal()
    edit_note_requested = Signal(str)  # note id
    note_state_requested = Signal(str, str)  # note id, new state
    history_requested = Signal(str)  # flag or note id
    flags_shown = Signal(object, object)  # question id or None, its flags (every state)

    FLAG_COLUMNS = ("Category", "Option", "Severity", "State", "Reviewer", "Note")
    NOTE_COLUMNS = ("State", "Reviewer", "Updated", "Note")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Flags and notes")
        self._flags: dict[str, Flag] = {}
        self._notes: dict[str, AttemptNote] = {}
        self._writable = False
        self._question: str | None = None
        self._attempt: int | None = None

        self.store_line = plain_label(name="Notes store")
        self.flags_table = item_table("Flags on this question", self.FLAG_COLUMNS)
        self.add_flag_button = _button("Add flag…", "Flag this question's key or wording")
        self.edit_flag_button = _button("Edit…", "Change the selected flag")
        self.flag_state_button = _button("Resolve…", "Mark the selected flag resolved (asks why)")
        self.withdraw_flag_button = _button("Withdraw…", "Take the selected flag back (asks why)")
        self.flag_history_button = _button("History…", "Every change to the selected flag")
        self.notes_table = item_table("Notes on this attempt", self.NOTE_COLUMNS)
        self.add_note_button = _button(
            "Add note on this attempt…", "e.g. the extraction looks wrong"
        )
        self.edit_note_button = _button("Edit…", "Change the selected note")
        self.note_state_button = _button("Resolve…", "Mark the selected note resolved (asks why)")
        self.withdraw_note_button = _button("Withdraw…", "Take the selected note back (asks why)")
        self.note_history_button = _button("History…", "Every change to the selected note")

        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Flags on the question, notes on the attempt")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(
            self._page(
                self.flags_table,
                self.add_flag_button,
                self.edit_flag_button,
                self.flag_state_button,
                self.withdraw_flag_button,
                self.flag_history_button,
            ),
            "Flags",
        )
        self.tabs.addTab(
            self._page(
                self.notes_table,
                self.add_note_button,
                self.edit_note_button,
                self.note_state_button,
                self.withdraw_note_button,
                self.note_history_button,
            ),
            "Attempt notes",
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.store_line)
        self._connect()
        self.clear()

    @staticmethod
    def _page(table: QTableWidget, *buttons: QPushButton) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(table, 1)
        row = QHBoxLayout()
        row.setSpacing(4)
        for button in buttons:
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        return page

    def _connect(self) -> None:
        self.add_flag_button.clicked.connect(lambda: self.add_flag_requested.emit())
        self.edit_flag_button.clicked.connect(lambda: self._emit_flag(edit=True))
        self.flag_history_button.clicked.connect(lambda: self._emit_flag(edit=False))
        self.flag_state_button.clicked.connect(lambda: self._flag_state(toggle=True))
        self.withdraw_flag_button.clicked.connect(lambda: self._flag_state(toggle=False))
        self.flags_table.itemSelectionChanged.connect(self._update_buttons)
        self.flags_table.itemDoubleClicked.connect(lambda _item: self._emit_flag(edit=True))
        self.add_note_button.clicked.connect(lambda: self.add_note_requested.emit())
        self.edit_note_button.clicked.connect(lambda: self._emit_note(edit=True))
        self.note_history_button.clicked.connect(lambda: self._emit_note(edit=False))
        self.note_state_button.clicked.connect(lambda: self._note_state(toggle=True))
        self.withdraw_note_button.clicked.connect(lambda: self._note_state(toggle=False))
        self.notes_table.itemSelectionChanged.connect(self._update_buttons)
        self.notes_table.itemDoubleClicked.connect(lambda _item: self._emit_note(edit=True))

    # -- filling ----------------------------------------------------------------

    def set_store_line(self, text: str, *, writable: bool) -> None:
        """Where the notes live (or why there are none); ``writable`` enables changes."""
        self.store_line.setText(text)
        self._writable = writable
        self._update_buttons()

    def set_content(
        self,
        question_id: str | None,
        attempt_id: int | None,
        flags: Sequence[Flag],
        notes: Sequence[AttemptNote],
    ) -> None:
        """Show ``flags`` of ``question_id`` (every state) and ``notes`` of ``attempt_id``."""
        self._question, self._attempt = question_id, attempt_id
        self._flags = {flag.flag_id: flag for flag in flags}
        self._notes = {note.note_id: note for note in notes}
        if question_id is None:
            flags_title = "Flags"
        else:
            open_count = sum(flag.state == "open" for flag in flags)
            flags_title = f"Flags on {display_text(question_id)}: {len(flags)} ({open_count} open)"
        notes_title = (
            "Attempt notes"
            if attempt_id is None
            else f"Notes on attempt #{attempt_id}: {len(notes)}"
        )
        # Tab texts are plain, but "&" would make a keyboard mnemonic.
        self.tabs.setTabText(0, flags_title.replace("&", "&&"))
        self.tabs.setTabText(1, notes_title.replace("&", "&&"))
        flag_rows = [
            (
                flag.flag_id,
                (
                    category_name(flag.category),
                    option_text(flag.option),
                    flag.severity,
                    flag.state,
                    display_text(flag.reviewer),
                    one_line(flag.note),
                ),
                flag.state == "open",
            )
            for flag in flags
        ]
        note_rows = [
            (
                note.note_id,
                (
                    note.state,
                    display_text(note.reviewer),
                    format_time(note.updated_at),
                    one_line(note.note),
                ),
                note.state == "open",
            )
            for note in notes
        ]
        fill_items(self.flags_table, flag_rows)
        fill_items(self.notes_table, note_rows)
        self._update_buttons()
        self.flags_shown.emit(question_id, tuple(flags))

    def clear(self) -> None:
        """No question, no attempt, nothing listed."""
        self.set_content(None, None, (), ())

    # -- reading back (tests, the controller) -------------------------------------

    def selected_flag(self) -> Flag | None:
        flag_id = selected_id(self.flags_table)
        return None if flag_id is None else self._flags.get(flag_id)

    def selected_note(self) -> AttemptNote | None:
        note_id = selected_id(self.notes_table)
        return None if note_id is None else self._notes.get(note_id)

    def select_flag(self, flag_id: str) -> None:
        """Show the flags tab with ``flag_id`` selected."""
        ids = list(self._flags)
        if flag_id in ids:
            self.tabs.setCurrentIndex(0)
            self.flags_table.selectRow(ids.index(flag_id))

    def select_note(self, note_id: str) -> None:
        """Show the attempt notes tab with ``note_id`` selected."""
        ids = list(self._notes)
        if note_id in ids:
            self.tabs.setCurrentIndex(1)
            self.notes_table.selectRow(ids.index(note_id))

    def tab_titles(self) -> tuple[str, str]:
        """The two tab titles as shown (flags, attempt notes)."""
        return (
            self.tabs.tabText(0).replace("&&", "&"),
            self.tabs.tabText(1).replace("&&", "&"),
        )

    def flag_rows(self) -> list[tuple[str, ...]]:
        return table_texts(self.flags_table)

    def note_rows(self) -> list[tuple[str, ...]]:
        return table_texts(self.notes_table)

    # -- buttons ------------------------------------------------------------------

    def _emit_flag(self, *, edit: bool) -> None:
        flag = self.selected_flag()
        if flag is None:
            return
        if not edit:
            self.history_requested.emit(flag.flag_id)
        elif self._writable:
            self.edit_flag_requested.emit(flag.flag_id)

    def _emit_note(self, *, edit: bool) -> None:
        note = self.selected_note()
        if note is None:
            return
        if not edit:
            self.history_requested.emit(note.note_id)
        elif self._writable:
            self.edit_note_requested.emit(note.note_id)

    def _flag_state(self, *, toggle: bool) -> None:
        flag = self.selected_flag()
        if flag is not None and self._writable:
            state = ("resolved" if flag.state == "open" else "open") if toggle else "withdrawn"
            self.flag_state_requested.emit(flag.flag_id, state)

    def _note_state(self, *, toggle: bool) -> None:
        note = self.selected_note()
        if note is not None and self._writable:
            state = ("resolved" if note.state == "open" else "open") if toggle else "withdrawn"
            self.note_state_requested.emit(note.note_id, state)

    def _update_buttons(self) -> None:
        writable = self._writable
        flag, note = self.selected_flag(), self.selected_note()
        self.add_flag_button.setEnabled(writable and self._question is not None)
        self.add_note_button.setEnabled(writable and self._attempt is not None)
        for item, edit, state, withdraw, history in (
            (
                flag,
                self.edit_flag_button,
                self.flag_state_button,
                self.withdraw_flag_button,
                self.flag_history_button,
            ),
            (
                note,
                self.edit_note_button,
                self.note_state_button,
                self.withdraw_note_button,
                self.note_history_button,
            ),
        ):
            is_open = item is not None and item.state == "open"
            edit.setEnabled(writable and item is not None)
            state.setEnabled(writable and item is not None)
            state.setText("Resolve…" if item is None or is_open else "Reopen")
            withdraw.setEnabled(writable and is_open)
            history.setEnabled(item is not None)
