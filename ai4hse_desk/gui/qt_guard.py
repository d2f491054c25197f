"""Keeping Python exceptions out of Qt: they become a plain-text message instead.

A Python exception raised inside a Qt virtual method (a model's ``data()``, a
``fetchMore()``, a thread's ``run()``) is handed back to C++, and PySide cannot
always cope: an audit file with text in an integer column made ``data()`` raise
while a table measured its columns, and the process died with SIGSEGV inside
shiboken's error handling. So every override that reads the audit file, the
review index or the notes store is wrapped in :func:`guarded`; what it catches
is *reported* (:func:`report_problem`) and the method returns a harmless value.

Reports are queued and shown a moment later from the event loop
(:func:`flush_problems`), never from inside a paint or a model call, each
distinct message once until :func:`forget_problems` (a new file is opened).
Any exception that still escapes to Python's top level while the window runs (a
slot, a timer) is reported the same way by :func:`install_excepthook`; its
traceback is printed only with ``AI4HSE_DEBUG`` set, as on the command line.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
import traceback
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from ai4hse_desk.errors import InputProblem, one_line
from ai4hse_desk.gui.plain_text import Icon, plain_message
from ai4hse_desk.index import QueryInterrupted

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

P = ParamSpec("P")
T = TypeVar("T")
D = TypeVar("D")

#: What reading an audit file, its review index or the notes store raises on a file
#: it cannot use: a problem it names (:class:`~ai4hse_desk.errors.InputProblem`,
#: ``OSError``), SQLite refusing, a value the schema forbids (``ValueError``,
#: ``TypeError``, ``KeyError`` for an unknown run …), a closed or interrupted index.
READ_ERRORS: tuple[type[Exception], ...] = (
    InputProblem,
    OSError,
    sqlite3.Error,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    RuntimeError,
    QueryInterrupted,
)

_pending: list[tuple[str, str]] = []
_seen: set[tuple[str, str]] = set()
_scheduled = False


def problem_text(exc: BaseException) -> str:
    """One line for the user: the message of a problem with the input, else the
    exception's type and first line (it may quote the file: shown as plain text)."""
    lines = str(exc).strip().splitlines()
    first = one_line(lines[0]) if lines else ""
    if isinstance(exc, InputProblem | OSError):  # already written for the user
        return first or type(exc).__name__
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def report_problem(title: str, text: str) -> None:
    """Show ``text`` (plain) under ``title`` soon, unless the same was already shown."""
    global _scheduled
    key = (title, text)
    if key in _seen:
        return
    _seen.add(key)
    _pending.append(key)
    if not _scheduled and QApplication.instance() is not None:
        _scheduled = True
        QTimer.singleShot(0, flush_problems)


def flush_problems() -> None:
    """Show every queued report now (the headless screenshot calls this before it ends)."""
    global _scheduled
    _scheduled = False
    while _pending:
        title, text = _pending.pop(0)
        parent = QApplication.activeWindow()
        plain_message(parent, Icon.Critical, title, text, wait=False)


def forget_problems() -> None:
    """Drop queued reports and let every message be shown again (another file opened)."""
    _pending.clear()
    _seen.clear()


def guarded(default: D, title: str = "The window could not show this") -> Callable[
    [Callable[P, T]], Callable[P, T | D]
]:  # fmt: skip
    """Decorate a Qt override: an exception is reported and ``default`` returned."""

    def decorate(method: Callable[P, T]) -> Callable[P, T | D]:
        @functools.wraps(method)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> T | D:
            try:
                return method(*args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - nothing may be raised back into Qt (C++)
                report_problem(title, problem_text(exc))
                return default

        return wrapper

    return decorate


def _hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    if os.environ.get("AI4HSE_DEBUG"):
        traceback.print_exception(kind, exc, tb)
    if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: as Python would
        sys.__excepthook__(kind, exc, tb)
        return
    report_problem("Unexpected error", problem_text(exc))


def install_excepthook() -> None:
    """Report exceptions that reach the top level (a slot, a timer) as a message."""
    sys.excepthook = _hook


__all__ = [
    "READ_ERRORS",
    "flush_problems",
    "forget_problems",
    "guarded",
    "install_excepthook",
    "problem_text",
    "report_problem",
]
