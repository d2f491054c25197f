"""Hostile ``notes import`` files and stores whose history holds impossible values
(issue 11, items 5, 6, 9): every field is checked before anything is written, the
first problem is named by its JSON path, and a damaged history is an error, not a crash.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.launcher import main
from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.imports import import_notes

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

FAR_FUTURE = "9999-12-31T23:59:59.999999Z"
IMPOSSIBLE = "2026-13-45T25:61:61.000000Z"
#: An impossible time that sorts after any real one (a damaged store's latest revision).
DAMAGED = "2999-13-45T25:61:61.000000Z"


def soon(minutes: int) -> str:
    later = datetime.now(UTC) + timedelta(minutes=minutes)
    return later.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.fixture
def export(audit: AuditDB, tmp_path: Path) -> dict[str, Any]:
    """Bob's JSON export: flag 0 (create, edit, state), flag 1 (create, undo), a note."""
    with NotesStore.open(audit, str(tmp_path / "bob.sqlite")) as bob:
        first = bob.add_flag(question_id="Q001", category="other", note="a", reviewer="bob")
        bob.edit_flag(first.flag_id, reviewer="bob", severity="high")
        bob.set_flag_state(first.flag_id, "resolved", reviewer="bob")
        bob.add_flag(question_id="Q002", category="key_incorrect", option=1, note="", reviewer="b")
        bob.undo_last("b")
        bob.add_attempt_note(attempt_id=2, note="odd", reviewer="bob")
        export_notes(bob, "json", tmp_path / "bob.json")
    doc: dict[str, Any] = json.loads((tmp_path / "bob.json").read_text(encoding="utf-8"))
    return doc


