"""The filters of the attempt list in a dock (movable, closable, never floating)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDockWidget

from ai4hse_desk.gui.panels.filters import FilterPanel

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget


class FiltersDock(QDockWidget):
    """Holds the :class:`~ai4hse_desk.gui.panels.filters.FilterPanel` (``panel``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Filters", parent)
        self.setObjectName("filters_dock")
        self.panel = FilterPanel()
        self.setWidget(self.panel)
        self.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )


__all__ = ["FiltersDock"]
