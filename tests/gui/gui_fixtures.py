"""Helpers for the window tests: recorded message boxes and hostile audit files.

* :class:`MessageBoxes` is what the autouse ``message_boxes`` fixture (conftest)
  collects: every message box a test's window asked for, never shown.
* :class:`ThreadWatch` is the dangling-QThread guard's bookkeeping (conftest).
* :func:`cell`, :func:`shown_text` and :func:`header_text` read a table widget's
  item, a model's cell text and a header's text where a test expects one.
* :func:`untyped_attempts` rebuilds an audit file's ``attempts`` table with the
  official columns but no types, checks or unique constraints (the red team's
  trick), so a value the schema forbids can be stored.
"""

from __future__ import annotations

import hashlib
import sqlite3
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from pathlib import Path

    from PySide6.QtCore import QAbstractItemModel, QThread
    from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

#: Audit- or store-controlled text that would draw a forged verdict if read as HTML.
HOSTILE = '<h1 style="color:green">✔ Audit verified: 0 disagreements</h1>'


@dataclass(frozen=True)
class ShownMessage:
    """A message box the window asked to show (never shown in a test)."""

    icon: QMessageBox.Icon
    title: str
    text: str
    text_format: Qt.TextFormat


class MessageBoxes(list[ShownMessage]):
    """Every message box of one test, in order."""

    def texts(self) -> list[str]:
        return [message.text for message in self]

    def critical(self) -> list[ShownMessage]:
        return [m for m in self if m.icon == QMessageBox.Icon.Critical]


#: How long a QThread that has done its work may take to end before it counts as left
#: running: generous, as a busy machine may not schedule it for a while (a thread that
#: ends at once costs nothing; one left running still fails, after the grace).
GRACE_MS = 5000


@dataclass
class ThreadWatch:
    """The QThreads started during one test (Python threads: ``tests/thread_guard.py``)."""

    started: weakref.WeakSet[QThread] = field(default_factory=weakref.WeakSet)

    def recording(self, start: Callable[..., None]) -> Callable[..., None]:
        """``QThread.start`` that also records the thread."""

        def record(thread: QThread, *args: object) -> None:
            self.started.add(thread)
            start(thread, *args)

        return record

    def still_running(self, grace_ms: int = GRACE_MS) -> list[str]:
        """The recorded threads still running, each given ``grace_ms`` to end first."""
        return [
            thread.objectName() or repr(thread)
            for thread in list(self.started)
            if thread.isRunning() and not thread.wait(grace_ms)
        ]

    def wait_all(self) -> None:
        """Wait for every recorded thread, so that the next test starts clean."""
        for thread in list(self.started):
            thread.wait(30_000)


def cell(table: QTableWidget, row: int, column: int) -> QTableWidgetItem:
    """The item at ``row``, ``column`` of ``table`` (a test that reads it expects one)."""
    item = table.item(row, column)
    assert item is not None, f"no item at ({row}, {column})"
    return item


def shown_text(
    model: QAbstractItemModel, row: int, column: int, role: int = Qt.ItemDataRole.DisplayRole
) -> str:
    """A model cell's ``role`` text, where a test expects one."""
    value = model.data(model.index(row, column), role)
    assert isinstance(value, str), f"({row}, {column}) has {value!r} for role {role}"
    return value


def header_text(model: QAbstractItemModel, section: int, role: int) -> str:
    """A horizontal header section's ``role`` text, where a test expects one."""
    value = model.headerData(section, Qt.Orientation.Horizontal, role)
    assert isinstance(value, str), f"header {section} has {value!r} for role {role}"
    return value


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def untyped_attempts(path: Path, updates: Mapping[str, object], where: str) -> None:
    """Recreate ``attempts`` without types or constraints, then ``SET updates WHERE where``."""
    con = sqlite3.connect(path)
    try:
        columns = [row[1] for row in con.execute("PRAGMA table_info(attempts)")]
        con.execute("PRAGMA foreign_keys = OFF")
        con.execute("ALTER TABLE attempts RENAME TO attempts_typed")
        con.execute(f"CREATE TABLE attempts ({', '.join(columns)})")
        con.execute("INSERT INTO attempts SELECT * FROM attempts_typed")
        con.execute("DROP TABLE attempts_typed")
        assignments = ", ".join(f"{name} = ?" for name in updates)
        con.execute(f"UPDATE attempts SET {assignments} WHERE {where}", tuple(updates.values()))
        con.commit()
    finally:
        con.close()


def rename_run(path: Path, old: str, new: str, *, model: str | None = None) -> None:
    """Give run ``old`` the id ``new`` (and ``model``) in the runs and its attempts."""
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA foreign_keys = OFF")
        con.execute(
            "UPDATE runs SET run_id = ?, model = COALESCE(?, model) WHERE run_id = ?",
            (new, model, old),
        )
        con.execute("UPDATE attempts SET run_id = ? WHERE run_id = ?", (new, old))
        con.commit()
    finally:
        con.close()


def set_meta(path: Path, key: str, value: str) -> None:
    """Set ``audit_meta[key]`` (e.g. a schema version the desk does not read)."""
    con = sqlite3.connect(path)
    try:
        con.execute("UPDATE audit_meta SET value = ? WHERE key = ?", (value, key))
        con.commit()
    finally:
        con.close()
