"""Review integrity (issue 31): nothing lost, nobody rewritten, one person one name, no
clock freezing the others, bad input refused whole, a verdict's cost independent of the
plan. Each test is a problem the red team found, as a user would meet it."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.imports import import_notes
from ai4hse_desk.review.read import read_review
from tests.core.desk_helpers import cli

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

T, F = "TRUE", "FALSE"
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
ZWSP, RLO = "\u200b", "\u202e"

#: A desk process that runs one CLI command per line of stdin (JSON argv) and prints
#: its exit status: a real second process, without a new interpreter per command.
WORKER = """
import contextlib, io, json, sys
from ai4hse_desk.launcher import main
print("ready", flush=True)
for line in sys.stdin:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(json.loads(line))
        except SystemExit as exc:
            code = exc.code
    print(code, flush=True)
"""


class Worker:
    """One running desk process (see :data:`WORKER`)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        assert self.proc.stdin is not None
        assert self.proc.stdout.readline().strip() == "ready"

    def send(self, *argv: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(list(argv)) + "\n")
        self.proc.stdin.flush()

    def status(self) -> int:
        assert self.proc.stdout is not None
        return int(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        assert self.proc.wait(timeout=60) == 0
        assert self.proc.stdout is not None
        self.proc.stdout.close()


@pytest.fixture
def workers() -> Iterator[tuple[Worker, Worker]]:
    pair = (Worker(), Worker())
    yield pair
    for worker in pair:
        worker.close()


@pytest.fixture
def any_store(audit: AuditDB, store_url: str) -> Iterator[NotesStore]:
    """A notes store on ``audit``: an SQLite file, or a PostgreSQL schema of the cluster
    ``make test`` starts."""
    with NotesStore.open(audit, store_url) as notes:
        yield notes


def _status(audit: Path) -> dict[str, Any]:
    code, out, err = cli("review", "status", str(audit))
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


# -- 1. nothing is deleted that anyone wrote --------------------------------------------


def test_a_refused_command_racing_a_plan_never_loses_it(
    make_audit_db: Callable[..., Path], tmp_path: Path, workers: tuple[Worker, Worker]
) -> None:
    """50 fresh default stores; on each, ``review plan`` and a refused ``review verdict``
    start at once in two processes: the plan is there every time."""
    source = make_audit_db()
    planner, refused = workers
    for trial in range(50):
        audit = tmp_path / f"t{trial}" / "a.sqlite"
        audit.parent.mkdir()
        shutil.copy(source, audit)
        refused.send("review", "verdict", str(audit), "--question", "QXXX", "--reviewer",
                     "bo", "--verdict", "key_ok", "--not-blind")  # fmt: skip
        planner.send("review", "plan", str(audit), "--reviewers", "ann,bo", "--per-question", "1")
        assert (planner.status(), refused.status()) == (0, 2)
        assert _status(audit)["plan"] is not None, f"trial {trial}: the plan was lost"


def test_a_refused_command_racing_a_verdict_never_loses_it(
    make_audit_db: Callable[..., Path], tmp_path: Path, workers: tuple[Worker, Worker]
) -> None:
    source = make_audit_db()
    writer, refused = workers
    for trial in range(20):
        audit = tmp_path / f"t{trial}" / "a.sqlite"
        audit.parent.mkdir()
        shutil.copy(source, audit)
        refused.send("review", "plan", str(audit), "--reviewers", "ann", "--per-question", "2")
        writer.send("review", "verdict", str(audit), "--question", "Q001", "--reviewer", "ann",
                    "--verdict", "key_ok", "--blind-answer", "[TRUE,FALSE,TRUE,FALSE]")  # fmt: skip
        assert (writer.status(), refused.status()) == (0, 2)
        (ann,) = _status(audit)["reviewers"]
        assert ann["submitted"] == 1, f"trial {trial}: the verdict was lost"


def test_a_refused_command_leaves_no_store_behind(make_audit_db: Callable[..., Path]) -> None:
    audit = make_audit_db()
    before = sorted(p.name for p in audit.parent.iterdir())
    code, _, err = cli("review", "adjudicate", str(audit), "--question", "Q001",
                       "--adjudicator", "cy", "--decision", "keep")  # fmt: skip
    assert code == 2
    assert err.startswith("error: ")
    assert sorted(p.name for p in audit.parent.iterdir()) == before


def test_a_new_store_appears_whole_with_its_first_write(audit: AuditDB, tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    with NotesStore.open(audit, str(path)) as store:
        assert not path.exists()  # opened, nothing written: nothing there
        ReviewBook(store).make_plan(reviewers=["ann"], per_question=1)
        assert path.is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.sqlite"]  # no private file left
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM review_plans").fetchone() == (1,)
    conn.close()


# -- 4. one person, one name ------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ("ann,Ann", "one person's name"),
        ("ann,ａｎｎ", "one person's name"),
        ("ann,ANN", "one person's name"),
        (f"ann,ann{ZWSP}", "U+200B"),
        (f"ann,{RLO}ann", "U+202E"),
        ("ann,an\u034fn", "one person's name"),  # a combining grapheme joiner: invisible
    ],
)
def test_one_person_cannot_be_two_reviewers(
    make_audit_db: Callable[..., Path], names: str, message: str
) -> None:
    audit = make_audit_db()
    code, out, err = cli("review", "plan", str(audit), "--reviewers", names, "--per-question", "1")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert message in err
    assert _status(audit)["plan"] is None


