"""The scores report as a reader prints it (headless Chromium, A4 landscape): every
column of every track there, nothing off the page, run ids never broken inside.

It had been one table of 28 columns per track: printed, everything right of
"Attempts" fell off the page, and run ids broke at their hyphens over four lines.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ai4hse_desk.audit import open_audit
from ai4hse_desk.scores import track_tables
from ai4hse_desk.scores.report_html import (
    SensitivityReport,
    build_report,
    column_groups,
    excluded_questions,
)
from ai4hse_desk.scores.sensitivity import SENSITIVITY_COLUMNS, sensitivity_rows
from ai4hse_desk.scores.table_rows import COLUMNS, FROZEN_KEYS
from ai4hse_desk.verdicts.rescore import rescore
from tests.core.pdf_print import A4, pdf_pages, pdf_text, print_to_pdf, word_boxes_inside

if TYPE_CHECKING:
    from pathlib import Path


def _report(demo: Path) -> tuple[str, list[str]]:
    with open_audit(demo) as db:
        runs = rescore(db).runs
        settings = {run.run_id: run for run in db.runs()}
        explored = rescore(db, exclude_questions={"Q001"}).runs
        questions = {q.question_id: q for q in db.questions()}
    left_out = excluded_questions({"Q001"}, questions, include_private=False)
    exploration = SensitivityReport("key flagged", left_out, sensitivity_rows(runs, explored))
    tables = track_tables(runs, settings)
    page = build_report(audit={"file": demo.name}, tables=tables, sensitivity=exploration)
    return page, [str(run["run_id"]) for run in runs]


def test_every_column_is_in_one_printed_table_led_by_who_ran_it() -> None:
    groups = column_groups()
    assert [title for title, _ in groups] == ["", "Attempts", "Run settings"]
    lead = [c.key for c in COLUMNS if c.key in FROZEN_KEYS]
    assert lead == ["model", "run_id"]
    rest = [c.key for _, columns in groups for c in columns[len(lead) :]]
    assert all([c.key for c in columns[: len(lead)]] == lead for _, columns in groups)
    assert sorted(rest) == sorted(c.key for c in COLUMNS if c.key not in FROZEN_KEYS)
    assert len(rest) == len(set(rest))  # each once
    assert max(len(columns) for _, columns in groups) <= 14


def test_the_report_prints_on_a4_landscape_whole(demo_db: Path, tmp_path: Path) -> None:
    page, run_ids = _report(demo_db)
    official = page[: page.index('<section class="exploration"')]
    tracks = official.count("<h2>")
    assert tracks == 3
    for column in COLUMNS:  # on screen: every column once per track
        assert official.count(f">{column.header}</th>") == tracks * (
            len(column_groups()) if column.key in FROZEN_KEYS else 1
        ), column.header
    html_file = tmp_path / "scores.html"
    html_file.write_text(page, encoding="utf-8")
    pdf = tmp_path / "scores.pdf"
    print_to_pdf(html_file, pdf, tmp_path / "profile")
    pages, size = pdf_pages(pdf)
    assert size == (842, 595)  # A4, landscape
    assert pages >= 3
    word_boxes_inside(pdf, A4[1], A4[0])  # nothing runs off the page
    text = pdf_text(pdf, "-layout")
    for header in ("Always-FALSE baseline", "Runner ≠ desk", "Protocol", "Provider routing",
                   "Concurrency", "Token cap"):  # fmt: skip
        assert header in text, header  # the columns that used to fall off
    assert re.search(r"Δ\s+F1", text)
    assert [c.header for c in SENSITIVITY_COLUMNS][-1] == "Δ F1"  # the last one, printed
    for run_id in run_ids:  # on one line, never broken at a hyphen
        assert run_id in text, run_id
