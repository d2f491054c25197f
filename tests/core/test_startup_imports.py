"""Headless commands that read an audit file start light: no SQLAlchemy, Qt, numpy or pandas.

Each command runs in a fresh interpreter (a test process has imported everything
already); an exit hook records which heavy packages the command loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

HEAVY = ("sqlalchemy", "alembic", "PySide6", "shiboken6", "pyqtgraph", "numpy", "pandas")

_RUN = """
import atexit, json, runpy, sys
target, heavy = sys.argv[1], set(json.loads(sys.argv[2]))
def record():
    with open(target, "w") as out:
        out.write(json.dumps(sorted({name.split(".")[0] for name in sys.modules} & heavy)))
atexit.register(record)
sys.argv = ["ai4hse-desk", *sys.argv[3:]]
runpy.run_module("ai4hse_desk", run_name="__main__")
"""


def _heavy_imports(tmp_path: Path, *args: str) -> tuple[int, list[str], str]:
    record = tmp_path / "loaded.json"
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(record), json.dumps(HEAVY), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    loaded: list[str] = json.loads(record.read_text())
    return done.returncode, loaded, done.stderr


@pytest.mark.parametrize(
    "options",
    [(), ("--per-attempt",), ("--table",), ("--run", "r1")],
    ids=["json", "per-attempt", "table", "one-run"],
)
def test_rescore_imports_no_sqlalchemy_nor_qt(
    audit_db: Path, tmp_path: Path, options: tuple[str, ...]
) -> None:
    status, loaded, stderr = _heavy_imports(tmp_path, "rescore", str(audit_db), *options)
    assert status == 0, stderr
    assert loaded == []


def test_keyaudit_imports_no_sqlalchemy_nor_qt(audit_db: Path, tmp_path: Path) -> None:
    """The key audit reads the audit file too; its model needs numpy, nothing else heavy."""
    status, loaded, stderr = _heavy_imports(tmp_path, "keyaudit", str(audit_db))
    assert status == 0, stderr
    assert set(loaded) <= {"numpy"}


def test_a_bad_audit_file_is_one_error_line_without_sqlalchemy(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    status, loaded, stderr = _heavy_imports(tmp_path, "rescore", str(bad))
    assert status == 2
    assert len(stderr.splitlines()) == 1
    assert stderr.startswith("error: ")
    assert loaded == []


@pytest.mark.parametrize("args", [("rescore", "--help"), ("--version",), ("--help",)])
def test_help_and_version_import_nothing_heavy(tmp_path: Path, args: tuple[str, ...]) -> None:
    status, loaded, stderr = _heavy_imports(tmp_path, *args)
    assert status == 0, stderr
    assert loaded == []


def test_the_record_sees_a_heavy_import(audit_db: Path, tmp_path: Path) -> None:
    """The check can fail: a command that needs the notes store does load SQLAlchemy."""
    status, loaded, stderr = _heavy_imports(
        tmp_path, "review", "status", str(audit_db), "--notes", str(tmp_path / "n.review.sqlite")
    )
    assert status == 0, stderr
    assert "sqlalchemy" in loaded
