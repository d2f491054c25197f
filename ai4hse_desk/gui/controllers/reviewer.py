"""The reviewer's name: asked once, remembered in the settings, changeable from a menu.

Every flag and note records who made it. The window asks for the name the
first time a reviewer changes something (not on start-up: only reading needs no
name) and keeps it under the settings key ``reviewer``. The dialog is
:func:`~ai4hse_desk.gui.dialogs.reviewer_name.ask_name`. What the window shows
follows the name (the visibility policy is the named reviewer's): a new name is
announced through :attr:`ReviewerIdentity.changed`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.dialogs import reviewer_name
from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.people import clean_reviewer

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QWidget

SETTINGS_KEY = "reviewer"


class ReviewerIdentity(QObject):
    """The reviewer's name as kept in ``settings``.

    Signals:
        changed: the name given now (it differs from the one before).
    """

    changed = Signal(str)

    def __init__(self, settings: QSettings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._settings = settings

    @property
    def name(self) -> str | None:
        """The remembered name, or ``None`` before it was first given."""
        value = self._settings.value(SETTINGS_KEY)
        if not isinstance(value, str):
            return None
        try:
            return clean_reviewer(value)
        except ReviewError:
            return None

    def ensure(self, parent: QWidget | None) -> str | None:
        """The remembered name, asking for it the first time; ``None`` if not given.

        Raises:
            ReviewError: the name typed is not usable (blank, control characters, too long).
        """
        return self.name or self.change(parent)

    def change(self, parent: QWidget | None) -> str | None:
        """Ask for the name again (Notes ▸ Reviewer name…); ``None`` when cancelled.

        Raises:
            ReviewError: the name typed is not usable; the remembered one stays.
        """
        typed = reviewer_name.ask_name(parent, self.name or "")
        if typed is None:
            return None
        name, before = clean_reviewer(typed), self.name
        self._settings.setValue(SETTINGS_KEY, name)
        self._settings.sync()
        if name != before:
            self.changed.emit(name)
        return name


__all__ = ["SETTINGS_KEY", "ReviewerIdentity"]
