"""The verdict on the selected attempt: the desk's status, any disagreement with
the runner's recorded verdict, the attempt's facts and its run's settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.status_style import (
    BANNER_BORDER,
    DIFFERS_COLOURS,
    DISAGREEMENT_COLOURS,
    chip_style_sheet,
    outcome_label,
)
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.palette_mode import status_colours_now
from ai4hse_desk.gui.widgets.label_grid import LabelGrid, bold
from ai4hse_desk.gui.widgets.labels import WrappingLabel, plain_label, set_style_sheet

if TYPE_CHECKING:
    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail

#: Shown while no attempt is selected.
NO_SELECTION = "No attempt selected"
#: First line of the disagreement banner.
DISAGREEMENT_TITLE = "DISAGREEMENT — the runner's recorded verdict differs from the desk's"
#: Marks a runner-vs-desk row that differs (colour is never the only signal).
DIFFERS_MARK = "≠"


class VerdictPanel(QWidget):
    """Desk status chip and reason; the disagreement banner (only when the
    runner's recorded verdict differs); runner vs desk field by field; the
    attempt's facts and the run's settings. Scrolls when taller than its room, never
    sideways: its text wraps (inside long words too) and long ids elide, so its minimum
    width is small and the splitter holding it keeps it at least that wide."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Verdict and attempt facts")
        self._placeholder = plain_label(name="No attempt selected")
        self._placeholder.setText(NO_SELECTION)
        self._chip = bold(plain_label(name="Desk status", wrap=False))
        self._chip.setObjectName("statusChip")
        self._chip.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        self._reason = WrappingLabel(name="Desk status reason")
        self._banner, self._differences = self._make_banner()
        self._comparison = LabelGrid(
            "Runner and desk verdicts", 4, ("Field", "Runner", "Desk", ""), stretch=(1, 2)
        )
        self._facts = LabelGrid("Attempt facts", 2)
        self._settings = LabelGrid("Run settings", 2)

        status_row = QHBoxLayout()
        status_row.addWidget(self._chip, 0, Qt.AlignmentFlag.AlignTop)
        status_row.addWidget(self._reason, 1)
        self._groups: list[QGroupBox] = []
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.setContentsMargins(6, 6, 6, 6)  # compact: stacked, it shares the height
        layout.setSpacing(4)
        layout.addWidget(self._placeholder)
        layout.addLayout(status_row)
        layout.addWidget(self._banner)
        for title, grid in (
            ("Runner vs desk", self._comparison),
            ("Attempt", self._facts),
            ("Run settings", self._settings),
        ):
            group = QGroupBox(title)
            QVBoxLayout(group).addWidget(grid)
            layout.addWidget(group)
            self._groups.append(group)
        layout.addStretch(1)
        self._content, self._content_layout = content, layout

        self._scroll = scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(content)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self.clear()

    def _make_banner(self) -> tuple[QFrame, QLabel]:
        banner = QFrame()
        banner.setObjectName("disagreementBanner")
        banner.setAccessibleName("Disagreement")
        background, foreground = DISAGREEMENT_COLOURS
        banner.setStyleSheet(
            f"QFrame#disagreementBanner {{ background-color: {background}; "
            f"border: 2px solid {BANNER_BORDER}; border-radius: 4px; }} "
            f"QFrame#disagreementBanner QLabel {{ color: {foreground}; "
            "background: transparent; border: none; }"
        )
        title = bold(plain_label(name="Disagreement"))
        title.setText(DISAGREEMENT_TITLE)
        differences = WrappingLabel(name="Differences between runner and desk")
        layout = QVBoxLayout(banner)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.setSpacing(2)
        layout.addWidget(title)
        layout.addWidget(differences)
        return banner, differences

    #: Widest size hint: more room goes to the other panes.
    MAX_HINT_WIDTH = 480
    #: The content's minimum width, measured once per shown attempt (see minimumSizeHint).
    _content_width: int | None = None

    def minimumSizeHint(self) -> QSize:
        """As wide as the content's narrowest layout, so it never scrolls sideways.

        Measured once per shown attempt: layouts ask for this hint many times per
        repaint, and measuring means laying out every label.
        """
        hint = super().minimumSizeHint()
        if self._content_width is None:
            self._content_width = self._content.minimumSizeHint().width()
        width = self._content_width
        width += self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return QSize(max(hint.width(), width), hint.height())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        width = max(self.minimumSizeHint().width(), min(hint.width(), self.MAX_HINT_WIDTH))
        return QSize(width, hint.height())

    def viewport(self) -> QWidget:
        """The scroll area's viewport: what of the content is in view."""
        return self._scroll.viewport()

    def key_height(self, width: int | None = None) -> int:
        """The height that shows the status, the banner and *Runner vs desk* whole, at
        ``width`` (default: the viewport's); the facts and settings below may scroll."""
        layout = self._content_layout
        margins = layout.contentsMargins()
        inner = (self.viewport().width() if width is None else width) - margins.left()
        inner -= margins.right()
        heights = []
        for index in range(layout.count()):
            item = layout.itemAt(index)
            if item is None or item.isEmpty():
                continue
            if item.hasHeightForWidth():
                heights.append(item.heightForWidth(inner))
            else:
                heights.append(item.sizeHint().height())
            if item.widget() is self._groups[0]:
                break
        spacing = layout.spacing() * (len(heights) - 1)
        return margins.top() + sum(heights) + spacing + margins.bottom()

    # ----------------------------------------------------------------- public

    def set_detail(self, detail: AttemptDetail) -> None:
        """Show the verdict, facts and settings of ``detail``."""
        self._content_width = None
        status = detail.status
        self._placeholder.setVisible(False)
        self._chip.setText(outcome_label(status, detail.correct))
        chip = chip_style_sheet(*status_colours_now(status, detail.correct))
        set_style_sheet(self._chip, chip)
        self._chip.setAccessibleDescription(f"Desk status: {status.value}")
        self._chip.setVisible(True)
        self._reason.setText(display_text(detail.outcome.reason))
        self._reason.setVisible(True)
        self._differences.setText("\n".join(f"• {line}" for line in detail.differences))
        self._banner.setVisible(detail.disagrees)
        rows = self._comparison.set_rows(
            [
                (row.field, row.runner, row.desk, DIFFERS_MARK if row.differs else "")
                for row in detail.comparison_rows
            ]
        )
        highlight = chip_style_sheet(*DIFFERS_COLOURS)
        for labels, row in zip(rows, detail.comparison_rows, strict=True):
            for label in labels[1:]:
                set_style_sheet(label, highlight if row.differs else "")
        self._facts.set_rows(detail.facts)
        self._settings.set_rows(detail.settings)
        for group in self._groups:
            group.setVisible(True)
        self.updateGeometry()  # a new minimum width

    def clear(self) -> None:
        """Show only the "no attempt selected" placeholder."""
        self._content_width = None
        self._placeholder.setVisible(True)
        for label in (self._chip, self._reason):
            label.setText("")
            label.setVisible(False)
        self._differences.setText("")
        self._chip.setStyleSheet("")
        self._chip.setAccessibleDescription("")
        self._banner.setVisible(False)
        for grid in (self._comparison, self._facts, self._settings):
            grid.set_rows([])
        for group in self._groups:
            group.setVisible(False)

    def status_text(self) -> str:
        return self._chip.text()

    def reason_text(self) -> str:
        return self._reason.text()

    def banner(self) -> QFrame:
        """The disagreement banner (visible only when runner and desk differ)."""
        return self._banner

    def differences_text(self) -> str:
        return self._differences.text()

    def comparison_texts(self) -> list[tuple[str, ...]]:
        """(field, runner, desk, ≠ mark) per runner-vs-desk row."""
        return self._comparison.texts()

    def fact_texts(self) -> list[tuple[str, str]]:
        """(name, value) per attempt fact shown."""
        return [(name, value) for name, value in self._facts.texts()]

    def setting_texts(self) -> list[tuple[str, str]]:
        """(name, value) per run setting shown."""
        return [(name, value) for name, value in self._settings.texts()]
