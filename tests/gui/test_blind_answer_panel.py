"""The blind answer panel shown question after question, as a reviewer works down a queue.

Its option rows are made once and reused: the panel must not grow with every question it
has shown (each row re-added below the old ones left the grid one row longer per option;
the panel alone took about 50 ms to show its 100th question against 6 ms for its first),
and a reused row must behave as a new one: unanswered, clickable, named for its option.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QRadioButton

from ai4hse_desk.gui.review.blind import BlindAnswerPanel
from ai4hse_desk.gui.review.reads import BlindQuestion
from ai4hse_desk.review.values import FALSE, TRUE, UNSURE

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot


def _question(number: int, options: int) -> BlindQuestion:
    texts = tuple(f"Q{number} option {chr(65 + p)}" for p in range(options))
    return BlindQuestion(f"Q{number:03d}", f"Question {number}?", texts)


def _panel(qtbot: QtBot) -> BlindAnswerPanel:
    panel = BlindAnswerPanel()
    qtbot.addWidget(panel)
    panel.resize(700, 400)
    panel.show()
    return panel


def _shown_buttons(panel: BlindAnswerPanel) -> list[str]:
    return [b.accessibleName() for b in panel.findChildren(QRadioButton) if b.isVisibleTo(panel)]


def test_a_long_queue_keeps_the_grid_to_the_largest_questions_rows(qtbot: QtBot) -> None:
    panel = _panel(qtbot)
    for number in range(1, 301):
        panel.set_question(_question(number, 9 if number == 150 else 4 + number % 2))
    grid = panel.findChild(QGridLayout)
    assert grid is not None
    assert grid.rowCount() == 9  # the 9-option question's rows, not one row per option shown
    assert len(panel.findChildren(QRadioButton)) == 9 * 3
    assert panel.option_count == 4  # question 300 has four options
    assert _shown_buttons(panel) == [
        f"Option {letter}: {shown}" for letter in "ABCD" for shown in ("TRUE", "FALSE", "unsure")
    ]


def test_a_question_with_fewer_options_shows_and_takes_only_its_own(qtbot: QtBot) -> None:
    panel = _panel(qtbot)
    panel.set_question(_question(1, 5))
    panel.set_question(_question(2, 3))
    assert panel.answer() == (None, None, None)
    assert panel.missing() == ["A", "B", "C"]
    assert not panel.toggle(3)  # key 4: there is no option D now
    assert panel.toggle(2)
    assert panel.answer() == (None, None, TRUE)
    shown = [label.text() for label in panel.findChildren(type(panel.text)) if label.isVisible()]
    assert shown == ["Question 2?", "Q2 option A", "Q2 option B", "Q2 option C"]


def test_a_reused_row_starts_unanswered_unlocked_and_answers_a_click(qtbot: QtBot) -> None:
    panel = _panel(qtbot)
    panel.set_question(_question(1, 4))
    for position in range(4):
        panel.toggle(position)
    panel.set_unsure()
    assert panel.answer() == (TRUE, TRUE, TRUE, UNSURE)
    panel.set_answer((TRUE, TRUE, TRUE, UNSURE), locked=True)  # recorded: shown, locked
    panel.set_question(_question(2, 4))
    assert panel.answer() == (None, None, None, None)
    assert panel.current == 0
    buttons = panel.findChildren(QRadioButton)
    false_c = next(b for b in buttons if b.accessibleName() == "Option C: FALSE")
    assert false_c.isEnabled()
    with qtbot.waitSignal(panel.changed):
        qtbot.mouseClick(false_c, Qt.MouseButton.LeftButton)
    assert panel.answer() == (None, None, FALSE, None)
    assert panel.current == 2  # key 0 now marks option C unsure
    assert panel.set_unsure()
    assert panel.value(2) == UNSURE
