"""How the scores tables read: percentages, "undefined", unscored runs, settings, order."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.display.format import PROVIDER_DEFAULT, setting_text
from ai4hse_desk.scores import (
    COLUMNS,
    NO_SCORE_CELL,
    UNDEFINED,
    UNFINISHED,
    ScoreRow,
    column,
    display,
    exact_text,
    percent_text,
    sensitivity_rows,
    track_tables,
    track_title,
)
from ai4hse_desk.scores.sensitivity import SENSITIVITY_COLUMNS
from ai4hse_desk.scores.table_rows import PENDING
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def _scored(**changes: Any) -> dict[str, Any]:
    run: dict[str, Any] = {
        "run_id": "r1", "model": "m", "track": "answer_only", "protocol_version": 10,
        "status": "complete", "scored": True, "attempts": 4, "correct": 1, "valid": 3,
        "exact_accuracy": 0.25, "coverage": 0.75, "valid_accuracy": 1 / 3,
        "option_accuracy": 0.9, "precision": None, "recall": 0.5, "f1": None,
        "hamming_loss": 0.1, "strict_format_rate": 0.0,
        "errors": {"provider_error": 1, "parse_error": 0, "incomplete": 0, "by_status": {}},
        "baselines": {"always_true": 0.0005, "always_false": 0.0},
        "repetitions": [], "slices": {}, "consistency_index": "void", "disagreements": 2,
    }  # fmt: skip
    run.update(changes)
    return run


def _cell(key: str, run: dict[str, Any]) -> str:
    return display(column(key), ScoreRow(run, None))


def test_percentages_have_one_decimal_and_two_when_one_would_hide_a_rate() -> None:
    assert percent_text(0.64) == "64.0%"
    assert percent_text(1 / 3) == "33.3%"
    assert percent_text(0.0) == "0.0%"
    assert percent_text(0.0005) == "0.05%"
    assert percent_text(0.0004) == "0.04%"
    assert percent_text(0.005) == "0.50%"
    assert percent_text(0.01) == "1.0%"
    assert percent_text(1.0) == "100.0%"


def test_cells_of_a_scored_run() -> None:
    run = _scored()
    assert _cell("exact_accuracy", run) == "25.0%"
    assert _cell("valid_accuracy", run) == "33.3%"
    assert _cell("always_true", run) == "0.05%"
    assert _cell("always_false", run) == "0.0%"  # a real zero stays zero
    assert _cell("consistency_index", run) == "void"
    assert _cell("disagreements", run) == "2"
    assert _cell("provider_error", run) == "1"


def test_undefined_reads_undefined_never_zero() -> None:
    run = _scored(valid=0, valid_accuracy=None, precision=None, f1=None)
    for key in ("valid_accuracy", "precision", "f1"):
        assert _cell(key, run) == UNDEFINED == "undefined"
        assert exact_text(column(key), ScoreRow(run, None)) == UNDEFINED
    assert column("valid_accuracy").raw(ScoreRow(run, None)) is None


def test_unscored_runs_have_no_aggregate_but_keep_their_counts() -> None:
    run = _scored(status="unfinished", scored=False, exact_accuracy=None, coverage=None)
    assert _cell("exact_accuracy", run) == UNFINISHED == "unfinished — no aggregate score"
    rates = [c for c in COLUMNS if c.kind in ("percent", "score") and c.key != "exact_accuracy"]
    assert rates
    for col in rates:
        assert display(col, ScoreRow(run, None)) == NO_SCORE_CELL
        assert exact_text(col, ScoreRow(run, None)) == UNFINISHED
    assert _cell("attempts", run) == "4"
    assert _cell("disagreements", run) == "2"
    pending = _scored(scored=False, exact_accuracy=None)
    assert _cell("exact_accuracy", pending) == PENDING


def test_exact_text_has_every_digit() -> None:
    row = ScoreRow(_scored(), None)
    assert exact_text(column("valid_accuracy"), row) == f"{1 / 3!r} (1 of 3)"
    assert exact_text(column("option_accuracy"), row) == "0.9"


def test_settings_read_for_people(audit_db: Path) -> None:
    assert setting_text("temperature", None) == PROVIDER_DEFAULT == "provider default"
    assert setting_text("temperature", 0.0) == "0"
    assert setting_text("temperature", 0.7) == "0.7"
    assert setting_text("max_tokens", 65536) == "65,536"
    assert setting_text("max_tokens", None) == "not set"
    assert setting_text("reasoning_effort", None) == "not set"
    assert setting_text("protocol_version", 9) == "9"  # as the detail panel says it
    assert setting_text("concurrency", 10_000) == "10,000"
    with open_audit(audit_db) as db:
        settings = {run.run_id: run for run in db.runs()}
        tables = track_tables(rescore(db).runs, settings)
    r2 = tables["reasoning_assisted"][0]
    cells = {col.key: display(col, r2) for col in COLUMNS}
    assert cells["temperature"] == "provider default"
    assert cells["reasoning_effort"] == "medium"
    assert cells["max_tokens"] == "4,096"
    assert cells["repetitions"] == "2"
    assert cells["concurrency"] == "8"
    r1 = tables["answer_only"][0]
    assert display(column("provider_routing"), r1) == "fast"
    assert display(column("temperature"), r1) == "0"


def test_one_table_per_track_in_rescore_order(
    make_audit_db: Callable[..., Path], make_audit_content: Callable[..., Any]
) -> None:
    content = make_audit_content()
    extra = {**content.runs[0], "run_id": "r0", "model": "model-z"}
    attempts = [
        {**a, "attempt_id": 1000 + i, "run_id": "r0"}
        for i, a in enumerate(content.attempts)
        if a["run_id"] == "r1"
    ]
    content = replace(content, runs=(*content.runs, extra), attempts=(*content.attempts, *attempts))
    with open_audit(make_audit_db(content=content)) as db:
        result = rescore(db)
        tables = track_tables(result.runs, {run.run_id: run for run in db.runs()})
    assert list(tables) == ["answer_only", "reasoning_assisted", "structured_output"]
    flat = [row.run for rows in tables.values() for row in rows]
    assert flat == result.runs
    assert [row.run_id for row in tables["answer_only"]] == ["r0", "r1"]  # tie → run id
    assert all(row.track == track for track, rows in tables.items() for row in rows)
    assert track_title("answer_only") == "Answer only"
    assert track_title("new_track") == "new_track"


def test_sensitivity_rows_pair_runs_and_show_differences() -> None:
    official = [_scored(), _scored(run_id="r2", status="unfinished", scored=False)]
    explored = [_scored(exact_accuracy=0.5, f1=None), _scored(run_id="r2", scored=False)]
    rows = sensitivity_rows(official, explored)
    assert [row.run_id for row in rows] == ["r1", "r2"]
    cells = {col.key: display(col, rows[0]) for col in SENSITIVITY_COLUMNS}
    assert cells["exact_accuracy"] == "25.0%"
    assert cells["explored_exact_accuracy"] == "50.0%"
    assert cells["delta_exact_accuracy"] == "+25.00 pp"
    assert cells["delta_f1"] == "undefined"
    delta = next(c for c in SENSITIVITY_COLUMNS if c.key == "delta_exact_accuracy")
    assert delta.raw(rows[0]) == 0.25
    unscored = {col.key: display(col, rows[1]) for col in SENSITIVITY_COLUMNS}
    assert unscored["exact_accuracy"] == UNFINISHED
    assert sensitivity_rows(official, None)[0].explored is None


@pytest.mark.parametrize("key", [c.key for c in COLUMNS])
def test_every_column_reads_without_settings(key: str) -> None:
    assert isinstance(display(column(key), ScoreRow(_scored(), None)), str)
