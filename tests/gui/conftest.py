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


@pytest.fixture(autouse=True)
def _private_desk_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own cache (review indexes, demo), settings and data
    (notes stores that cannot live beside their audit file) folders."""
    monkeypatch.setenv("AI4HSE_DESK_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("AI4HSE_DESK_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("AI4HSE_DESK_DATA_DIR", str(tmp_path_factory.mktemp("data")))
