"""Scores leaving the desk: CSV/XLSX tables (formula guard, exact numbers) and the HTML report."""

from __future__ import annotations

import csv
import html
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import Question, open_audit
from ai4hse_desk.display.cells import guard_cell
from ai4hse_desk.scores import (
    COLUMNS,
    ScoreRow,
    sensitivity_rows,
    track_tables,
    write_csv,
    write_xlsx,
)
from ai4hse_desk.scores.report_html import (
    ReportPlot,
    SensitivityReport,
    build_report,
    excluded_questions,
)
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from pathlib import Path

EVIL_MODEL = '=HYPERLINK("http://x","<b>m</b>")'


@pytest.fixture
def scored(audit_db: Path) -> tuple[dict[str, list[ScoreRow]], list[Question], dict[str, Any]]:
    """Tables of the default audit db, with a formula-like, markup-like model name."""
    with open_audit(audit_db) as db:
        runs = rescore(db).runs
        settings = {run.run_id: run for run in db.runs()}
        questions = db.questions()
        exploration = rescore(db, exclude_questions={"Q001"}).runs
    runs = [{**run, "model": EVIL_MODEL} if run["run_id"] == "r1" else run for run in runs]
    return track_tables(runs, settings), questions, {"runs": runs, "explored": exploration}


def test_guard_cell_prefixes_formula_like_text() -> None:
    for text in ("=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"):
        assert guard_cell(text) == "'" + text
    assert guard_cell("model-a") == "model-a"
    assert guard_cell(-0.5) == -0.5  # numbers are numbers
    assert guard_cell(None) is None


def test_csv_has_exact_numbers_words_for_missing_rates_and_guards(
    scored: tuple[dict[str, list[ScoreRow]], list[Question], dict[str, Any]], tmp_path: Path
) -> None:
    tables, _, extra = scored
    path = write_csv(tmp_path / "scores.csv", tables)
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["track"] for row in rows] == [
        "answer_only",
        "reasoning_assisted",
        "structured_output",
    ]
    assert [row["rank_in_track"] for row in rows] == ["1", "1", "1"]
    r1, r2, r3 = rows
    assert r1["model"] == "'" + EVIL_MODEL
    run1 = next(run for run in extra["runs"] if run["run_id"] == "r1")
    for key in ("exact_accuracy", "valid_accuracy", "coverage", "f1", "hamming_loss"):
        assert float(r1[key]) == run1[key]  # every digit survives
        assert r1[key] == repr(run1[key])
    assert r1["temperature"] == "0.0"
    assert r2["temperature"] == "provider default"
    assert r3["exact_accuracy"] == "unfinished — no aggregate score"
    assert r3["attempts"] == "10"
    assert r3["consistency_index"] == "unfinished — no aggregate score"


def test_xlsx_has_one_sheet_per_track(
    scored: tuple[dict[str, list[ScoreRow]], list[Question], dict[str, Any]], tmp_path: Path
) -> None:
    import openpyxl

    tables, _, extra = scored
    path = write_xlsx(tmp_path / "scores.xlsx", tables)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["Answer only", "Reasoning assisted", "Structured output"]
    sheet = book["Answer only"]
    header = [cell.value for cell in sheet[1]]
    assert header == [col.key for col in COLUMNS]
    values = dict(zip(header, [cell.value for cell in sheet[2]], strict=True))
    assert values["model"] == "'" + EVIL_MODEL
    assert sheet.cell(2, 1).data_type == "s"  # text, not a formula
    run1 = next(run for run in extra["runs"] if run["run_id"] == "r1")
    assert values["valid_accuracy"] == run1["valid_accuracy"]
    unfinished = dict(zip(header, [c.value for c in book["Structured output"][2]], strict=True))
    assert unfinished["exact_accuracy"] == "unfinished — no aggregate score"


def test_report_holds_aggregates_but_no_question_text(
    scored: tuple[dict[str, list[ScoreRow]], list[Question], dict[str, Any]],
) -> None:
    tables, questions, extra = scored
    rows = sensitivity_rows(extra["runs"], extra["explored"])
    records = {q.question_id: q for q in questions}
    report = SensitivityReport("key flagged", excluded_questions({"Q001"}, records, False), rows)
    page = build_report(audit={"file": "audit.sqlite"}, tables=tables, sensitivity=report)
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page.lower()
    assert "<b>m</b>" not in page
    assert html.escape(EVIL_MODEL, quote=True) in page
    for question in questions:
        assert question.text not in page
        assert html.escape(question.text, quote=True) not in page
        for option in question.options:
            assert html.escape(option.text, quote=True) not in page
    assert "Answer only" in page
    assert "Reasoning assisted" in page
    assert "95% Wilson" in page
    assert "no pooled interval" in page
    assert "not official" in page
    assert "Q001" in page
    assert "key flagged" in page
    assert "unfinished — no aggregate score" in page
    run1 = next(run for run in extra["runs"] if run["run_id"] == "r1")
    assert f'title="{run1["valid_accuracy"]!r}' in page  # exact value beside the rounded one


def test_report_shows_the_excluded_questions_text_only_when_asked(
    scored: tuple[dict[str, list[ScoreRow]], list[Question], dict[str, Any]],
) -> None:
    tables, questions, extra = scored
    records = {q.question_id: q for q in questions}
    q1 = records["Q001"]
    rows = sensitivity_rows(extra["runs"], extra["explored"])
    excluded = excluded_questions({"Q001"}, records, True)
    page = build_report(
        audit={},
        tables=tables,
        sensitivity=SensitivityReport("flag", excluded, rows),
        include_private=True,
    )
    assert html.escape(q1.text, quote=True) in page
    assert html.escape(q1.options[0].text, quote=True) in page
    assert "includes private question text" in page
    hidden = excluded_questions({"Q001"}, records, False)
    assert hidden[0].text is None
    assert hidden[0].options == ()


def test_report_embeds_plots_as_data_uris_and_rejects_other_types(
    scored: tuple[dict[str, list[ScoreRow]], list[Question], dict[str, Any]],
) -> None:
    tables = scored[0]
    svg = ReportPlot("a <plot>", "image/svg+xml", b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    page = build_report(audit={}, tables=tables, plots=[svg])
    assert 'src="data:image/svg+xml;base64,' in page
    assert "a &lt;plot&gt;" in page
    assert "<svg xmlns" not in page  # never inline markup
    with pytest.raises(ValueError, match="unsupported"):
        build_report(audit={}, tables=tables, plots=[ReportPlot("x", "text/html", b"<p>")])


def test_report_shows_a_bidi_override_in_a_model_name_as_its_name(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        runs = rescore(db).runs
        settings = {run.run_id: run for run in db.runs()}
    evil = "m\u202eLTR\u200b"  # would reverse the rest of its cell, and hide a character
    runs = [{**run, "model": evil} if run["run_id"] == "r1" else run for run in runs]
    page = build_report(audit={"file": "audit.sqlite"}, tables=track_tables(runs, settings))
    assert "m⟨RLO⟩LTR⟨ZWSP⟩" in page
    assert "\u202e" not in page
    assert "\u200b" not in page
