"""Small helpers for styling widgets cheaply."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget


def set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Set a style sheet only when it changes (each set re-polishes and relayouts)."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)