def write(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def counts(notes: NotesStore) -> tuple[int, int, int]:
    return len(notes.flags()), len(notes.attempt_notes()), len(notes.revisions())


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A spoiler setting the value at a JSON path like ``flags[0].revisions[1].at``."""

    def spoil(doc: dict[str, Any]) -> None:
        keys: list[str | int] = []
        for part in path.replace("]", "").split("."):
            name, *indexes = part.split("[")
            keys.append(name)
            keys.extend(int(i) for i in indexes)
        node: Any = doc
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return spoil


def _ten_minutes_ahead(doc: dict[str, Any]) -> None:
    _set("flags[0].revisions[1].at", soon(10))(doc)  # the clock read when the test runs


def _duplicate_first_flag(doc: dict[str, Any]) -> None:
    doc["flags"].append(json.loads(json.dumps(doc["flags"][0])))


UNKNOWN_ID = "8d3c1f4e-5b6a-4c7d-9e8f-0a1b2c3d4e5f"
STATE_AND_NOTE = {"state": ["open", "resolved"], "note": ["a", "b"]}
#: Case → (spoiler, words the error must hold); the file of each was imported before.
SPOILED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "far-future revision": (_set("flags[0].revisions[2].at", FAR_FUTURE), "in the future"),
    "ten minutes ahead": (_ten_minutes_ahead, "in the future"),
    "impossible date": (_set("flags[0].revisions[1].at", IMPOSSIBLE), "not a real date"),
    "future exported_at": (_set("exported_at", FAR_FUTURE), "in the future"),
    "version true": (_set("version", True), "not supported"),
    "version 1.0": (_set("version", 1.0), "not supported"),
    "sha256 a number": (_set("audit.sha256", 5), "not a SHA-256"),
    "item sha256 a list": (_set("flags[1].audit_sha256", ["x"]), "not a SHA-256"),
    "include_private text": (_set("include_private", "yes"), "true or false"),
    "change to a number": (
        _set("flags[0].revisions[1].changes.severity", ["medium", 5]),
        "unknown severity",
    ),
    "kind of another list": (_set("flags[1].kind", "attempt_note"), "must be 'flag'"),
    "summary lies": (_set("flags[0].state", "open"), "differs from the item's latest revision"),
    "lone surrogate": (_set("attempt_notes[0].revisions[0].values.note", "\ud800"), "valid text"),
    "NUL in a note": (_set("flags[1].revisions[0].values.note", "a\x00b"), "without NUL"),
    "unknown field": (_set("flags[0].revisions[0].extra", 1), "not a field"),
    "huge attempt id": (_set("attempt_notes[0].attempt_id", 2**70), "out of range"),
    "undo of nothing": (_set("flags[1].revisions[1].reverts", UNKNOWN_ID), "earlier revision"),
    "edit before creation": (
        _set("flags[0].revisions[1].at", "2000-01-01T00:00:00.000000Z"),
        "before the item was created",
    ),
    "state revision edits": (
        _set("flags[0].revisions[2].changes", STATE_AND_NOTE),
        "differs from the revision's values",
    ),
    "the same flag twice": (_duplicate_first_flag, "occurs twice"),
}
PATHS = {
    "far-future revision": "flags[0].revisions[2].at",
    "impossible date": "flags[0].revisions[1].at",
    "sha256 a number": "audit.sha256",
    "huge attempt id": "attempt_notes[0].attempt_id",
    "lone surrogate": "attempt_notes[0].revisions[0].values.note",
    "the same flag twice": "flags[2].item_id",
}


@pytest.mark.parametrize("case", list(SPOILED))
def test_a_file_with_any_bad_field_is_refused_whole(
    audit: AuditDB, export: dict[str, Any], tmp_path: Path, case: str
) -> None:
    spoil, words = SPOILED[case]
    doc = json.loads(json.dumps(export))
    assert import_notes_ok(audit, write(tmp_path / "good.json", doc), tmp_path / "ok.sqlite")
    spoil(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc, ensure_ascii=True), encoding="utf-8")
    with NotesStore.open(audit, str(tmp_path / "ann.sqlite")) as ann:
        with pytest.raises(ReviewError, match=r"^bad\.json: ") as caught:
            import_notes(ann, path)
        assert words in str(caught.value)
        assert PATHS.get(case, "") in str(caught.value)
        assert counts(ann) == (0, 0, 0)


def import_notes_ok(audit: AuditDB, path: Path, store: Path) -> bool:
    """The unspoiled file imports (so each refusal above is due to its one change)."""
    with NotesStore.open(audit, str(store)) as notes:
        result = import_notes(notes, path)
    return (result.items_added, result.revisions_added) == (3, 6)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"format": "ai4hse-review-notes", "version": 1, "exported_at": NaN}', "NaN"),
        ('{"format": "ai4hse-review-notes", "version": 1, "x": -Infinity}', "-Infinity"),
        ('{"format": "ai4hse-review-notes", "version": 1, "version": 1}', "occurs twice"),
    ],
)
def test_non_strict_json_is_refused(audit: AuditDB, tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "loose.json"
    path.write_text(text, encoding="utf-8")
    with (
        NotesStore.open(audit, str(tmp_path / "n.sqlite")) as notes,
        pytest.raises(ReviewError, match="not JSON") as caught,
    ):
        import_notes(notes, path)
    assert words in str(caught.value)


def test_json_nested_100000_deep_is_exit_2(
    make_audit_db: Callable[..., Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    audit = make_audit_db()
    deep = tmp_path / "deep.json"
    deep.write_text('{"flags": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert main(["notes", "import", str(audit), str(deep)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "error: deep.json: not a notes export (JSON nested too deeply)\n"


def test_a_fifo_or_a_folder_is_refused_at_once(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    env = {**os.environ, "AI4HSE_DESK_DATA_DIR": str(tmp_path / "data")}
    # a plain open() of a FIFO blocks until a writer comes: the timeout would fail the test
    for source, words in ((fifo, "is not a regular file"), (tmp_path, "is a folder")):
        done = subprocess.run(
            [sys.executable, "-m", "ai4hse_desk", "notes", "import", str(audit), str(source)],
            capture_output=True, text=True, check=False, env=env, timeout=60,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr.count("\n") == 1
        assert words in done.stderr


def test_a_far_future_revision_cannot_withdraw_another_reviewers_flag(
    audit: AuditDB, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "ann.sqlite"
    with NotesStore.open(audit, str(store)) as ann:
        flag = ann.add_flag(question_id="Q001", category="key_incorrect", note="", reviewer="ann")
        export_notes(ann, "json", tmp_path / "ann.json")
    doc = json.loads((tmp_path / "ann.json").read_text(encoding="utf-8"))
    (item,) = doc["flags"]
    hostile = {**item["revisions"][0], "revision_id": "0b7f9a52-3c1d-4e8f-a6b2-9d0c1e2f3a4b",
               "reviewer": "mallory", "at": FAR_FUTURE, "action": "state",
               "changes": {"state": ["open", "withdrawn"]},
               "values": {**item["revisions"][0]["values"], "state": "withdrawn"}}  # fmt: skip
    item["revisions"].append(hostile)
    item.update(state="withdrawn", updated_by="mallory", updated_at=FAR_FUTURE)
    path = write(tmp_path / "mallory.json", doc)
    args = ["notes", "import", str(audit.path), str(path), "--notes", str(store)]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: mallory.json: flags[0].revisions[1].at: 9999-12-31")
    with NotesStore.open(audit, str(store)) as ann:
        assert [f.state for f in ann.flags()] == ["open"]
        assert ann.set_flag_state(flag.flag_id, "resolved", reviewer="ann").state == "resolved"


STATE_CHANGE = '{"state": ["open", "resolved"]}'


def _plant(store: Path, item_id: str, at: str, changes: str = STATE_CHANGE) -> None:
    """Append a revision straight into the store's table (as an old, unchecked import did)."""
    with sqlite3.connect(store) as conn:
        conn.execute(
            "INSERT INTO review_revisions (revision_id, item_id, reviewer, at, action, "
            "option_pos, category, severity, note, state, changes) "
            "VALUES (?, ?, 'mallory', ?, 'state', NULL, 'other', 'medium', '', 'resolved', ?)",
            (str(uuid.uuid4()), item_id, at, changes),
        )
    conn.close()


@pytest.mark.parametrize(("at", "words"), [(FAR_FUTURE, "later than now"), (DAMAGED, "not a time")])
def test_a_store_whose_history_holds_an_impossible_time_refuses_changes_clearly(
    audit: AuditDB, tmp_path: Path, at: str, words: str
) -> None:
    store = tmp_path / "old.sqlite"
    with NotesStore.open(audit, str(store)) as notes:
        flag = notes.add_flag(
            question_id="Q001", category="typo_or_format", note="", reviewer="ann"
        )
        other = notes.add_flag(
            question_id="Q002", category="typo_or_format", note="", reviewer="ann"
        )
    _plant(store, flag.flag_id, at)
    with NotesStore.open(audit, str(store)) as notes:
        assert {f.flag_id: f.state for f in notes.flags()}[flag.flag_id] == "resolved"
        export_notes(notes, "csv", tmp_path / "still-exports.csv")
        with pytest.raises(ReviewError, match=words):
            notes.set_flag_state(flag.flag_id, "open", reviewer="ann")
        with pytest.raises(ReviewError, match=words):
            notes.edit_flag(flag.flag_id, reviewer="ann", note="x")
        assert notes.edit_flag(other.flag_id, reviewer="ann", note="fine").note == "fine"
        assert [r.action for r in notes.history(flag.flag_id)] == ["create", "state"]


def test_a_damaged_changes_column_is_an_error_not_a_crash(audit: AuditDB, tmp_path: Path) -> None:
    store = tmp_path / "damaged.sqlite"
    with NotesStore.open(audit, str(store)) as notes:
        flag = notes.add_flag(
            question_id="Q001", category="typo_or_format", note="", reviewer="ann"
        )
    _plant(store, flag.flag_id, "2020-01-01T00:00:00.000000Z", changes="{not json")
    with (
        NotesStore.open(audit, str(store)) as notes,
        pytest.raises(ReviewError, match="damaged revision"),
    ):
        notes.history(flag.flag_id)


def test_a_nul_character_is_refused_before_any_backend_sees_it(
    audit: AuditDB, export: dict[str, Any], tmp_path: Path, store_url: str
) -> None:
    """PostgreSQL cannot store NUL in text (psycopg raised); SQLite stored it silently."""
    doc = json.loads(json.dumps(export))
    for rev in doc["attempt_notes"][0]["revisions"]:
        rev["values"]["note"] = rev["changes"]["note"][1] = "odd\x00"
    doc["attempt_notes"][0]["note"] = "odd\x00"
    with NotesStore.open(audit, store_url) as team:
        with pytest.raises(ReviewError, match=r"attempt_notes\[0\]\.revisions\[0\]\.values\.note"):
            import_notes(team, write(tmp_path / "nul.json", doc))
        assert counts(team) == (0, 0, 0)
