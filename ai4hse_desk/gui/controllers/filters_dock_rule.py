"""When the Filters dock shows: on the attempts page, where the window is wide enough.

Two rules, one place:

* **Pages.** The dock filters the attempt list only: beside the other pages it is hidden
  (its toggle unchecked and disabled) and shown again, as the reviewer left it, on the
  attempts page.
* **Width.** Below :meth:`FiltersDockRule.fold_width` — the dock's preferred width beside
  the pages' minimum — the dock folds away, so that the attempts page keeps the width it
  needs (two reviewers' 800-px windows side by side; the dock was otherwise squeezed to a
  sliver beside a page that overflowed). Crossing back it returns, if it was the rule that
  folded it. Between crossings the reviewer's own choice (the toggle, the dock's ×) holds,
  as the Review page's queue list does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget, QWidget

#: Pixels between the dock and the pages (the main window's separator and margins).
_SEPARATOR = 8


class FiltersDockRule(QObject):
    """Shows and hides the Filters dock by page and by the window's width."""

    def __init__(self, dock: QDockWidget, pages: QWidget, *, on_attempts: bool = True) -> None:
        super().__init__(dock)
        self._dock, self._pages = dock, pages
        #: Whether the reviewer left the dock shown on the attempts page (``None`` while
        #: the attempts page is current).
        self._wanted: bool | None = None if on_attempts else False
        self._folded = False  # hidden by the width rule, not by the reviewer
        self._narrow: bool | None = None  # the side of the width rule last seen
        self._by_rule = False
        dock.visibilityChanged.connect(self._visibility_changed)
        window = dock.parentWidget()
        if window is not None:
            window.installEventFilter(self)

    def fold_width(self) -> int:
        """The window width below which the dock folds away."""
        return self._dock.sizeHint().width() + _SEPARATOR + self._pages.minimumSizeHint().width()

    def page_changed(self, attempts: bool) -> None:
        """The attempts page (``attempts``) or another became current."""
        toggle = self._dock.toggleViewAction()
        if not attempts and self._wanted is None:
            self._wanted = not self._dock.isHidden()
            self._set_visible(False)
            toggle.setEnabled(False)
        elif attempts and self._wanted is not None:
            toggle.setEnabled(True)
            self._set_visible(self._wanted)
            self._wanted = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self._dock.parentWidget():
            self._follow_width()
        return super().eventFilter(watched, event)

    def _follow_width(self) -> None:
        window = self._dock.parentWidget()
        if window is None:
            return
        narrow = window.width() < self.fold_width()
        if narrow == self._narrow:
            return  # no crossing: the reviewer's choice holds
        self._narrow = narrow
        shown = not self._dock.isHidden() if self._wanted is None else self._wanted
        if narrow and shown:
            self._folded = True
            self._show(False)
        elif not narrow and self._folded:
            self._folded = False
            self._show(True)

    def _show(self, visible: bool) -> None:
        """Show or hide the dock on the attempts page, or as it will be on return."""
        if self._wanted is None:
            self._set_visible(visible)
        else:
            self._wanted = visible

    def _set_visible(self, visible: bool) -> None:
        self._by_rule = True
        try:
            self._dock.setVisible(visible)
        finally:
            self._by_rule = False

    def _visibility_changed(self, _visible: bool) -> None:
        if not self._by_rule and self._wanted is None:
            self._folded = False  # the reviewer's own choice


__all__ = ["FiltersDockRule"]
