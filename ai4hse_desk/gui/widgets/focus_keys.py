"""Keyboard shortcuts that act while the focus is inside one widget (a page, a panel, a
dialog), so that two pages in one window can give the same keys different jobs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from PySide6.QtWidgets import QWidget


def focus_keys(
    widget: QWidget, keys: Sequence[tuple[str, Callable[[], object]]]
) -> list[QShortcut]:
    """Each ``(key sequence, action)``: the action runs on the key while the focus is in
    ``widget`` or one of its children. The shortcuts, in order (to enable or disable)."""
    made = []
    for sequence, act in keys:
        shortcut = QShortcut(QKeySequence(sequence), widget)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(act)
        made.append(shortcut)
    return made


__all__ = ["focus_keys"]
