"""The filters of the attempt list in a dock (movable, closable, never floating).

The dock is there from a window's first frame; its panel may come a moment later
(:meth:`FiltersDock.make_panel`: a starting window draws its list first). So that
nothing moves when it comes, the dock's width is not the panel's content width but
:data:`WIDTH_CHARS` average characters of its font, before and after.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QDockWidget, QVBoxLayout, QWidget

if TYPE_CHECKING:
    from ai4hse_desk.gui.panels.filters import FilterPanel

#: The dock's preferred width, in average characters of its font (at the usual fonts a
#: little wider than the panel needs: its buttons' row, its lists' longest run ids).
WIDTH_CHARS = 50


class _Holder(QWidget):
    """The dock's widget: empty, then the panel; the same preferred width throughout."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("filters_holder")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)

    def sizeHint(self) -> QSize:
        return QSize(
            WIDTH_CHARS * self.fontMetrics().averageCharWidth(), super().sizeHint().height()
        )


class FiltersDock(QDockWidget):
    """Holds the :class:`~ai4hse_desk.gui.panels.filters.FilterPanel` (``panel``, once
    :meth:`make_panel` has made it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Filters", parent)
        self.setObjectName("filters_dock")
        self._holder = _Holder()
        self._panel: FilterPanel | None = None
        self.setWidget(self._holder)
        self.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )

    @property
    def panel(self) -> FilterPanel:
        """The filter panel (:meth:`make_panel` makes it)."""
        if self._panel is None:
            raise RuntimeError("the filter panel is not made yet")
        return self._panel

    def make_panel(self) -> FilterPanel:
        """Make the filter panel (once) and show it in the dock."""
        if self._panel is None:
            from ai4hse_desk.gui.panels.filters import FilterPanel

            self._panel = FilterPanel()
            layout = self._holder.layout()
            if layout is not None:
                layout.addWidget(self._panel)
        return self._panel


__all__ = ["WIDTH_CHARS", "FiltersDock"]
