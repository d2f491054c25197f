"""File ▸ Open recent: one entry per remembered file, newest first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.gui.plain_text import menu_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from PySide6.QtWidgets import QMenu


def fill_recent_menu(menu: QMenu, files: Sequence[str], open_file: Callable[[str], object]) -> None:
    """Replace ``menu``'s entries by ``files`` (disabled when there are none)."""
    menu.clear()
    for path in files:
        action = menu.addAction(menu_text(path))
        action.triggered.connect(lambda _checked=False, chosen=path: open_file(chosen))
    menu.setEnabled(bool(files))


__all__ = ["fill_recent_menu"]
