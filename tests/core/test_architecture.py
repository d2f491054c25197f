"""The core never imports Qt; headless commands start without Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_import_linter_contracts_hold() -> None:
    lint_imports = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint_imports), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_headless_commands_load_no_qt(tmp_path: Path) -> None:
    code = (
        "import sys, io\n"
        "from ai4hse_desk.launcher import main\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'[TRUE, FALSE]'))\n"
        "rc = main(['extract', '--track', 'answer_only', '--options', '2'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'shiboken6', 'pyqtgraph', 'pandas'))\n"
        "print(rc, heavy)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "0 []"
