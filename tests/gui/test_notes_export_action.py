"""Notes ▸ Export notes… in the window: format from the chosen filter, private text only
when the reviewer says so, options by letter, formulas guarded."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import openpyxl
import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pytestqt.qtbot import QtBot

NOTE = '=HYPERLINK("http://x","click")'


@pytest.fixture
def window(qtbot: QtBot, pristine: Path, tmp_path: Path) -> Iterator[MainWindow]:
    folder = tmp_path / "audit"
    folder.mkdir()
    audit = Path(shutil.copyfile(pristine, folder / "audit.sqlite"))
    with open_audit(audit) as db, NotesStore.open(db) as store:
        store.add_flag(question_id="Q002", category="key_incorrect", note=NOTE, reviewer="ann",
                       option=1)  # fmt: skip
        ReviewBook(store).save_verdict("Q003", "bob", verdict="unclear_options", not_blind=True)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert win.open_path(audit, wait=True)
    assert win.tasks.wait_idle()
    yield win
    win.close()


def _export(window: MainWindow, monkeypatch: pytest.MonkeyPatch, path: Path, chosen: str,
            private: bool) -> list[str]:  # fmt: skip
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(path), chosen))
    button = QMessageBox.StandardButton.Yes if private else QMessageBox.StandardButton.No
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: button)
    messages: list[str] = []
    window.notes_export.message.connect(messages.append)
    window.menu_actions["notes_export"].trigger()
    assert window.tasks.wait_idle()
    return messages


def test_csv_from_the_filter_without_private_text_and_formulas_guarded(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    messages = _export(window, monkeypatch, tmp_path / "notes", "CSV (*.csv)", private=False)
    target = tmp_path / "notes.csv"
    assert messages == [f"Notes written to {target} (1 flags, 0 attempt notes, 1 verdicts, "
                        "0 decisions; without private text)"]  # fmt: skip
    rows = list(csv.DictReader(target.read_text(encoding="utf-8-sig").splitlines()))
    flag = next(r for r in rows if r["kind"] == "flag")
    assert flag["note"] == "'" + NOTE
    assert (flag["option"], flag["option_letter"]) == ("1", "B")
    assert not any(r.get("question_text") for r in rows)
    assert any(r["kind"] == "review_verdict" and r["verdict"] == "unclear_options" for r in rows)


def test_xlsx_and_json_with_private_text_when_asked(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _export(window, monkeypatch, tmp_path / "notes.xlsx", "CSV (*.csv)", private=True)
    sheet = openpyxl.load_workbook(tmp_path / "notes.xlsx")["notes"]
    header = [cell.value for cell in sheet[1]]
    first = dict(zip(header, [cell.value for cell in sheet[2]], strict=True))
    assert first["question_text"]
    _export(window, monkeypatch, tmp_path / "n.json", "JSON (can be merged by notes import)",
            private=False)  # fmt: skip
    doc = json.loads((tmp_path / "n.json").read_text())
    assert [v["verdict"] for v in doc["review_verdicts"]] == ["unclear_options"]


def test_an_export_over_the_audit_file_is_refused(window: MainWindow) -> None:
    audit = window.opening.session.db.path  # type: ignore[union-attr]
    before = audit.read_bytes()
    messages: list[str] = []
    window.notes_export.message.connect(messages.append)
    window.notes_export.write(audit, "csv", include_private=False)
    assert window.tasks.wait_idle()
    assert audit.read_bytes() == before
    assert messages[0].startswith("No notes written:")
