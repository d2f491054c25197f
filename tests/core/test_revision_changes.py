"""What a revision changed, as every history of the notes store keeps it: flags, attempt
notes and review verdicts record it in one form (:mod:`ai4hse_desk.notes.changes`), read
it back as it was entered, refuse a damaged column by naming the revision, and export
it as the store reads it."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.changes import as_json, column_text, diff, read_column, sheet_text
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.read import read_review

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

T, F, U = "TRUE", "FALSE", "UNSURE"


def _columns(store: Path, table: str) -> list[str]:
    with sqlite3.connect(store) as conn:
        rows = conn.execute(f"SELECT changes FROM {table} ORDER BY at").fetchall()
    conn.close()
    return [str(row[0]) for row in rows]


def _review(notes: NotesStore) -> None:
    book = ReviewBook(notes)
    book.record_blind("Q001", "ann", [T, F, U, F])
    book.save_verdict("Q001", "ann", verdict="key_wrong", proposed_key=[T, F, T, T], note="Café")


def test_a_flag_and_a_verdict_keep_their_changes_in_one_form(
    audit: AuditDB, tmp_path: Path
) -> None:
    store = tmp_path / "notes.sqlite"
    with NotesStore.open(audit, str(store)) as notes:
        flag = notes.add_flag(question_id="Q001", category="other", note="first", reviewer="ann")
        notes.edit_flag(flag.flag_id, reviewer="ann", note="Café ≠ café", severity="high")
        _review(notes)
        edit = notes.history(flag.flag_id)[-1]
        verdict = notes.run(read_review).verdicts[0]
    assert dict(edit.changes) == {"note": ("first", "Café ≠ café"), "severity": ("medium", "high")}
    first, second = verdict.revisions
    assert first.changes["blind_answer"] == (None, (T, F, U, F))  # a tuple again, as entered
    assert second.changes["proposed_key"] == (None, (T, F, T, T))
    assert second.changes["note"] == ("", "Café")
    assert "blind_answer" not in second.changes  # what did not change is not listed
    texts = _columns(store, "review_revisions")[-1:] + _columns(store, "review_verdict_revisions")
    for text in texts:  # one form: compact JSON, fields sorted, words as written
        data = json.loads(text)
        assert text == json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        assert all(isinstance(pair, list) and len(pair) == 2 for pair in data.values())
    assert "Café ≠ café" in texts[0]
    assert "Café" in texts[-1]


def _plant_verdict_changes(store: Path, changes: str) -> str:
    with sqlite3.connect(store) as conn:
        (revision_id,) = conn.execute(
            "SELECT revision_id FROM review_verdict_revisions ORDER BY at DESC LIMIT 1"
        ).fetchone()
        conn.execute(
            "UPDATE review_verdict_revisions SET changes = ? WHERE revision_id = ?",
            (changes, revision_id),
        )
    conn.close()
    return str(revision_id)


@pytest.mark.parametrize(
    "changes",
    ["{not json", '["note"]', '{"note": ["only one"]}', '{"mood": ["sad", "glad"]}', "null"],
)
def test_a_damaged_verdict_revision_is_named_not_a_crash(
    audit: AuditDB, tmp_path: Path, changes: str
) -> None:
    store = tmp_path / "notes.sqlite"
    with NotesStore.open(audit, str(store)) as notes:
        _review(notes)
    revision_id = _plant_verdict_changes(store, changes)
    with (
        NotesStore.open(audit, str(store)) as notes,
        pytest.raises(ReviewError, match=f"damaged verdict revision: {revision_id}"),
    ):
        notes.run(read_review)


def test_a_flag_revision_with_a_pair_missing_is_damaged(audit: AuditDB, tmp_path: Path) -> None:
    store = tmp_path / "notes.sqlite"
    with NotesStore.open(audit, str(store)) as notes:
        flag = notes.add_flag(question_id="Q001", category="other", note="n", reviewer="ann")
    with sqlite3.connect(store) as conn:
        conn.execute("UPDATE review_revisions SET changes = ?", ('{"note": [null]}',))
    conn.close()
    with NotesStore.open(audit, str(store)) as notes, pytest.raises(ReviewError, match="damaged"):
        notes.history(flag.flag_id)


def test_the_export_writes_changes_as_the_store_reads_them(audit: AuditDB, tmp_path: Path) -> None:
    with NotesStore.open(audit, str(tmp_path / "notes.sqlite")) as notes:
        flag = notes.add_flag(question_id="Q001", category="other", note="a", reviewer="ann")
        notes.edit_flag(flag.flag_id, reviewer="ann", severity="low", note="b")
        _review(notes)
        export_notes(notes, "json", tmp_path / "out.json")
    doc: dict[str, Any] = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    flag_changes = doc["flags"][0]["revisions"][1]["changes"]
    assert flag_changes == {"note": ["a", "b"], "severity": ["medium", "low"]}
    assert list(flag_changes) == ["note", "severity"]  # fields sorted, as in the store
    blind = doc["review_verdicts"][0]["revisions"][0]["changes"]
    assert blind["blind_answer"] == [None, [T, F, U, F]]  # a list, not the column's text
    assert blind["blind"] == [None, True]


def test_diff_lists_what_differs_and_a_field_not_there_before_as_none() -> None:
    assert diff({"a": 1, "b": 2}, {"a": 1, "b": 3, "c": None, "d": "x"}) == {
        "b": (2, 3),
        "d": (None, "x"),
    }
    assert diff({"a": 1}, {"a": 1}) == {}


def test_a_conversion_applies_to_each_value_both_ways() -> None:
    changes = {"k": ((T,), (T, F)), "n": ("x", "y")}

    def stored(name: str, value: object) -> object:
        return json.dumps(value) if name == "k" and value is not None else value

    def loaded(name: str, value: Any) -> object:
        return tuple(json.loads(value)) if name == "k" and value is not None else value

    text = column_text(changes, stored)
    assert json.loads(text) == {"k": ['["TRUE"]', '["TRUE", "FALSE"]'], "n": ["x", "y"]}
    assert read_column(text, "damaged", known={"k", "n"}, value=loaded) == changes
    with pytest.raises(ReviewError, match=r"^damaged$"):
        read_column(text, "damaged", known={"n"})
    assert as_json({"b": (1, 2), "a": (3, 4)}) == {"a": [3, 4], "b": [1, 2]}


@pytest.mark.parametrize("text", [None, b'{"note": ["a", "b"]}', "[" * 100_000, "", "{}x"])
def test_a_column_that_is_no_json_text_is_damaged_not_a_crash(text: object) -> None:
    with pytest.raises(ReviewError, match=r"^damaged: r1$"):
        read_column(text, "damaged: r1")


def test_a_workbook_cell_shows_the_changes_readably() -> None:
    """The History sheets: words as written, a space after each separator, fields sorted,
    each value as the export's JSON gives it."""
    assert sheet_text({"state": ("open", "resolved"), "note": ("", "Café ≠ café")}) == (
        '{"note": ["", "Café ≠ café"], "state": ["open", "resolved"]}'
    )
    blind = sheet_text({"blind": (None, "blind")}, lambda _n, v: v if v is None else v == "blind")
    assert blind == '{"blind": [null, true]}'
