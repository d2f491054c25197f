"""The window's actions, declared once as a table and registered through one API.

Each :class:`ActionSpec` names a menu, the text, the shortcuts and the handler
(napari declares its menus the same way, as action tables). The window's table
is :func:`~ai4hse_desk.gui.window_actions.window_actions`;
:class:`ActionRegistry` turns it into menus and ``QAction`` objects, which
controllers then only enable, check or trigger, by key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from PySide6.QtGui import QAction, QKeySequence
    from PySide6.QtWidgets import QMainWindow, QMenu

    Shortcut = str | QKeySequence.StandardKey

# The entries are named tuples, not dataclasses: a window's start makes its menu bar
# before its first rows, and a frozen dataclass costs ten times as much to define.


class ActionSpec(NamedTuple):
    """One menu entry.

    Attributes:
        key: how code refers to it (``"next_attempt"``).
        menu: the menu it is in (a name given to :class:`ActionRegistry`, or a
            :class:`SubMenu` registered before, such as ``"&View/Scores &exports"``).
        text: the menu text (``&`` marks the mnemonic).
        handler: called when triggered (with the checked state if ``checkable``).
        shortcuts: key sequences, the first one shown in the menu.
        checkable: a toggle (View ▸ Flagged questions only).
        tip: its tooltip.
        separator: a separator goes above it.
    """

    key: str
    menu: str
    text: str
    handler: Callable[..., object]
    shortcuts: tuple[Shortcut, ...] = ()
    checkable: bool = False
    tip: str = ""
    separator: bool = False


class Placed(NamedTuple):
    """An action made elsewhere (a dock's toggle, a view's export), placed in a menu.

    Attributes:
        key: how code refers to it ("" when only the menu needs it).
        shortcuts: set on it when given (the dock toggles have none of their own).
    """

    key: str
    menu: str
    action: QAction
    text: str = ""
    shortcuts: tuple[Shortcut, ...] = ()
    separator: bool = False


class SubMenu(NamedTuple):
    """A submenu (``"&File/Open &recent"``), made at this place of its parent menu."""

    path: str
    separator: bool = False


Entry = ActionSpec | Placed | SubMenu


class ActionRegistry:
    """The menus of a main window and every action in them, by key."""

    def __init__(self, window: QMainWindow, menus: Sequence[str]) -> None:
        self._window = window
        self._menus: dict[str, QMenu] = {name: window.menuBar().addMenu(name) for name in menus}
        self._actions: dict[str, QAction] = {}

    def register(self, entries: Iterable[Entry]) -> None:
        """Create, connect and place every entry, in order (keys must be new)."""
        from PySide6.QtGui import QKeySequence

        for entry in entries:
            if isinstance(entry, SubMenu):
                parent, _, child = entry.path.rpartition("/")
                if entry.separator:
                    self.menu(parent).addSeparator()
                self._menus[entry.path] = self.menu(parent).addMenu(child)
                continue
            if isinstance(entry, Placed):
                action, separator = entry.action, entry.separator
                if entry.text:
                    action.setText(entry.text)
            else:
                action, separator = self._make(entry), entry.separator
            if entry.shortcuts:
                action.setShortcuts([QKeySequence(s) for s in entry.shortcuts])
            # Shortcuts of the window's own actions work wherever the focus is; an action
            # placed from a view keeps the shortcut context its view gave it.
            on_window = isinstance(entry, ActionSpec) or bool(entry.shortcuts)
            self._place(entry.key, entry.menu, action, separator, on_window)

    def _make(self, spec: ActionSpec) -> QAction:
        from PySide6.QtGui import QAction

        action = QAction(spec.text, self._window)
        action.setObjectName(spec.key)
        action.setCheckable(spec.checkable)
        if spec.tip:
            action.setToolTip(spec.tip)
        action.triggered.connect(spec.handler)
        return action

    def _place(
        self, key: str, menu: str, action: QAction, separator: bool, on_window: bool
    ) -> None:
        if key in self._actions:
            raise ValueError(f"action {key!r} is registered twice")
        target = self.menu(menu)
        if separator:
            target.addSeparator()
        target.addAction(action)
        if on_window:
            self._window.addAction(action)
        if key:
            self._actions[key] = action

    def menu(self, name: str) -> QMenu:
        """The menu or submenu ``name``."""
        return self._menus[name]

    def __getitem__(self, key: str) -> QAction:
        return self._actions[key]

    def __contains__(self, key: object) -> bool:
        return key in self._actions


__all__ = ["ActionRegistry", "ActionSpec", "Entry", "Placed", "Shortcut", "SubMenu"]
