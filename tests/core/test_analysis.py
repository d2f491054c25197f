"""``ai4hse_desk.analysis`` on real audit files: the frames say exactly what ``rescore`` and
the notes store say, private texts only when asked, and nothing is written."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import pandas as pd
import pytest

from ai4hse_desk.analysis import (
    ATTEMPT_COLUMNS,
    NOTE_COLUMNS,
    RUN_COLUMNS,
    attempts_df,
    column_docs,
    notes_df,
    runs_df,
)
from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.review.export_frames import REVIEW_COLUMNS
from ai4hse_desk.review.exports import export_notes
from tests.core.desk_helpers import cli, listing

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from ai4hse_desk.display.frames import FrameColumn
    from tests.core.conftest import DeskDirs

RUN_SETTINGS = ("provider", "provider_routing", "max_tokens", "temperature", "reasoning_effort",
                "concurrency", "prompt_template")  # fmt: skip


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The frame's rows as plain Python values, ``<NA>`` as ``None``."""
    plain = frame.astype(object).where(frame.notna(), None)
    return [dict(row) for row in plain.to_dict("records")]


def rescore_json(path: Path, *extra: str) -> dict[str, Any]:
    code, out, err = cli("rescore", str(path), *extra)
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def flattened(run: dict[str, Any]) -> dict[str, Any]:
    """A rescore run object as one flat row: errors and baselines spread out."""
    flat = {k: v for k, v in run.items() if k not in ("errors", "baselines")}
    errors = dict(run["errors"])
    flat.update({f"status_{k}": v for k, v in errors.pop("by_status").items()})
    flat.update(errors)
    flat.update(run["baselines"])
    return flat


@pytest.fixture
def mixed_db(make_audit_db: Callable[..., Path]) -> Path:
    """The default audit content: an unscored run, a disagreement, every kind of status."""
    return make_audit_db()


def test_runs_df_holds_every_rescore_figure_exactly(mixed_db: Path, demo_db: Path) -> None:
    for path in (mixed_db, demo_db):
        printed = rescore_json(path)["runs"]
        frame = runs_df(path)
        rows = records(frame)
        assert [row["run_id"] for row in rows] == [run["run_id"] for run in printed]  # order
        with open_audit(path) as db:
            settings = {run.run_id: run for run in db.runs()}
        for row, run in zip(rows, printed, strict=True):
            expected = flattened(run)
            assert {k: row[k] for k in expected} == expected
            assert set(row) == set(expected) | set(RUN_SETTINGS)
            for name in RUN_SETTINGS:
                assert row[name] == getattr(settings[run["run_id"]], name)
        shown = [{k: r[k] for k in flattened(p)} for r, p in zip(rows, printed, strict=True)]
        assert json.dumps(shown) == json.dumps([flattened(p) for p in printed])  # same digits


def test_runs_df_columns_are_typed_as_declared_and_undefined_rates_are_missing(
    mixed_db: Path,
) -> None:
    frame = runs_df(mixed_db)
    assert list(frame.columns) == [col.name for col in RUN_COLUMNS]
    assert {
        col.name: str(frame[col.name].dtype) for col in RUN_COLUMNS if col.dtype != "string"
    } == {col.name: col.dtype for col in RUN_COLUMNS if col.dtype != "string"}
    assert all(
        isinstance(frame[col.name].dtype, pd.StringDtype)
        for col in RUN_COLUMNS
        if col.dtype == "string"
    )
    unscored = frame.set_index("run_id").loc["r3"]
    assert not unscored["scored"]
    assert pd.isna(unscored["exact_accuracy"])  # not 0
    assert unscored["attempts"] == 10
    assert {f"status_{status.value}" for status in Status} <= set(frame.columns)


def test_attempts_df_is_rescore_per_attempt_with_run_and_question(mixed_db: Path) -> None:
    printed = rescore_json(mixed_db, "--per-attempt")["attempts"]
    frame = attempts_df(mixed_db)
    rows = records(frame)
    assert [
        {k: row[k] for k in attempt} for row, attempt in zip(rows, printed, strict=True)
    ] == printed
    with open_audit(mixed_db) as db:
        runs = {run.run_id: run for run in db.runs()}
        ordinals = {q.question_id: q.ordinal for q in db.questions()}
    for row in rows:
        assert row["model"] == runs[row["run_id"]].model
        assert row["track"] == runs[row["run_id"]].track.value
        assert row["ordinal"] == ordinals[row["question_id"]]
    assert list(frame.columns) == [col.name for col in ATTEMPT_COLUMNS if not col.private]
    disagreeing = frame.query("not agrees")
    assert list(disagreeing["attempt_id"]) == [a["attempt_id"] for a in printed if not a["agrees"]]
    assert len(disagreeing) >= 1


def test_attempts_df_private_texts_only_when_asked(mixed_db: Path) -> None:
    public = attempts_df(mixed_db)
    private = attempts_df(mixed_db, private=True)
    with open_audit(mixed_db) as db:
        attempts = {a.attempt_id: a for a in db.attempts_by_ids(range(1, 31))}
        texts = {q.question_id: q.text for q in db.questions()}
    assert {"raw_response", "question_text"}.isdisjoint(public.columns)
    shown = " ".join(str(value) for value in public.astype(object).to_numpy().ravel())
    assert not any(text in shown for text in texts.values())
    assert "100% sure" not in shown  # a response's words
    for row in records(private):
        assert row["raw_response"] == attempts[row["attempt_id"]].raw_response
        assert row["question_text"] == texts[row["question_id"]]
    assert records(private.drop(columns=["raw_response", "question_text"])) == records(public)


