"""The scores dashboard's toolbar, declared once: exports, the report's privacy, copy, recompute."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from PySide6.QtWidgets import QToolBar, QWidget

#: (key, text, shortcut) of each toolbar action, in order; "private" is a toggle.
ENTRIES: tuple[tuple[str, str, QKeySequence.StandardKey | None], ...] = (
    ("csv", "Export tables as CSV…", None),
    ("xlsx", "Export tables as XLSX…", None),
    ("png", "Export plot as PNG…", None),
    ("svg", "Export plot as SVG…", None),
    ("html", "Export HTML report…", None),
    ("private", "Include question text in the report", None),
    ("copy", "Copy exact value", QKeySequence.StandardKey.Copy),
    ("recompute", "Compute again", None),
)
#: The actions that need scores to act on.
NEEDS_SCORES = ("csv", "xlsx", "png", "svg", "html", "copy", "recompute")


def scores_actions(
    view: QWidget, toolbar: QToolBar, handlers: Mapping[str, Callable[[], object]]
) -> dict[str, QAction]:
    """Make the toolbar's actions (a handler for each key but "private"), by key.

    A shortcut acts only while the focus is in ``view``, never in the attempt views.
    """
    actions: dict[str, QAction] = {}
    for key, text, shortcut in ENTRIES:
        action = QAction(text, view)
        if key == "private":
            action.setCheckable(True)
            toolbar.addAction(action)
            toolbar.addSeparator()
        else:
            action.triggered.connect(handlers[key])
            view.addAction(action)
            toolbar.addAction(action)
        if shortcut is not None:
            action.setShortcut(shortcut)
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        actions[key] = action
    return actions


__all__ = ["ENTRIES", "NEEDS_SCORES", "scores_actions"]
