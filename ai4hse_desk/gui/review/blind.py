"""The blind answer: the question's text and options, each answered TRUE, FALSE or unsure.

Built from a :class:`~ai4hse_desk.gui.review.reads.BlindQuestion`, which
holds no key. Every option starts *unanswered* (no button checked), so that an
early Enter cannot record an answer nobody gave: :meth:`missing` names the options
still to answer. :meth:`toggle` sets option *n* TRUE, then flips it between TRUE
and FALSE (keys 1–9) and makes it the *current* option; :meth:`set_unsure` marks
the current option unsure (key 0). A click on an option's button makes that option
current too. Once the answer is recorded the buttons are locked and show it.

The option rows are made once and kept (:class:`_OptionRow`): a question with fewer
options hides the rows it does not use. (Rows taken out of a grid layout leave their
row behind: re-adding a question's rows below them made the grid grow by one row per
option with every question shown.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QButtonGroup, QGridLayout, QLabel, QRadioButton, QVBoxLayout, QWidget

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.widgets.labels import WrappingLabel, plain_label
from ai4hse_desk.review.values import FALSE, TRUE, UNSURE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.gui.review.reads import BlindQuestion

#: The three answers, in the order of the buttons, and what each button reads.
CHOICES = ((TRUE, "TRUE"), (FALSE, "FALSE"), (UNSURE, "unsure"))
CURRENT_MARK = "▸"
#: How the blind answer is given, as the page says it.
BLIND_HINT = (
    "Answer before you see the key: every option starts unanswered; keys 1–9 set option n "
    "TRUE, again FALSE; 0 marks the option set last (▸) unsure; Enter records your answer "
    "once every option is answered. Skip blind gives the blind answer up for good."
)


def unanswered_text(letters: Sequence[str]) -> str:
    """Why an early Enter records nothing: the options still to answer."""
    which = f"option {letters[0]} is" if len(letters) == 1 else f"options {', '.join(letters)} are"
    return (
        f"Nothing recorded: {which} not answered yet. Set each option TRUE or FALSE "
        "(keys 1–9, or click) or mark it unsure (0), then press Enter."
    )


class _OptionRow:
    """One option's row of the grid, made once: the current mark, its key and letter, its
    text and its three buttons (one exclusive group)."""

    def __init__(self, panel: BlindAnswerPanel, grid: QGridLayout, position: int) -> None:
        key = f"{position + 1}" if position < 9 else ""
        letter = option_letter(position)
        self.mark = QLabel()
        self.mark.setTextFormat(Qt.TextFormat.PlainText)
        number = plain_label(f"{key}  {letter}", wrap=False)
        number.setToolTip(f"Key {key} toggles this option" if key else "Click to answer")
        self.text = WrappingLabel("", name=f"Option {letter}")
        self.group = QButtonGroup(panel)
        self.group.setExclusive(True)
        self.widgets: list[QWidget] = [self.mark, number, self.text]
        for offset, (value, shown) in enumerate(CHOICES):
            button = QRadioButton(shown)
            button.setAccessibleName(f"Option {letter}: {shown}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys belong to the panel
            button.setProperty("answer", value)
            self.group.addButton(button, offset)
            self.widgets.append(button)
        for column, widget in enumerate(self.widgets):
            grid.addWidget(widget, position, column)
        self.group.idClicked.connect(lambda _id: panel.clicked(position))

    def set_visible(self, visible: bool) -> None:
        for widget in self.widgets:
            widget.setVisible(visible)


class BlindAnswerPanel(QWidget):
    """The question and one TRUE / FALSE / unsure choice per option.

    Signals:
        changed: the answer changed (a key or a click).
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Question and your blind answer")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.text = WrappingLabel(name="Question text")
        larger = QFont(self.text.font())
        larger.setPointSizeF(larger.pointSizeF() * 1.15)
        self.text.setFont(larger)
        self._grid_holder = QWidget()
        self._grid = QGridLayout(self._grid_holder)
        self._grid.setContentsMargins(0, 4, 0, 4)
        self._grid.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.text)
        layout.addWidget(self._grid_holder)
        self._rows: list[_OptionRow] = []  # every row made so far, the first shown ones used
        self._groups: list[QButtonGroup] = []  # the shown options' groups
        self._current = 0
        self._locked = False

    # -- content ------------------------------------------------------------------

    def set_question(self, question: BlindQuestion) -> None:
        """Show ``question`` with every option unanswered, option 1 current, unlocked."""
        self.text.setText(display_text(question.text))
        while len(self._rows) < len(question.options):
            self._rows.append(_OptionRow(self, self._grid, len(self._rows)))
        for position, row in enumerate(self._rows):
            if position < len(question.options):
                row.text.setText(display_text(question.options[position]))
            row.set_visible(position < len(question.options))
        self._groups = [row.group for row in self._rows[: len(question.options)]]
        self._current = 0
        self._locked = False
        self.set_answer(None, locked=False)

    @property
    def option_texts(self) -> list[WrappingLabel]:
        """The shown options' text labels, in order."""
        return [row.text for row in self._rows[: self.option_count]]

    def clicked(self, position: int) -> None:
        """A click on one of option ``position``'s buttons: it becomes the current option."""
        self.setFocus()  # the keys follow a click, wherever the focus was
        self._current = position
        self._show_current()
        self.changed.emit()

    # -- the answer ---------------------------------------------------------------

    @property
    def option_count(self) -> int:
        return len(self._groups)

    @property
    def current(self) -> int:
        """The option key 0 marks unsure (the last one toggled or clicked)."""
        return self._current

    def value(self, position: int) -> str | None:
        """Option ``position``'s answer (``None``: none chosen, a not-blind record)."""
        button = self._groups[position].checkedButton()
        return None if button is None else str(button.property("answer"))

    def answer(self) -> tuple[str | None, ...]:
        """The answer, one TRUE / FALSE / UNSURE per option (``None``: not answered yet)."""
        return tuple(self.value(p) for p in range(self.option_count))

    def missing(self) -> list[str]:
        """The letters of the options not answered yet (none: the answer can be recorded)."""
        return [option_letter(p) for p in range(self.option_count) if self.value(p) is None]

    def toggle(self, position: int) -> bool:
        """Keys 1–9: option ``position`` TRUE, then TRUE ↔ FALSE (unanswered or unsure
        becomes TRUE); False if there is no such option."""
        if self._locked or not 0 <= position < self.option_count:
            return False
        self._set(position, FALSE if self.value(position) == TRUE else TRUE)
        return True

    def set_unsure(self) -> bool:
        """Key 0: the current option unsure."""
        if self._locked or not self.option_count:
            return False
        self._set(self._current, UNSURE)
        return True

    def _set(self, position: int, value: str) -> None:
        self._check(position, value)
        self._current = position
        self._show_current()
        self.changed.emit()

    def _check(self, position: int, value: str | None) -> None:
        group = self._groups[position]
        if value is None:
            group.setExclusive(False)  # lets every button of the group be unchecked
            for button in group.buttons():
                button.setChecked(False)
            group.setExclusive(True)
            return
        offset = [v for v, _shown in CHOICES].index(value)
        button = group.button(offset)
        if button is not None:
            button.setChecked(True)

    def set_answer(self, answer: Sequence[str] | None, *, locked: bool) -> None:
        """Show ``answer`` (``None``: recorded as not blind, nothing ticked); ``locked``
        once it is recorded."""
        for position in range(self.option_count):
            self._check(position, None if answer is None else answer[position])
            for button in self._groups[position].buttons():
                button.setEnabled(not locked)
        self._locked = locked
        self._show_current()

    def _show_current(self) -> None:
        for position, row in enumerate(self._rows):
            shown = position == self._current and not self._locked and position < self.option_count
            row.mark.setText(CURRENT_MARK if shown else "")


__all__ = ["BLIND_HINT", "CHOICES", "BlindAnswerPanel", "unanswered_text"]