@pytest.mark.parametrize("spelled", ["Ann", "ANN", "ａｎｎ", "ａｎｎ "])
def test_a_reviewer_cannot_adjudicate_their_own_question_under_another_spelling(
    any_store: NotesStore, spelled: str
) -> None:
    book = ReviewBook(any_store)
    book.make_plan(reviewers=["ann", "bo"], per_question=2)
    book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True,
                      proposed_key=[F, F, T, F])  # fmt: skip
    with pytest.raises(ReviewError, match="one of Q001's reviewers"):
        Adjudication(any_store).adjudicate("Q001", spelled, "key_confirmed")
    assert Adjudication(any_store).decisions() == []


def test_another_spelling_records_under_the_plans_name(any_store: NotesStore) -> None:
    book = ReviewBook(any_store)
    book.make_plan(reviewers=["ann", "bo"], per_question=2)
    verdict = book.save_verdict("Q001", "ＡＮＮ", verdict="key_ok", not_blind=True)
    assert verdict.reviewer == "ann"
    with pytest.raises(ReviewError, match="unknown reviewer"):
        book.save_verdict("Q001", "mallory", verdict="key_ok", not_blind=True)


def test_deciding_first_and_reviewing_later_is_refused(any_store: NotesStore) -> None:
    book = ReviewBook(any_store)
    book.save_verdict("Q002", "bo", verdict="key_wrong", not_blind=True, proposed_key=[T, T, F, F])
    Adjudication(any_store).adjudicate("Q002", "cy", "key_confirmed")
    with pytest.raises(ReviewError, match="cy adjudicated Q002"):
        book.save_verdict("Q002", "Cy", verdict="key_ok", not_blind=True)
    with pytest.raises(ReviewError, match="cy adjudicated Q002"):
        book.record_blind("Q002", "cy", [T, T, F, F])
    assert [v.reviewer for v in book.all_verdicts()] == ["bo"]


# -- 5. clocks ----------------------------------------------------------------------------


def _clock(monkeypatch: pytest.MonkeyPatch, now: str) -> None:
    """This process's clock reads ``now`` (every module that asks for the time)."""
    from ai4hse_desk.notes import backend, model

    monkeypatch.setattr(backend, "utc_now", lambda: now)
    monkeypatch.setattr(model, "utc_now", lambda: now)
    for name in ("ai4hse_desk.review.writes", "ai4hse_desk.notes.writes"):
        monkeypatch.setattr(f"{name}.utc_now", lambda: now, raising=False)


def test_a_clock_an_hour_fast_freezes_nobody(
    store: NotesStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = ReviewBook(store)
    _clock(monkeypatch, "2020-01-01T11:00:00.000000Z")  # a client an hour ahead
    book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True, submit=False)
    flag = store.add_flag(question_id="Q002", category="typo_or_format", note="", reviewer="ann")
    _clock(monkeypatch, "2020-01-01T10:00:05.000000Z")  # a correct client, five seconds on
    revised = book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True, note="checked")
    assert revised.note == "checked"
    assert revised.updated_at == "2020-01-01T11:00:00.000001Z"  # after the fast one, in order
    edited = store.edit_flag(flag.flag_id, reviewer="ann", note="seen")
    assert edited.updated_at == "2020-01-01T11:00:00.000001Z"
    assert store.history(flag.flag_id)[-1].writer_clock == "2020-01-01T10:00:05.000000Z"
    book.make_plan(reviewers=["ann", "bo"], per_question=1)
    _clock(monkeypatch, "2020-01-01T09:00:00.000000Z")
    book.make_plan(reviewers=["ann", "bo"], per_question=2, replace=True)  # never "later than now"
    assert book.plan_header() is not None
    assert book.plan_header().per_question == 2  # type: ignore[union-attr]


