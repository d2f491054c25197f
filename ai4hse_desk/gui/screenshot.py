"""``ai4hse-desk AUDIT_DB --screenshot OUT.png [--view V]``: the window, rendered headless.

The PNG is a document like any export, so it is written only through the
guarded writer (:mod:`ai4hse_desk.filewrite`), and only when nothing went wrong:

1. ``OUT`` is checked before anything is opened (``app.run_window``): a folder,
   a device such as ``/dev/null``, a FIFO or an existing SQLite database (the
   audit file itself, a notes store) is refused.
2. The audit file is opened once without a window: a file that cannot be opened
   is one ``error:`` line. Opening it protects it and its ``-wal``, ``-journal``
   and ``-shm`` names, so ``OUT`` is checked again, together with the names of
   its default notes store (which may not exist yet).
3. The window opens the file, builds the review index and the view asked for,
   and waits until every background task of the window has delivered.
   Every message the window would show goes to a sink instead: the first error
   (the file did not open, the index or the scores failed, a row could not be
   read) is printed as ``error: …`` and the command exits 2 without writing.
   Notices (the notes store's warnings) are not errors and are dropped.
4. The PNG is saved by Qt into a temporary file beside ``OUT`` and renamed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ai4hse_desk.errors import one_line
from ai4hse_desk.filewrite import SIDE_SUFFIXES, WriteRefused, check_target, write_atomic
from ai4hse_desk.gui.plain_text import Icon, set_message_sink
from ai4hse_desk.gui.qt_guard import READ_ERRORS, flush_problems, install_excepthook, problem_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QImage, QPixmap

    from ai4hse_desk.gui.controllers.navigation import Navigator
    from ai4hse_desk.gui.controllers.views import ViewSwitcher
    from ai4hse_desk.gui.views.keyaudit import KeyAuditView
    from ai4hse_desk.gui.views.scores import ScoresView
    from ai4hse_desk.gui.workers.runner import TaskRunner


class ShotWindow(Protocol):
    """What a render needs of the window the entry point makes (the main window; this
    module never imports it)."""

    @property
    def scores(self) -> ScoresView: ...
    @property
    def keyaudit(self) -> KeyAuditView: ...
    @property
    def navigator(self) -> Navigator: ...
    @property
    def switcher(self) -> ViewSwitcher: ...
    @property
    def tasks(self) -> TaskRunner: ...
    def open_path(self, path: str | Path, *, wait: bool = False) -> bool: ...
    def resize(self, w: int, h: int, /) -> None: ...
    def show(self) -> None: ...
    def grab(self) -> QPixmap: ...
    def close(self) -> bool: ...


#: Rounds of event processing before the grab (deferred layouts, queued reports).
SETTLE_ROUNDS = 5


def _error(message: str) -> int:
    sys.stderr.write(f"error: {one_line(message)}\n")
    return 2


def notes_store_refusal(audit: Path, out: Path) -> str | None:
    """Why ``out`` names the default notes store of ``audit`` (or a side file), or ``None``.

    The store need not exist yet: a PNG under its name would stop the notes from
    ever being kept there. (An existing store is an SQLite file, which
    :func:`~ai4hse_desk.filewrite.check_target` refuses anyway.)
    """
    from ai4hse_desk.notes.location import SUFFIX, default_store_path

    absolute = Path(os.path.abspath(audit))
    stores = {absolute.with_name(absolute.name + SUFFIX), default_store_path(absolute)}
    target = os.path.realpath(out)
    for store in stores:
        for suffix in ("", *SIDE_SUFFIXES):
            if target == os.path.realpath(f"{store}{suffix}"):
                what = f"the {suffix[1:]} file of the notes store" if suffix else "the notes store"
                return f"refusing to write: {out} is {what} of {audit}; the desk never writes it"
    return None


def screenshot(
    path: Path, out: Path, view: str, size: tuple[int, int], new_window: Callable[[], ShotWindow]
) -> int:
    """Render a main window (made by ``new_window``, the entry point's) on ``path``
    (``view`` shown) to ``out``; the exit status."""
    from ai4hse_desk.audit import open_audit

    try:  # fail with one line before any window exists
        open_audit(path).close()
    except READ_ERRORS as exc:  # AuditError, or a value the schema forbids
        return _error(problem_text(exc))
    try:
        check_target(out)  # again: the audit file and its side names are protected now
    except WriteRefused as exc:
        return _error(str(exc))
    refusal = notes_store_refusal(path, out)
    if refusal is not None:
        return _error(refusal)

    from ai4hse_desk.gui.application import application

    application()
    install_excepthook()
    errors: list[str] = []

    def sink(icon: Icon, _title: str, text: str) -> None:
        if icon == Icon.Critical:
            errors.append(text)

    previous = set_message_sink(sink)
    try:
        return _render(new_window(), path, out, (view, size), errors)
    finally:
        set_message_sink(previous)


def _render(
    window: ShotWindow, path: Path, out: Path, shown: tuple[str, tuple[int, int]], errors: list[str]
) -> int:
    from PySide6.QtWidgets import QApplication

    view, size = shown
    window.scores.failed.connect(errors.append)
    window.keyaudit.failed.connect(errors.append)
    image: QImage | None = None
    try:
        window.resize(*size)
        window.show()
        if window.open_path(path, wait=True) and not errors:
            window.navigator.next_parse_error()
            if view == "compare":
                window.switcher.show_compare()
            elif view == "scores":
                window.switcher.show_scores()
            elif view == "keyaudit":
                window.switcher.show_keyaudit()
            elif view == "review":
                window.switcher.show_review()
            window.tasks.wait_idle()
            for _ in range(SETTLE_ROUNDS):
                QApplication.processEvents()
            image = window.grab().toImage()
            flush_problems()  # what painting found (a row it could not read)
    finally:
        window.close()
    if errors or image is None:
        return _error(errors[0] if errors else f"cannot open {path}")
    shot = image

    def save(temp: Path) -> None:
        # PySide6 takes the format as str (its stubs say bytes, which it refuses).
        if not shot.save(str(temp), "PNG"):  # type: ignore[call-overload]
            raise WriteRefused(f"cannot write {out}: the PNG could not be encoded")

    try:
        write_atomic(out, save)
    except WriteRefused as exc:
        return _error(str(exc))
    print(f"screenshot written to {out}")
    return 0


__all__ = ["ShotWindow", "notes_store_refusal", "screenshot"]
