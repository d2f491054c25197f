"""The selected attempt's panes, arranged by the width they get.

The rule: the question column (question over flags), the response and the verdict stand
side by side while the detail is at least :meth:`DetailPanes.side_by_side_width` wide: the
question column's minimum (the flags panel's buttons and the options table, about 525 px)
plus :data:`PANE_WIDTH` for each of the response and the verdict. Narrower, the verdict
moves under the response, and gets the height its status, banner and *Runner vs desk* need
(the response keeps :data:`RESPONSE_LINES` lines). At default fonts the switch is at about
1,255 px of detail width: a 1600×1000 window (1,296 px beside the filters dock) is side by
side; the default 1500×950 and 1366×768 (1,196 and 1,062 px) are stacked.

Stacked rather than tabs: a reviewer reads the response against the verdict and the key at
once; tabs would hide two of the three, and the DISAGREEMENT banner with them. Every pane
wraps or elides its text, so at these widths none scrolls sideways. Until the reviewer moves
a splitter the widths follow the rule and the free width is shared; moved, each
arrangement's sizes are kept (and persist) apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtWidgets import QSplitter

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent

    from ai4hse_desk.gui.panels.flags import FlagsPanel
    from ai4hse_desk.gui.panels.question import QuestionPanel
    from ai4hse_desk.gui.panels.response import ResponseView
    from ai4hse_desk.gui.panels.verdict import VerdictPanel

#: Width the response and the verdict each need beside the question column.
PANE_WIDTH = 360
#: Lines of the response kept in view when the verdict, stacked under it, takes height.
RESPONSE_LINES = 6
#: Settings keys of the two arrangements' splitter states (as the reviewer left them).
SIDE_BY_SIDE, STACKED = "detail_side_by_side", "detail_stacked"


class DetailPanes(QSplitter):
    """Question column | response | verdict, or question column | response over verdict."""

    def __init__(
        self,
        question: QuestionPanel,
        flags: FlagsPanel,
        response: ResponseView,
        verdict: VerdictPanel,
    ) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setObjectName("detail_splitter")
        self._question, self._flags, self._response, self._verdict = (
            question, flags, response, verdict,
        )  # fmt: skip
        self.question_column = QSplitter(Qt.Orientation.Vertical)
        self.question_column.setObjectName("question_column")
        self.question_column.addWidget(question)
        self.question_column.addWidget(flags)
        self.question_column.setStretchFactor(0, 3)
        self.question_column.setStretchFactor(1, 2)
        self.question_column.splitterMoved.connect(self._question_arranged)
        # The response, and the verdict under it while the detail is narrow.
        self.response_column = QSplitter(Qt.Orientation.Vertical)
        self.response_column.setObjectName("response_column")
        self.response_column.addWidget(response)
        self.response_column.splitterMoved.connect(self._response_arranged)
        for widget in (self.question_column, self.response_column, verdict):
            self.addWidget(widget)
        self.splitterMoved.connect(self._arranged)
        # Heights are fitted again once a resize or a new attempt is laid out (a splitter
        # lays out after an event filter sees its resize, labels after their new text).
        self._fit_soon = QTimer(self)
        self._fit_soon.setSingleShot(True)
        self._fit_soon.setInterval(0)
        self._fit_soon.timeout.connect(self._fit_heights)
        for column in (self.question_column, self.response_column):
            column.installEventFilter(self)
        self._fit_question = True
        self._fit_verdict = True
        self._stacked: bool | None = None  # not arranged yet
        self._states: dict[str, QByteArray] = {}  # arrangements the reviewer changed

    # -- the rule -------------------------------------------------------------------------

    def is_stacked(self) -> bool:
        """Whether the verdict is under the response."""
        return bool(self._stacked)

    def side_by_side_width(self) -> int:
        """The width from which the three panes stand side by side."""
        handles = 2 * self.handleWidth()
        return self.question_column.minimumSizeHint().width() + 2 * PANE_WIDTH + handles

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and (self._fit_question or self._fit_verdict):
            self._fit_soon.start()
        return super().eventFilter(watched, event)

    def _arrange(self) -> None:
        width = self.width()
        stacked = width < self.side_by_side_width()
        key = STACKED if stacked else SIDE_BY_SIDE
        if stacked == self._stacked:
            if key not in self._states:  # not arranged by the reviewer: by the rule
                self.setSizes(self._default_widths(width, stacked))
            return
        self._stacked = stacked
        if stacked:
            self.response_column.addWidget(self._verdict)
        else:
            self.addWidget(self._verdict)
        state = self._states.get(key)
        if state is None or not self.restoreState(state):
            self.setSizes(self._default_widths(width, stacked))
        for index in range(self.count()):
            self.setStretchFactor(index, 1)  # free width goes to every pane
        if stacked:
            column = self._states.get(self.response_column.objectName())
            if column is None or not self.response_column.restoreState(column):
                height = self.response_column.height()
                self.response_column.setSizes([height * 45 // 100, height * 55 // 100])
            self._fit_soon.start()

    def _default_widths(self, width: int, stacked: bool) -> list[int]:
        """The question column a third (stacked: half), at least its minimum; the rest
        shared evenly."""
        least = self.question_column.minimumSizeHint().width()
        free = width - (self.count() - 1) * self.handleWidth()
        question = max(least, free // 2 if stacked else free // 3)
        if stacked:
            return [question, free - question]
        response = (free - question) // 2
        return [question, response, free - question - response]

    # -- heights --------------------------------------------------------------------------

    def keep_readable(self) -> None:
        """Give the question the height its options need, from the flags panel's spare,
        and, stacked, the verdict the height its key part needs, from the response's
        (each until the reviewer moves that splitter); again once laid out."""
        self._fit_heights()
        self._fit_soon.start()

    def _fit_heights(self) -> None:
        self._keep_verdict_readable()
        self._keep_question_readable()

    def _keep_question_readable(self) -> None:
        column = self.question_column
        sizes = column.sizes()
        if not self._fit_question or len(sizes) != 2 or not column.isVisible():
            return
        need = self._question.sizeHint().height()
        spare = sizes[1] - self._flags.minimumSizeHint().height()
        give = min(need - sizes[0], spare)
        if give > 0:
            column.setSizes([sizes[0] + give, sizes[1] - give])

    def _keep_verdict_readable(self) -> None:
        column = self.response_column
        sizes = column.sizes()
        if not self._fit_verdict or not self._stacked or len(sizes) != 2:
            return
        keep = self._response.height_for_lines(RESPONSE_LINES)
        verdict = self._verdict
        need = verdict.key_height() + verdict.height() - verdict.viewport().height()
        give = min(need - sizes[1], sizes[0] - keep)
        if give > 0:
            column.setSizes([sizes[0] - give, sizes[1] + give])

    # -- the reviewer's arrangement -------------------------------------------------------

    def _question_arranged(self, _pos: int, _index: int) -> None:
        self._fit_question = False

    def _arranged(self, _pos: int, _index: int) -> None:
        self._states[STACKED if self._stacked else SIDE_BY_SIDE] = self.saveState()

    def _response_arranged(self, _pos: int, _index: int) -> None:
        self._fit_verdict = False
        self._states[self.response_column.objectName()] = self.response_column.saveState()

    def restore_layout(self, settings: QSettings) -> None:
        """The sizes the reviewer left, per arrangement."""
        state = settings.value(self.question_column.objectName())
        if isinstance(state, QByteArray):
            self.question_column.restoreState(state)
        # Fit the question above the flags until the reviewer arranges the column.
        self._fit_question = not isinstance(state, QByteArray)
        for key in (SIDE_BY_SIDE, STACKED, self.response_column.objectName()):
            state = settings.value(key)
            if isinstance(state, QByteArray):
                self._states[key] = state
        self._fit_verdict = self.response_column.objectName() not in self._states

    def save_layout(self, settings: QSettings) -> None:
        """Keep every arrangement the reviewer changed, for the next start."""
        if not self._fit_question:
            column = self.question_column
            settings.setValue(column.objectName(), column.saveState())
        key = STACKED if self._stacked else SIDE_BY_SIDE
        if self._stacked is not None and key in self._states:
            self._states[key] = self.saveState()
        for name, state in self._states.items():
            settings.setValue(name, state)


__all__ = ["PANE_WIDTH", "RESPONSE_LINES", "DetailPanes"]
