"""``flag`` and ``notes export|import|agreement`` as a script sees them: JSON on stdout,
exit 2 with one ``error:`` line, ``warning:`` lines, and an audit database that never changes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import openpyxl
import pytest

from ai4hse_desk.cli.main import HEADLESS_COMMANDS
from tests.core import notes_fixtures
from tests.core.desk_helpers import cli, sha256

if TYPE_CHECKING:
    from collections.abc import Callable


def flag_args(audit: Path, *extra: str) -> list[str]:
    return ["flag", str(audit), "--question", "Q001", "--category", "key_incorrect",
            "--note", "key says TRUE", "--reviewer", "ann", *extra]  # fmt: skip


def test_commands_are_headless() -> None:
    assert {"flag", "notes"} <= HEADLESS_COMMANDS


def test_every_command_leaves_the_audit_byte_identical_and_scores_unchanged(
    make_audit_db: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    store_url: str,
) -> None:
    audit = make_audit_db()
    unchanged = notes_fixtures.AuditUnchanged(audit, capsys)
    notes = ["--notes", store_url]

    code, out, err = cli(*flag_args(audit, "--option", "2", "--severity", "high", *notes))
    assert (code, err) == (0, "")
    assert out.count("\n") == 1
    made = json.loads(out)
    assert (made["question_id"], made["option"], made["severity"]) == ("Q001", 2, "high")
    assert (made["category"], made["state"], made["reviewer"]) == ("key_incorrect", "open", "ann")
    unchanged.check()

    for fmt in ("csv", "json", "xlsx"):
        out_file = tmp_path / f"notes.{fmt}"
        export = ["notes", "export", str(audit), "--format", fmt, "--out", str(out_file)]
        code, out, err = cli(*export, *notes)
        assert (code, err) == (0, "")
        assert json.loads(out)["flags"] == 1
        unchanged.check()
    assert openpyxl.load_workbook(tmp_path / "notes.xlsx")["notes"]["K2"].value == "key says TRUE"

    code, out, err = cli("notes", "import", str(audit), str(tmp_path / "notes.json"), *notes)
    assert (code, err) == (0, "")
    assert json.loads(out)["items_added"] == 0
    unchanged.check()

    code, out, _ = cli("notes", "agreement", str(audit), *notes)
    assert code == 0
    assert json.loads(out)["statistic"] is None
    unchanged.check()


def test_default_store_import_twice_and_agreement(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit, bobs = make_audit_db(), tmp_path / "bob.sqlite"
    assert cli(*flag_args(audit))[0] == 0  # ann, default store beside the audit
    assert Path(f"{audit}.review.sqlite").is_file()
    bob = ["--reviewer", "bob", "--notes", str(bobs)]
    args = ["flag", str(audit), "--question", "Q001", "--category", "other", "--note", "n", *bob]
    assert cli(*args)[0] == 0
    export = tmp_path / "bob.json"
    args = ["notes", "export", str(audit), "--format", "json", "--out", str(export)]
    assert cli(*args, "--notes", str(bobs))[0] == 0
    first = json.loads(cli("notes", "import", str(audit), str(export))[1])
    second = json.loads(cli("notes", "import", str(audit), str(export))[1])
    assert (first["items_added"], first["revisions_added"]) == (1, 1)
    assert (second["items_added"], second["revisions_added"]) == (0, 0)
    code, out, _ = cli("notes", "agreement", str(audit))
    result = json.loads(out)
    assert code == 0
    assert result["questions"] == 1
    assert result["reviewers"] == ["ann", "bob"]
    assert result["units"] == {"Q001": {"ann": 1, "bob": 0}}
    # one unit rated 1 and 0: p_o = 0, p_e = 1·0 + 0·1 = 0, so κ = (0 − 0)/(1 − 0) = 0
    assert result["statistic"] == "cohen_kappa"
    assert result["value"] == 0.0
    assert result["undefined_reason"] is None
    assert result["pairs"][0]["questions"] == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--question", "Q999"], "error: unknown question: Q999"),
        (["--option", "4"], "error: option 4 is outside Q001's 4 options"),
        (["--option", "-1"], "error: option -1 is outside Q001's 4 options"),
        (["--option", "two"], "error: argument --option: invalid int value: 'two'"),
        (["--category", "nonsense"], "error: unknown category: 'nonsense'"),
        (["--severity", "urgent"], "error: unknown severity: 'urgent'"),
        (["--reviewer", " "], "error: a reviewer name is required"),
        (
            ["--category", "other", "--note", " "],
            "error: a flag of category “Other” must say in its note what the problem is",
        ),
        (["--notes", "mysql://h/db"], "error: unsupported notes store mysql://h/db"),
    ],
)
def test_bad_input_exits_2_with_one_error_line(
    make_audit_db: Callable[..., Path],
    extra: list[str],
    message: str,
) -> None:
    audit = make_audit_db()
    before = sha256(audit)
    code, out, err = cli(*flag_args(audit), *extra)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(message), err
    assert sha256(audit) == before


def test_missing_or_invalid_audit_exits_2(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite" * 20)
    for audit in (tmp_path / "missing.sqlite", junk):
        for args in (flag_args(audit), ["notes", "agreement", str(audit)]):
            code, out, err = cli(*args)
            assert code == 2
            assert out == ""
            assert err.count("\n") == 1
            assert err.startswith("error: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.sqlite"]  # no store made


def test_notes_of_another_audit_file_warn_on_one_line(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    notes = ["--notes", str(tmp_path / "shared.sqlite")]
    assert cli(*flag_args(make_audit_db(), *notes))[0] == 0
    code, out, err = cli(*flag_args(make_audit_db(extra_questions=1), *notes))
    assert code == 0
    assert json.loads(out)["question_id"] == "Q001"
    assert err.count("\n") == 1
    assert err.startswith("warning: notes were recorded for another audit file")


def test_import_and_export_errors_exit_2(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    code, _, err = cli("notes", "import", str(audit), str(bad))
    assert code == 2
    assert err.startswith("error: bad.json: not a reviewer notes export")
    args = ["notes", "export", str(audit), "--format", "csv", "--out", str(audit)]
    code, _, err = cli(*args)
    assert code == 2
    assert err.startswith("error: refusing to write: ")
    assert "is the audit database" in err
    assert err.count("\n") == 1
    code, _, err = cli("notes", "export", str(audit), "--format", "pdf", "--out", "x.pdf")
    assert code == 2
    assert err.startswith("error: argument --format: invalid choice")
    assert cli("notes")[0] == 2


def test_a_real_process_prints_no_traceback_and_loads_no_qt_or_pandas(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    done = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", *flag_args(audit, "--option", "9")],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "error: option 9 is outside Q001's 4 options (positions 0 to 3)\n"
    code = (
        "import sys\n"
        "from ai4hse_desk.launcher import main\n"
        f"rc = main(['notes', 'agreement', {str(audit)!r}])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'shiboken6', 'pyqtgraph', 'pandas'))\n"
        "print(rc, heavy, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "0 []"
