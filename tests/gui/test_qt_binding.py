"""The installed Qt binding is one the desk can live with for a day's session."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot


def test_void_qt_calls_do_not_leak_references_to_none(qtbot: QtBot) -> None:
    # PySide6 6.12.0 on Python 3.11 drops a reference to None on every call that
    # returns nothing; after enough calls the interpreter aborts. pyproject.toml
    # excludes that release; this test catches any binding with the same fault.
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(5000):
        label.setText("x")
    assert sys.getrefcount(None) - before > -100
