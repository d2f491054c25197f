"""Exports (CSV, JSON, XLSX) and JSON imports: formula guard, private texts, atomic
writes, idempotent merges."""

from __future__ import annotations

import csv
import json
from typing import TYPE_CHECKING, Any

import openpyxl
import pytest

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.frames import EXPORT_COLUMNS
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review import exports
from ai4hse_desk.review.exports import EXPORT_FORMAT, export_notes
from ai4hse_desk.review.imports import import_notes

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


FORMULAS = ('=HYPERLINK("http://x")', "+1+2", "-3", "@SUM(A1)", "\tcmd", "\rcmd")
PRIVATE_PUBLIC = ("question_text", "option_text", "answer_key", "raw_response")


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def read_xlsx(path: Path, sheet: str = "notes") -> list[dict[str, object]]:
    book = openpyxl.load_workbook(path)
    rows = list(book[sheet].iter_rows(values_only=True))
    book.close()
    header = [str(h) for h in rows[0]]
    return [dict(zip(header, row, strict=True)) for row in rows[1:]]


def all_text(path: Path) -> str:
    """Everything an export says, as text (XLSX: every cell of every sheet)."""
    if path.suffix != ".xlsx":
        return path.read_text(encoding="utf-8-sig")
    book = openpyxl.load_workbook(path)
    cells = [
        str(cell)
        for sheet in book.worksheets
        for row in sheet.iter_rows(values_only=True)
        for cell in row
    ]
    book.close()
    return "\n".join(cells)


def test_columns_are_declared_once_with_privacy() -> None:
    names = [c.name for c in EXPORT_COLUMNS]
    assert len(names) == len(set(names))
    assert [c.name for c in EXPORT_COLUMNS if c.private] == list(PRIVATE_PUBLIC)
    assert {c.dtype for c in EXPORT_COLUMNS} == {"string", "Int64"}
    assert all(c.doc for c in EXPORT_COLUMNS)


def test_formula_cells_are_neutralised_in_csv_and_xlsx(store: NotesStore, tmp_path: Path) -> None:
    for text in FORMULAS:
        store.add_flag(question_id="Q001", category="other", note=text, reviewer="=ann")
    store.add_flag(question_id="Q002", category="other", note="plain 1+1", reviewer="ann")
    export_notes(store, "csv", tmp_path / "n.csv")
    export_notes(store, "xlsx", tmp_path / "n.xlsx")
    expected = ["'" + text for text in FORMULAS] + ["plain 1+1"]
    csv_rows = read_csv(tmp_path / "n.csv")
    assert [row["note"] for row in csv_rows] == expected
    assert {row["reviewer"] for row in csv_rows} == {"'=ann", "ann"}
    xlsx_rows = read_xlsx(tmp_path / "n.xlsx")
    # XML turns a stored carriage return into a line feed on reading; the ' stays first.
    assert [row["note"] for row in xlsx_rows] == [t.replace("\r", "\n") for t in expected]
    book = openpyxl.load_workbook(tmp_path / "n.xlsx")
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
    book.close()
    assert xlsx_rows[0]["option"] is None
    assert xlsx_rows[0]["revisions"] == 1
    history = read_xlsx(tmp_path / "n.xlsx", "History")
    assert len(history) == len(FORMULAS) + 1
    assert history[0]["What happened"] == "Created"
    assert {str(row["By"]) for row in history} == {"'=ann", "ann"}
    export_notes(store, "json", tmp_path / "n.json")
    doc = json.loads((tmp_path / "n.json").read_text(encoding="utf-8"))
    assert [f["note"] for f in doc["flags"]] == [*FORMULAS, "plain 1+1"]  # JSON stays exact