def test_the_overruled_clock_is_recorded_and_travels_with_an_export(
    store: NotesStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, audit: AuditDB
) -> None:
    book = ReviewBook(store)
    _clock(monkeypatch, "2020-01-01T11:00:00.000000Z")
    book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True, submit=False)
    _clock(monkeypatch, "2020-01-01T10:00:00.000000Z")
    book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
    export_notes(store, "json", tmp_path / "out.json")
    doc = json.loads((tmp_path / "out.json").read_text())
    revisions = doc["review_verdicts"][0]["revisions"]
    assert [r.get("writer_clock") for r in revisions] == [None, "2020-01-01T10:00:00.000000Z"]
    with NotesStore.open(audit, str(tmp_path / "other.sqlite")) as other:
        import_notes(other, tmp_path / "out.json")
        (verdict,) = other.run(review_writes.read_verdicts)
        assert verdict.updated_at == "2020-01-01T11:00:00.000001Z"


# -- 3. imports never rewrite history -----------------------------------------------------


def _exported(store: NotesStore, path: Path) -> dict[str, object]:
    export_notes(store, "json", path)
    return json.loads(path.read_text())  # type: ignore[no-any-return]


def _import_refused(store: NotesStore, doc: dict[str, object], path: Path, words: str) -> None:
    path.write_text(json.dumps(doc))
    before = _exported(store, path.with_suffix(".before.json"))
    with pytest.raises(ReviewError, match=words):
        import_notes(store, path)
    after = _exported(store, path.with_suffix(".after.json"))
    for key in ("flags", "review_plans", "review_verdicts", "review_decisions"):
        assert after[key] == before[key]  # nothing written


@pytest.fixture
def ann_key_wrong(any_store: NotesStore, tmp_path: Path) -> dict[str, object]:
    """A store with a plan (ann, bo; K=2) and ann's submitted key_wrong on Q001; its export."""
    store = any_store
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bo"], per_question=2)
    book.record_blind("Q001", "ann", [T, F, T, T])
    book.save_verdict("Q001", "ann", verdict="key_wrong", proposed_key=[T, F, T, T],
                      note="ISO 45001 says so")  # fmt: skip
    return _exported(store, tmp_path / "ann.json")


def _later(at: str, microseconds: int = 1_000_000) -> str:
    """``at`` moved on (still before this computer's clock plus the allowed skew)."""
    moved = datetime.strptime(at, TIME_FORMAT) + timedelta(microseconds=microseconds)
    return moved.strftime(TIME_FORMAT)


def _verdict_revisions(doc: dict[str, object]) -> list[dict[str, object]]:
    return doc["review_verdicts"][0]["revisions"]  # type: ignore[index,no-any-return]


def test_a_forged_edit_that_does_not_start_from_the_stored_verdict_is_refused(
    any_store: NotesStore, ann_key_wrong: dict[str, object], tmp_path: Path
) -> None:
    doc = json.loads(json.dumps(ann_key_wrong))
    revisions = _verdict_revisions(doc)
    forged = dict(revisions[-1])
    forged.update(
        revision_id="6b0f7f4e-4a63-4d0c-9a55-2f1a1f0e9f10", action="edit",
        at=_later(str(revisions[-1]["at"])),
        verdict="key_ok", proposed_key=None, note="fine after all",
        changes={"verdict": ["unclear_question", "key_ok"], "note": ["", "fine after all"],
                 "proposed_key": [[T, F, T, T], None]},
    )  # fmt: skip
    revisions.append(forged)
    verdict = doc["review_verdicts"][0]
    verdict.update(verdict="key_ok", proposed_key=None, note="fine after all",
                   updated_at=forged["at"])  # fmt: skip
    _import_refused(any_store, doc, tmp_path / "forged.json", "is not the value before it")


def test_a_revision_dated_inside_the_stored_history_is_refused(
    any_store: NotesStore, ann_key_wrong: dict[str, object], tmp_path: Path
) -> None:
    doc = json.loads(json.dumps(ann_key_wrong))
    revisions = _verdict_revisions(doc)
    inserted = dict(revisions[-1])
    inserted.update(
        revision_id="0c1b5d0e-5c6b-4f0a-8c59-1b1f7c2a9e01", action="edit",
        at=_later(str(revisions[0]["at"]), microseconds=1), note="slipped in",
        changes={"note": ["ISO 45001 says so", "slipped in"]},
    )  # fmt: skip
    revisions.insert(1, inserted)
    _import_refused(any_store, doc, tmp_path / "inside.json", "inside the history")


