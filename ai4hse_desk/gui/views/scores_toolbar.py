"""The scores dashboard's toolbar, declared once: exports, the report's privacy, copy, recompute."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from PySide6.QtWidgets import QToolBar, QWidget

#: (key, text, toolbar text, shortcut) of each toolbar action, in order; "private" is a
#: toggle. Menus show the text; the toolbar the shorter one (the text as its tooltip), so
#: that every button fits at 1366×768.
ENTRIES: tuple[tuple[str, str, str, QKeySequence.StandardKey | None], ...] = (
    ("csv", "Export tables as CSV…", "Tables as CSV…", None),
    ("xlsx", "Export tables as XLSX…", "Tables as XLSX…", None),
    ("png", "Export plot as PNG…", "Plot as PNG…", None),
    ("svg", "Export plot as SVG…", "Plot as SVG…", None),
    ("html", "Export HTML report…", "HTML report…", None),
    ("private", "Include question text in the report", "Question text in report", None),
    ("copy", "Copy exact value", "Copy exact value", QKeySequence.StandardKey.Copy),
    ("recompute", "Compute again", "Compute again", None),
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
    for key, text, short, shortcut in ENTRIES:
        action = QAction(text, view)
        action.setIconText(short)
        action.setToolTip(text)
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