def _private_texts(audit: AuditDB, attempt_id: int) -> list[str]:
    question = audit.question("Q001")
    raw = audit.attempts_by_ids([attempt_id])[0].raw_response
    assert raw is not None
    return [question.text, question.options[0].text, raw]


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_private_texts_only_with_include_private(
    store: NotesStore, audit: AuditDB, audit_content: Any, tmp_path: Path, fmt: str
) -> None:
    special = [
        a["attempt_id"] for a in audit_content.attempts if "100% sure" in (a["raw_response"] or "")
    ]
    store.add_flag(question_id="Q001", category="key_incorrect", option=0, note="n", reviewer="a")
    store.add_attempt_note(attempt_id=special[0], note="look", reviewer="a")
    secrets = [*_private_texts(audit, 1), audit.attempts_by_ids(special)[0].raw_response or "?"]
    secrets = [s for s in secrets if len(s) > 12]
    assert len(secrets) >= 3
    public, private = tmp_path / f"public.{fmt}", tmp_path / f"private.{fmt}"
    summary = export_notes(store, fmt, public)
    assert summary["include_private"] is False
    assert summary["flags"] == 1
    export_notes(store, fmt, private, include_private=True)
    public_text, private_text = all_text(public), all_text(private)
    for secret in secrets:
        assert secret not in public_text
        assert json.dumps(secret)[1:-1] not in public_text
    assert audit.question("Q001").text in private_text
    assert "Safety glasses" in private_text
    assert "100% sure" in private_text
    for column in PRIVATE_PUBLIC:
        assert column not in public_text
        assert column in private_text