def _notes(audit: Path, store_path: Path) -> tuple[str, str, str]:
    with open_audit(audit) as db, NotesStore.open(db, str(store_path)) as store:
        keyed = store.add_flag(
            question_id="Q003", category="key_incorrect", note="Paper?", reviewer="ann", option=2
        )
        store.edit_flag(keyed.flag_id, reviewer="bob", severity="high")
        store.set_flag_state(keyed.flag_id, "resolved", reviewer="bob")
        whole = store.add_flag(question_id="Q001", category="other", note="=1+1", reviewer="cy")
        note = store.add_attempt_note(attempt_id=3, note="extraction?", reviewer="ann")
    return keyed.flag_id, whole.flag_id, note.note_id


def test_notes_df_rows_match_the_store(mixed_db: Path, tmp_path: Path) -> None:
    store_path = tmp_path / "team.sqlite"
    keyed, whole, note = _notes(mixed_db, store_path)
    frame = notes_df(mixed_db, str(store_path))
    rows = {row["item_id"]: row for row in records(frame)}
    assert list(frame["item_id"]) == [keyed, whole, note]  # oldest first
    with open_audit(mixed_db) as db, NotesStore.open(db, str(store_path)) as store:
        current = {f.flag_id: f.to_json() for f in store.flags()}
        current.update({n.note_id: n.to_json() for n in store.attempt_notes()})
    for item_id, item in current.items():
        row = rows[item_id]
        for name, value in item.items():
            if name not in ("flag_id", "note_id"):
                assert row[name] == value, name
    assert (rows[keyed]["option"], rows[keyed]["option_letter"]) == (2, "C")
    assert (rows[keyed]["state"], rows[keyed]["severity"], rows[keyed]["revisions"]) == (
        "resolved", "high", 3
    )  # fmt: skip
    assert rows[whole]["option_letter"] is None
    assert rows[whole]["note"] == "=1+1"  # a frame keeps values exact (no formula guard)
    assert rows[note]["kind"] == "attempt_note"
    assert list(frame.columns) == [col.name for col in NOTE_COLUMNS if not col.private]


def test_notes_df_private_texts_and_the_export_columns(mixed_db: Path, tmp_path: Path) -> None:
    store_path = tmp_path / "team.sqlite"
    keyed, _, note = _notes(mixed_db, store_path)
    public = notes_df(mixed_db, str(store_path))
    private = notes_df(mixed_db, str(store_path), private=True)
    assert {"question_text", "option_text", "answer_key", "raw_response"}.isdisjoint(public.columns)
    rows = {row["item_id"]: row for row in records(private)}
    assert rows[keyed]["option_text"] == "Gasoline"
    assert rows[keyed]["answer_key"] == "FALSE"
    assert rows[note]["raw_response"] == "100 reasons: [TRUE, TRUE, FALSE, FALSE, TRUE]"
    # The export writes the same table, letters included, with the formula guard.
    with open_audit(mixed_db) as db, NotesStore.open(db, str(store_path)) as store:
        export_notes(store, "csv", tmp_path / "notes.csv")
    exported = pd.read_csv(tmp_path / "notes.csv", encoding="utf-8-sig", dtype=str)
    # ... and continues it with the review's columns (verdict and decision rows).
    flag_columns = [c.name for c in NOTE_COLUMNS if not c.private]
    assert list(exported.columns) == flag_columns + [c.name for c in REVIEW_COLUMNS]
    assert flag_columns == list(public.columns)
    assert "option_letter" in flag_columns
    assert list(exported["note"]) == ["Paper?", "'=1+1", "extraction?"]


def test_notes_df_never_creates_a_store(mixed_db: Path, desk_dirs: DeskDirs) -> None:
    before = listing(mixed_db.parent)
    frame = notes_df(mixed_db)
    assert frame.empty
    assert list(frame.columns) == [col.name for col in NOTE_COLUMNS if not col.private]
    assert listing(mixed_db.parent) == before
    assert not desk_dirs.data.exists()


def test_nothing_is_written(mixed_db: Path, tmp_path: Path, desk_dirs: DeskDirs) -> None:
    store_path = tmp_path / "team.sqlite"
    _notes(mixed_db, store_path)
    before = listing(mixed_db.parent)
    runs_df(mixed_db)
    attempts_df(mixed_db, private=True)
    notes_df(mixed_db, str(store_path), private=True)
    assert listing(mixed_db.parent) == before  # the audit file and nothing beside it
    assert not desk_dirs.cache.exists()  # no scores cache, no review index


def test_the_declarations_document_every_column() -> None:
    declarations: tuple[Sequence[FrameColumn[Any]], ...] = (
        RUN_COLUMNS,
        ATTEMPT_COLUMNS,
        NOTE_COLUMNS,
    )
    for declared in declarations:
        names = [col.name for col in declared]
        assert len(names) == len(set(names))
        lines = column_docs(declared).splitlines()
        assert [line.split()[0] for line in lines] == names
        for line, col in zip(lines, declared, strict=True):
            assert ("private;" in line) is col.private
            assert col.doc in line
    assert [c.name for c in ATTEMPT_COLUMNS if c.private] == ["raw_response", "question_text"]
    assert [c.name for c in RUN_COLUMNS if c.private] == []


def test_importing_the_api_does_not_import_pandas(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "import ai4hse_desk.analysis\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pandas'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
