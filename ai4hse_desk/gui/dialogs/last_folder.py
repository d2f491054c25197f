"""Every save dialog of the window starts in the folder the last file was saved to.

One helper for the review report, the notes exports and the scores exports: the
folder is kept in the settings (``last_folder``), so it is remembered across
starts; a folder that no longer exists is forgotten (the dialog starts where Qt
starts it). Tests replace ``QFileDialog.getSaveFileName``, which this calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from PySide6.QtWidgets import QFileDialog

from ai4hse_desk.gui.settings import app_settings

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

SETTINGS_KEY: Final = "last_folder"


def last_folder() -> Path | None:
    """The folder the last file was saved to, if it still exists."""
    value = app_settings().value(SETTINGS_KEY)
    if isinstance(value, str) and value and Path(value).is_dir():
        return Path(value)
    return None


def ask_save_file(
    parent: QWidget | None, caption: str, suggested: str, filters: str
) -> tuple[str, str]:
    """``QFileDialog.getSaveFileName`` starting at ``suggested`` in the last folder; the
    chosen file's folder is remembered. Returns (path or "", the filter chosen)."""
    folder = last_folder()
    start = suggested if folder is None else str(folder / suggested)
    path, chosen = QFileDialog.getSaveFileName(parent, caption, start, filters)
    if path:
        settings = app_settings()
        settings.setValue(SETTINGS_KEY, str(Path(path).parent))
        settings.sync()
    return path, chosen


__all__ = ["SETTINGS_KEY", "ask_save_file", "last_folder"]
