"""The window's persistent settings (QSettings), isolated in tests.

Set ``AI4HSE_DESK_CONFIG_DIR`` to keep settings in an INI file in that folder
(the tests do); otherwise Qt's native per-user store is used.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

CONFIG_ENV = "AI4HSE_DESK_CONFIG_DIR"
ORGANISATION = "AI for HSE"
APPLICATION = "AI4HSE Desk"
MAX_RECENT = 8


def app_settings() -> QSettings:
    """The settings store of the desk."""
    folder = os.environ.get(CONFIG_ENV)
    if folder:
        return QSettings(str(Path(folder) / "ai4hse-desk.ini"), QSettings.Format.IniFormat)
    return QSettings(ORGANISATION, APPLICATION)


def recent_files(settings: QSettings) -> list[str]:
    """Recently opened audit files, newest first."""
    value = settings.value("recent_files", [])
    if isinstance(value, str):  # an INI file keeps a one-item list as a string
        value = [value]
    if not isinstance(value, list | tuple):
        return []
    return [str(v) for v in value if v]


def remember_file(settings: QSettings, path: str) -> list[str]:
    """Put ``path`` first in the recent files and as the last file; return the list.

    Called only once a file has opened *and* its review index is ready: a file
    that fails is never remembered, so the next start does not fail on it again.
    """
    files = [path, *(f for f in recent_files(settings) if f != path)][:MAX_RECENT]
    settings.setValue("recent_files", files)
    settings.setValue("last_file", path)
    settings.sync()
    return files


def forget_file(settings: QSettings, path: str) -> list[str]:
    """Take ``path`` out of the recent files and, if it is, the last file; return the list.

    For a file that failed to open, whose review index failed, or whose rows
    could not be read.
    """
    files = [f for f in recent_files(settings) if f != path]
    settings.setValue("recent_files", files)
    if settings.value("last_file") == path:
        settings.remove("last_file")
    settings.sync()
    return files