def test_exports_are_atomic_and_never_overwrite_the_audit(
    store: NotesStore, audit: AuditDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out" / "notes.csv"
    out.parent.mkdir()
    store.add_flag(question_id="Q001", category="other", note="first", reviewer="a")
    export_notes(store, "csv", out)
    before = out.read_bytes()

    def broken(path: Path, *_: object) -> None:
        path.write_text("half")
        raise OSError("disk full")

    monkeypatch.setattr(exports, "_write_csv", broken)
    with pytest.raises(ReviewError, match=r"cannot write .*notes\.csv: disk full"):
        export_notes(store, "csv", out)
    assert out.read_bytes() == before
    assert [p.name for p in out.parent.iterdir()] == ["notes.csv"]
    with pytest.raises(ReviewError, match="is the audit database"):
        export_notes(store, "json", audit.path)
    with pytest.raises(ReviewError, match="no such folder"):
        export_notes(store, "json", tmp_path / "missing" / "n.json")
    with pytest.raises(ReviewError, match="unknown export format"):
        export_notes(store, "pdf", tmp_path / "n.pdf")


def test_json_export_carries_format_fingerprint_and_revisions(
    store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    flag = store.add_flag(question_id="Q003", category="key_incorrect", note="x", reviewer="a")
    store.set_flag_state(flag.flag_id, "resolved", reviewer="b")
    store.add_attempt_note(attempt_id=3, note="odd", reviewer="b")
    export_notes(store, "json", tmp_path / "n.json")
    doc = json.loads((tmp_path / "n.json").read_text(encoding="utf-8"))
    assert (doc["format"], doc["version"]) == (EXPORT_FORMAT, 2)
    assert doc["audit"]["sha256"] == audit.fingerprint()
    assert doc["include_private"] is False
    (item,) = doc["flags"]
    assert item["item_id"] == flag.flag_id
    assert item["state"] == "resolved"
    assert [r["action"] for r in item["revisions"]] == ["create", "state"]
    assert item["revisions"][1]["changes"] == {"state": ["open", "resolved"]}
    assert doc["attempt_notes"][0]["attempt_id"] == 3


def _counts(notes: NotesStore) -> tuple[int, int, int]:
    return len(notes.flags()), len(notes.attempt_notes()), len(notes.revisions())


def test_import_merges_and_twice_adds_nothing(
    audit: AuditDB, tmp_path: Path, store_url: str
) -> None:
    with NotesStore.open(audit, str(tmp_path / "ann.sqlite")) as ann:
        flag = ann.add_flag(question_id="Q001", category="key_incorrect", note="a", reviewer="ann")
        ann.edit_flag(flag.flag_id, reviewer="ann", severity="high")
        ann.add_attempt_note(attempt_id=2, note="n", reviewer="ann")
        export_notes(ann, "json", tmp_path / "ann.json", include_private=True)
    with NotesStore.open(audit, store_url) as team:
        team.add_flag(question_id="Q002", category="other", note="b", reviewer="bob")
        first = import_notes(team, tmp_path / "ann.json")
        assert (first.items_added, first.revisions_added, first.warnings) == (2, 3, ())
        after_first = _counts(team)
        assert after_first == (2, 1, 4)
        second = import_notes(team, tmp_path / "ann.json")
        assert (second.items_added, second.revisions_added) == (0, 0)
        assert _counts(team) == after_first
        merged = {f.flag_id: f for f in team.flags()}
        assert merged[flag.flag_id].severity == "high"
        assert [r.action for r in team.history(flag.flag_id)] == ["create", "edit"]
        export_notes(team, "json", tmp_path / "team.json")
    with NotesStore.open(audit, str(tmp_path / "ann.sqlite")) as ann:
        back = import_notes(ann, tmp_path / "team.json")
        assert (back.items_added, back.revisions_added) == (1, 1)
        assert _counts(ann) == after_first


def test_import_checks_everything_before_adding_anything(
    store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    store.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
    store.add_flag(question_id="Q002", category="other", note="b", reviewer="ann")
    export_notes(store, "json", tmp_path / "good.json")
    doc = json.loads((tmp_path / "good.json").read_text(encoding="utf-8"))
    bad_cases: dict[str, Callable[[dict[str, Any]], object]] = {
        "unknown question": lambda d: d["flags"][1].update(question_id="Q999"),
        "option 9 is outside": lambda d: d["flags"][1]["revisions"][0]["values"].update(option=9),
        "not a UUID": lambda d: d["flags"][1].update(item_id="nope"),
        "unknown state": lambda d: d["flags"][1]["revisions"][0]["values"].update(state="gone"),
        "not a UTC time": lambda d: d["flags"][1]["revisions"][0].update(at="yesterday"),
        "version 3 is not supported": lambda d: d.update(version=3),
        "not a reviewer notes export": lambda d: d.update(format="other"),
    }
    with NotesStore.open(audit, str(tmp_path / "empty.sqlite")) as empty:
        for message, spoil in bad_cases.items():
            bad = json.loads(json.dumps(doc))
            spoil(bad)
            path = tmp_path / "bad.json"
            path.write_text(json.dumps(bad), encoding="utf-8")
            with pytest.raises(ReviewError, match=message):
                import_notes(empty, path)
            assert _counts(empty) == (0, 0, 0)
        (tmp_path / "text.json").write_text("{not json", encoding="utf-8")
        with pytest.raises(ReviewError, match="not JSON"):
            import_notes(empty, tmp_path / "text.json")
        with pytest.raises(ReviewError, match="no such file"):
            import_notes(empty, tmp_path / "missing.json")
    tampered = json.loads(json.dumps(doc))
    tampered["flags"][0]["question_id"] = "Q003"
    (tmp_path / "tampered.json").write_text(json.dumps(tampered), encoding="utf-8")
    with pytest.raises(ReviewError, match="differs from the one in this store"):
        import_notes(store, tmp_path / "tampered.json")
    assert _counts(store) == (2, 0, 2)


def test_an_other_flag_without_a_note_from_an_earlier_desk_imports_as_written(
    store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    """The rule that a flag of category other says what the problem is holds for new flags
    and edits; what someone wrote before it is imported as it is, never rewritten."""
    store.add_flag(question_id="Q001", category="typo_or_format", note="", reviewer="ann")
    export_notes(store, "json", tmp_path / "ann.json")
    doc = json.loads((tmp_path / "ann.json").read_text(encoding="utf-8"))
    (revision,) = doc["flags"][0]["revisions"]
    revision["values"]["category"] = "other"
    revision["changes"]["category"] = [None, "other"]
    doc["flags"][0]["category"] = "other"
    (tmp_path / "earlier.json").write_text(json.dumps(doc), encoding="utf-8")
    with NotesStore.open(audit, str(tmp_path / "bob.sqlite")) as team:
        assert import_notes(team, tmp_path / "earlier.json").items_added == 1
        (flag,) = team.flags()
        assert (flag.category, flag.note) == ("other", "")
        with pytest.raises(ReviewError, match="must say in its note"):
            team.edit_flag(flag.flag_id, reviewer="bob", severity="high")
        assert team.set_flag_state(flag.flag_id, "resolved", reviewer="bob").state == "resolved"


def test_import_from_another_audit_file_warns(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    other_store = str(tmp_path / "other.sqlite")
    with (
        open_audit(make_audit_db(extra_questions=1)) as other,
        NotesStore.open(other, other_store) as notes,
    ):
        notes.add_flag(question_id="Q004", category="typo_or_format", note="", reviewer="zed")
        export_notes(notes, "json", tmp_path / "other.json")
    with open_audit(make_audit_db()) as audit, NotesStore.open(audit) as notes:
        result = import_notes(notes, tmp_path / "other.json")
        assert result.items_added == 1
        assert len(result.warnings) == 1
        assert "another audit file" in result.warnings[0]
