"""Shared set-up for the Qt widget tests: no display needed."""

from __future__ import annotations

import os

import pytest

# Before anything imports Qt: render offscreen unless the caller chose a platform.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_configure(config: pytest.Config) -> None:
    # The offscreen platform warns whenever a shown top-level window's size
    # constraints change (any top-level widget with a layout); with
    # qt_log_level_fail = WARNING that would fail every such test.
    config.addinivalue_line("qt_log_ignore", "This plugin does not support propagateSizeHints")