def test_an_import_cannot_plant_a_verdict_for_someone_outside_the_plan(
    any_store: NotesStore, ann_key_wrong: dict[str, object], tmp_path: Path
) -> None:
    doc = json.loads(json.dumps(ann_key_wrong))
    verdict = doc["review_verdicts"][0]
    verdict.update(reviewer="mallory", verdict_id="2f7d5a8e-6f5b-4b6a-9e0a-3c7d9b1e4a55")
    for rev in verdict["revisions"]:
        rev["verdict_id"] = verdict["verdict_id"]
        rev["revision_id"] = rev["revision_id"][:-4] + "beef"
    _import_refused(any_store, doc, tmp_path / "mallory.json", "not a reviewer of any plan")


def test_a_not_blind_verdict_cannot_take_a_pending_blind_answer(
    any_store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    book = ReviewBook(any_store)
    book.make_plan(reviewers=["ann", "bo"], per_question=2)
    with NotesStore.open(audit, str(tmp_path / "elsewhere.sqlite")) as elsewhere:
        ReviewBook(elsewhere).save_verdict("Q002", "bo", verdict="key_ok", not_blind=True)
        doc = _exported(elsewhere, tmp_path / "bo.json")
    _import_refused(any_store, doc, tmp_path / "shadow.json", "still to be given")
    mine = book.record_blind("Q002", "bo", [T, T, F, F])  # bo's blind answer stays his to give
    assert mine.blind_answer == (T, T, F, F)


def test_a_decision_by_the_questions_reviewer_is_refused_even_dated_before_the_plan(
    any_store: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    with NotesStore.open(audit, str(tmp_path / "early.sqlite")) as early:
        ReviewBook(early).record_blind("Q003", "bo", [T, T, F, F, F])
        ReviewBook(early).save_verdict(
            "Q003", "bo", verdict="key_wrong", proposed_key=[T, F, F, F, F]
        )
        Adjudication(early).adjudicate("Q003", "ann", "question_excluded")
        doc = _exported(early, tmp_path / "early.json")
    ReviewBook(any_store).make_plan(reviewers=["ann", "bo"], per_question=2)
    _import_refused(any_store, doc, tmp_path / "decision.json", "one of Q003's reviewers")


def test_a_refused_import_names_its_first_problems_together(
    any_store: NotesStore, ann_key_wrong: dict[str, object], tmp_path: Path
) -> None:
    doc = json.loads(json.dumps(ann_key_wrong))
    first = doc["review_verdicts"][0]
    planted = []
    for n, who in enumerate(("mallory", "eve")):
        copy = json.loads(json.dumps(first))
        copy.update(reviewer=who, verdict_id=f"2f7d5a8e-6f5b-4b6a-9e0a-3c7d9b1e4a5{n}")
        for rev in copy["revisions"]:
            rev["verdict_id"] = copy["verdict_id"]
            rev["revision_id"] = rev["revision_id"][:-5] + f"cafe{n}"
        planted.append(copy)
    doc["review_verdicts"] = [first, *planted]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ReviewError) as info:
        import_notes(any_store, path)
    assert "2 problems, nothing imported" in str(info.value)
    assert "mallory" in str(info.value)
    assert "eve" in str(info.value)


# -- 6. bad input and damaged stores ------------------------------------------------------


@pytest.mark.parametrize("seed", [str(2**64), str(2**31), str(-(2**31) - 1)])
def test_a_seed_no_store_can_hold_is_one_error_line(
    make_audit_db: Callable[..., Path], seed: str
) -> None:
    audit = make_audit_db()
    code, out, err = cli("review", "plan", str(audit), "--reviewers", "ann,bo", "--per-question",
                         "1", "--order", "random", "--seed", seed)  # fmt: skip
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert "--seed must be a whole number" in err
    assert "Traceback" not in err


def test_an_over_long_source_is_refused_not_cut(make_audit_db: Callable[..., Path]) -> None:
    audit = make_audit_db()
    code, _, err = cli("review", "verdict", str(audit), "--question", "Q001", "--reviewer", "ann",
                       "--verdict", "key_ok", "--not-blind", "--source", "x" * 2_001)  # fmt: skip
    assert code == 2
    assert "a source is limited to 2000 characters" in err
    code, out, _ = cli("review", "verdict", str(audit), "--question", "Q001", "--reviewer", "ann",
                       "--verdict", "key_ok", "--not-blind", "--source", "x" * 2_000)  # fmt: skip
    assert code == 0
    assert len(json.loads(out)["source"]) == 2_000


def test_a_verdict_without_history_is_reported_not_a_crash(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    store = tmp_path / "s.sqlite"
    a, notes = str(audit), ["--notes", str(store)]
    assert cli("review", "verdict", a, "--question", "Q001", "--reviewer", "ann", "--verdict",
               "key_ok", "--not-blind", *notes)[0] == 0  # fmt: skip
    with sqlite3.connect(store) as conn:  # what a direct DELETE on a server leaves
        conn.execute("DELETE FROM review_verdict_revisions")
    conn.close()
    code, out, err = cli("notes", "export", a, "--format", "json", "--out",
                         str(tmp_path / "e.json"), *notes)  # fmt: skip
    assert code == 0
    assert "warning: left out the verdict of ann on Q001" in err
    assert json.loads(out)["verdicts"] == 0
    code, _, err = cli("review", "verdict", a, "--question", "Q001", "--reviewer", "ann",
                       "--verdict", "key_ok", "--not-blind", *notes)  # fmt: skip
    assert code == 2
    assert err.count("\n") == 1
    assert "without any revision" in err


# -- cost per verdict ---------------------------------------------------------------------


def test_a_verdict_never_reads_the_whole_plan(
    any_store: NotesStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = ReviewBook(any_store)
    book.make_plan(reviewers=["ann", "bo"], per_question=2)

    def whole_plan(_conn: object) -> None:
        raise AssertionError("the whole plan was read for one verdict")

    monkeypatch.setattr(review_writes, "read_plan", whole_plan)
    book.record_blind("Q001", "ann", [T, F, T, F])
    book.save_verdict("Q001", "ann", verdict="key_ok")
    book.save_verdict("Q001", "bo", verdict="key_ok", not_blind=True)
    assert [v.state for v in book.others_verdicts("Q001", "bo")] == ["submitted"]
    assert book.queue("ann") == book.corpus_order()
    assert book.progress("ann")["submitted"] == 1
    assert book.visibility("ann").shows_others("Q001")
    with pytest.raises(ReviewError, match="one of Q001's reviewers"):
        Adjudication(any_store).adjudicate("Q001", "ann", "key_confirmed")


# -- undo and redo of a verdict -----------------------------------------------------------


def test_undo_and_redo_of_a_verdict_append_revisions_and_keep_the_blind_answer(
    any_store: NotesStore,
) -> None:
    book = ReviewBook(any_store)
    drafted = book.record_blind("Q001", "ann", [T, F, T, F])
    submitted = book.save_verdict("Q001", "ann", verdict="key_wrong", proposed_key=[T, F, F, F])
    undone = book.restore_verdict(submitted, drafted, action="undo")
    assert (undone.verdict, undone.state, undone.blind_answer) == (None, "draft", (T, F, T, F))
    redone = book.restore_verdict(undone, submitted, action="redo")
    assert (redone.verdict, redone.proposed_key) == ("key_wrong", (T, F, F, F))
    with pytest.raises(ReviewError, match="changed since"):
        book.restore_verdict(submitted, drafted, action="undo")  # stale: it moved on
    (record,) = any_store.run(read_review).verdicts
    assert [r.action for r in record.revisions] == ["create", "submit", "undo", "redo"]


def test_on_postgresql_a_revision_from_a_fast_clock_freezes_nobody(
    pg_url: str, audit: AuditDB
) -> None:
    """The server's clock stamps revisions; one planted an hour ahead (a fast client of an
    older desk) is followed, 1 µs later, with the server's clock recorded beside it."""
    from sqlalchemy import create_engine, text

    with NotesStore.open(audit, pg_url) as notes:
        book = ReviewBook(notes)
        book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True, submit=False)
        engine = create_engine(pg_url)
        with engine.begin() as conn:
            conn.execute(text(
                "UPDATE review_verdict_revisions SET at = to_char((clock_timestamp() "
                "AT TIME ZONE 'UTC') + interval '1 hour', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
            ))  # fmt: skip
            ahead = conn.execute(text("SELECT at FROM review_verdict_revisions")).scalar_one()
        engine.dispose()
        revised = book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True, note="ok")
        assert revised.note == "ok"
        assert revised.updated_at > ahead
        (record,) = notes.run(read_review).verdicts
        assert record.revisions[-1].writer_clock is not None
        assert record.revisions[-1].writer_clock < ahead
