"""Exports for people and for programs (issue 34): the XLSX read back with openpyxl as a
non-programmer meets it, CSV and JSON keeping their machine columns, and one reviewer's
own export holding only what the blind rule lets them see (``notes export --as``)."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

import openpyxl
import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from tests.core.desk_helpers import cli

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

T, F = "TRUE", "FALSE"
SHEETS = ["Verdicts", "Decisions", "Flags and notes", "History", "Plan", "notes"]


@pytest.fixture
def reviewed(make_audit_db: Callable[..., Path], tmp_path: Path) -> tuple[Path, str]:
    """ann and bob (K = 2): both submitted Q001, bob also Q002, ann has only blind-answered
    Q003; cy decided Q001; ann flagged Q001 and bob Q002."""
    audit = make_audit_db()
    store = str(tmp_path / "team.sqlite")
    with open_audit(audit) as db, NotesStore.open(db, store) as notes:
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob"], per_question=2, created_by="coord")
        book.save_verdict("Q001", "ann", verdict="key_wrong", blind_answer=[T, F, T, T],
                          proposed_key=[T, F, T, T], confidence="high",
                          note="ann on Q001")  # fmt: skip
        book.save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, F, T, F],
                          note="bob on Q001")  # fmt: skip
        book.save_verdict("Q002", "bob", verdict="unclear_question", not_blind=True,
                          note="bob on Q002")  # fmt: skip
        book.record_blind("Q003", "ann", [T, T, F, F, T])
        Adjudication(notes).adjudicate("Q001", "cy", "key_corrected", key=[T, F, T, T],
                                       note="cy on Q001")  # fmt: skip
        notes.add_flag(question_id="Q001", category="other", note="ann's flag", reviewer="ann")
        notes.add_flag(question_id="Q002", category="other", note="bob's flag", reviewer="bob")
    return audit, store


def _export(audit: Path, store: str, out: Path, *extra: str) -> dict[str, Any]:
    fmt = out.suffix[1:]
    code, printed, err = cli("notes", "export", str(audit), "--format", fmt, "--out", str(out),
                             "--notes", store, *extra)  # fmt: skip
    assert (code, err) == (0, "")
    return json.loads(printed)  # type: ignore[no-any-return]


def _rows(sheet: Any) -> list[dict[str, object]]:
    values = list(sheet.iter_rows(values_only=True))
    return [dict(zip(values[0], row, strict=True)) for row in values[1:]]


def test_the_workbook_opens_on_verdicts_in_plain_words(
    reviewed: tuple[Path, str], tmp_path: Path
) -> None:
    audit, store = reviewed
    out = tmp_path / "review.xlsx"
    _export(audit, store, out, "--include-private")
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == SHEETS
    assert book.active.title == "Verdicts"
    verdicts = book["Verdicts"]
    headings = [c.value for c in verdicts[1]]
    assert headings[:12] == [
        "Question", "Reviewer", "Status", "Verdict", "Answered blind", "Blind answer",
        "Official key", "Proposed key", "Confidence", "Source checked", "Note",
        "Outcome for the question",
    ]  # fmt: skip
    assert not any("_" in str(h) for h in headings)  # no code names
    for sheet in book.worksheets:
        assert sheet.freeze_panes == "A2", sheet.title
        assert sheet.auto_filter.ref is not None
        assert sheet.auto_filter.ref.startswith("A1:"), sheet.title
        assert sheet["A1"].font.b or sheet.title == "notes"
    widths = {h: verdicts.column_dimensions[openpyxl.utils.get_column_letter(n)].width
              for n, h in enumerate(headings, start=1)}  # fmt: skip
    assert widths["Note"] >= 40
    assert 10 <= widths["Question"] <= 20
    rows = _rows(verdicts)
    ann = next(r for r in rows if (r["Question"], r["Reviewer"]) == ("Q001", "ann"))
    assert (ann["Status"], ann["Verdict"], ann["Answered blind"], ann["Confidence"]) == (
        "Submitted", "Key wrong", "Yes", "High",
    )  # fmt: skip
    assert ann["Official key"] == "A TRUE, B FALSE, C TRUE, D FALSE"
    assert ann["Proposed key"] == "A TRUE, B FALSE, C TRUE, D TRUE"
    assert ann["Outcome for the question"] == "Key corrected: A TRUE, B FALSE, C TRUE, D TRUE"
    assert isinstance(ann["First recorded (UTC)"], datetime)
    cell = verdicts.cell(row=2, column=headings.index("Last changed (UTC)") + 1)
    assert cell.is_date
    assert cell.number_format == "yyyy-mm-dd hh:mm:ss"
    draft = next(r for r in rows if (r["Question"], r["Reviewer"]) == ("Q003", "ann"))
    assert (draft["Status"], draft["Verdict"]) == ("Draft", "(not chosen yet)")
    decisions = _rows(book["Decisions"])
    assert [(d["Question"], d["Decision"], d["Corrected key"], d["Adjudicator"])
            for d in decisions] == [("Q001", "Key corrected", "A TRUE, B FALSE, C TRUE, D TRUE",
                                     "cy")]  # fmt: skip
    assert isinstance(decisions[0]["Decided (UTC)"], datetime)
    history = _rows(book["History"])
    assert len(history) == 7  # 4 verdicts made in one step each, 1 decision, 2 flags
    assert all(isinstance(r["When (UTC)"], datetime) for r in history)
    assert [r["When (UTC)"] for r in history] == sorted(r["When (UTC)"] for r in history)  # type: ignore[type-var]
    told = " | ".join(str(r["Changes"]) for r in history)
    assert "verdict: — → Key wrong" in told
    assert "decision: — → Key corrected" in told
    assert "{" not in told  # words, not JSON
    plan = _rows(book["Plan"])
    assert {(r["Made by"], r["In force"]) for r in plan} == {("coord", "Yes")}
    assert isinstance(plan[0]["Plan made (UTC)"], datetime)
    book.close()


def test_csv_and_json_keep_the_machine_columns(reviewed: tuple[Path, str], tmp_path: Path) -> None:
    audit, store = reviewed
    _export(audit, store, tmp_path / "n.csv")
    with open(tmp_path / "n.csv", encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {"kind", "item_id", "question_id", "verdict", "blind", "blind_answer",
            "proposed_key", "decision", "corrected_key"} <= set(rows[0])  # fmt: skip
    assert sorted(r["kind"] for r in rows) == ["flag"] * 2 + ["review_decision"] + [
        "review_verdict"] * 4  # fmt: skip
    _export(audit, store, tmp_path / "n.json")
    doc = json.loads((tmp_path / "n.json").read_text())
    assert doc["review_verdicts"][0]["blind_at"].endswith("Z")  # ISO times stay exact


def test_a_reviewers_own_export_holds_only_what_the_blind_rule_lets_them_see(
    reviewed: tuple[Path, str], tmp_path: Path
) -> None:
    audit, store = reviewed

    def seen(name: str | None) -> tuple[set[tuple[str, str]], set[str], set[str]]:
        out = tmp_path / f"{name}.json"
        _export(audit, store, out, *(() if name is None else ("--as", name)))
        doc = json.loads(out.read_text())
        verdicts = {(v["question_id"], v["reviewer"]) for v in doc["review_verdicts"]}
        return verdicts, {d["question_id"] for d in doc["review_decisions"]}, {
            f["note"] for f in doc["flags"]}  # fmt: skip

    every = ({("Q001", "ann"), ("Q001", "bob"), ("Q002", "bob"), ("Q003", "ann")}, {"Q001"},
             {"ann's flag", "bob's flag"})  # fmt: skip
    assert seen(None) == every
    assert seen("cy") == every  # not a reviewer of the plan: no limit
    # ann submitted only Q001: bob's Q002 verdict and flag stay sealed
    assert seen("ANN") == ({("Q001", "ann"), ("Q001", "bob"), ("Q003", "ann")}, {"Q001"},
                           {"ann's flag"})  # fmt: skip
    # bob never sees ann's blind answer on Q003 (he has not submitted Q003)
    assert seen("bob") == ({("Q001", "ann"), ("Q001", "bob"), ("Q002", "bob")}, {"Q001"},
                           {"ann's flag", "bob's flag"})  # fmt: skip
    out = tmp_path / "ann.xlsx"
    _export(audit, store, out, "--as", "ann")
    book = openpyxl.load_workbook(out)
    texts = json.dumps([[c for c in row] for s in book.worksheets
                        for row in s.iter_rows(values_only=True)], default=str)  # fmt: skip
    book.close()
    assert "bob on Q002" not in texts
    assert "bob's flag" not in texts
    bad = ("--as", "a\u200bnn")  # a zero-width space in the name
    code, printed, err = cli("notes", "export", str(audit), "--format", "json", "--out",
                             str(tmp_path / "x.json"), "--notes", store, *bad)  # fmt: skip
    assert (code, printed) == (2, "")
    assert err.startswith("error: ")


def test_flag_categories_read_as_words_in_the_workbook_and_as_codes_for_programs(
    reviewed: tuple[Path, str], tmp_path: Path
) -> None:
    audit, store = reviewed
    with open_audit(audit) as db, NotesStore.open(db, store) as notes:
        (bobs,) = [f for f in notes.flags() if f.reviewer == "bob"]
        assert bobs.option is None
        notes.edit_flag(bobs.flag_id, reviewer="bob", category="option_overlap", option=1)
    out = tmp_path / "review.xlsx"
    _export(audit, store, out)
    book = openpyxl.load_workbook(out)
    flags = {r["Reviewer"]: (r["Category"], r["Severity"], r["State"])
             for r in _rows(book["Flags and notes"])}  # fmt: skip
    assert flags == {
        "ann": ("Other", "Medium", "Open"),
        "bob": ("Options overlap", "Medium", "Open"),
    }
    told = [str(r["Changes"]) for r in _rows(book["History"]) if r["Item"] == "Flag"]
    # as the window's flag history says it: the whole question, then option B
    assert "option: whole question → B; category: Other → Options overlap" in told
    machine = {r["reviewer"]: r["category"] for r in _rows(book["notes"]) if r["kind"] == "flag"}
    assert machine == {"ann": "other", "bob": "option_overlap"}
    book.close()
