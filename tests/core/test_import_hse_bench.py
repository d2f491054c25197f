"""``ai4hse-desk import hse-bench``: the real HSE-Bench files, read where they are.

The data (CC BY-NC 4.0) stays in ``../shared/data/hse-bench`` (or
``$AI4HSE_PUBLIC_DATA/hse-bench``); tests compare the database with the CSV
files read independently here, and never copy the data into the project.
"""

from __future__ import annotations

import contextlib
import csv
import json
import sqlite3
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import open_audit
from tests.core.desk_helpers import cli, public_data, require_data, tree_digest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

DATA = public_data("hse-bench")


@pytest.fixture(autouse=True, scope="module")
def _data_present() -> None:
    require_data(DATA)


FFFD_FILES = {
    "results/court_case/issue_spotting/m1.csv": 1,
    "results/court_case/rule_application/m1.csv": 4,
    "results/court_case/rule_conclusion/m1.csv": 2,
}


def source_rows(relative: str) -> list[list[str]]:
    with open(DATA / relative, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


@dataclass(frozen=True)
class Imported:
    path: Path
    report: dict[str, Any]
    stderr: str
    before: dict[str, tuple[str, int]]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Imported:
    folder = tmp_path_factory.mktemp("hse")
    before = tree_digest(DATA)
    out, report = folder / "hse.sqlite", folder / "report.json"
    code, stdout, stderr = cli("import", "hse-bench", str(DATA), "--out", str(out),
                               "--report", str(report))  # fmt: skip
    assert (code, stdout) == (0, ""), stderr
    return Imported(out, json.loads(report.read_text("utf-8")), stderr, before)


@pytest.fixture
def db(imported: Imported) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(f"file:{imported.path}?mode=ro", uri=True)) as conn:
        yield conn


def test_imports_1020_questions_with_four_options_and_one_true_key(
    db: sqlite3.Connection,
) -> None:
    assert db.execute("SELECT count(*) FROM questions").fetchone() == (1020,)
    per_question = db.execute(
        "SELECT count(*), sum(key) FROM options GROUP BY question_id"
    ).fetchall()
    assert len(per_question) == 1020
    assert set(per_question) == {(4, 1)}
    ordinals = [row[0] for row in db.execute("SELECT ordinal FROM questions ORDER BY ordinal")]
    assert ordinals == list(range(1, 1021))


def test_label_counts_per_source_phase_and_both(db: sqlite3.Connection) -> None:
    counts = Counter(db.execute("SELECT facet, value FROM question_labels").fetchall())
    by_facet: dict[str, dict[str, int]] = {}
    for (facet, value), count in counts.items():
        by_facet.setdefault(facet, {})[value] = count
    assert by_facet["source"] == {
        "regulation": 448, "court_case": 152, "safety_exam": 320, "video": 100,
    }  # fmt: skip
    assert by_facet["irac_phase"] == dict.fromkeys(
        ("issue_spotting", "rule_recall", "rule_application", "rule_conclusion"), 255
    )
    assert len(by_facet["source_phase"]) == 16
    assert by_facet["source_phase"]["court_case/rule_recall"] == 38
    assert by_facet["source_phase"]["video/issue_spotting"] == 25
    assert set(by_facet) == {"source", "irac_phase", "source_phase"}


def test_meta_marks_a_desk_made_database(imported: Imported) -> None:
    with open_audit(imported.path) as audit:
        meta = dict(audit.meta)
        assert len(audit.questions()) == 1020
    assert meta["created_by"] == "ai4hse-desk import hse-bench"
    assert meta["benchmark"] == "HSE-Bench"
    assert meta["consistency_facet"] == "source_phase"
    assert meta["source_license"] == "CC BY-NC 4.0"
    assert meta["corpus_id"].startswith("hse-bench-")


@pytest.mark.parametrize(
    ("qid", "relative", "line"),
    [
        ("regulation/issue_spotting/001", "results/regulation/issue_spotting/m1.csv", 1),
        ("court_case/rule_application/018", "results/court_case/rule_application/m1.csv", 18),
        ("video/rule_conclusion/025", "results/video/rule_conclusion/m1.csv", 25),
    ],
)
def test_sample_records_match_the_source_field_by_field(
    db: sqlite3.Connection, qid: str, relative: str, line: int
) -> None:
    text, a, b, c, d, letter, reference = source_rows(relative)[line - 1]
    assert db.execute("SELECT text FROM questions WHERE question_id = ?", (qid,)).fetchone() == (
        text,
    )
    options = db.execute(
        "SELECT text, key FROM options WHERE question_id = ? ORDER BY position", (qid,)
    ).fetchall()
    assert options == [(t, int(x == letter)) for t, x in zip((a, b, c, d), "ABCD", strict=True)]
    source, phase, _ = qid.split("/")
    labels = dict(db.execute("SELECT facet, value FROM question_labels WHERE question_id = ?",
                             (qid,)).fetchall())  # fmt: skip
    assert labels == {"source": source, "irac_phase": phase, "source_phase": f"{source}/{phase}"}
    provenance = db.execute(
        "SELECT source_file, source_line, reference FROM question_sources WHERE question_id = ?",
        (qid,),
    ).fetchone()
    assert provenance == (relative, line, reference)


def test_replacement_characters_are_kept_and_reported(
    imported: Imported, db: sqlite3.Connection
) -> None:
    problems = imported.report["problems"]
    assert isinstance(problems, list)
    fffd = [p for p in problems if p["kind"] == "replacement_character"]
    assert Counter(p["file"] for p in fffd) == FFFD_FILES
    assert sum(p["count"] for p in fffd) == 14
    assert all(p["imported"] for p in fffd)
    assert imported.report["problem_counts"] == {"replacement_character": 7}
    for name in FFFD_FILES:
        assert f"warning: {name}:" in imported.stderr
    assert "problems: replacement_character 7 in 3 files" in imported.stderr
    stored = db.execute(
        "SELECT count(*), sum(count) FROM import_problems WHERE kind = 'replacement_character'"
    ).fetchone()
    assert stored == (7, 14)
    with_fffd = db.execute("SELECT count(*) FROM options WHERE text LIKE '%' || char(65533) || '%'")
    assert with_fffd.fetchone() == (7,)


def test_source_folder_is_unchanged(imported: Imported) -> None:
    assert tree_digest(DATA) == imported.before


def test_refuses_to_overwrite_out(imported: Imported) -> None:
    before = imported.path.read_bytes()
    code, out, err = cli("import", "hse-bench", str(DATA), "--out", str(imported.path))
    assert (code, out) == (2, "")
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert "already exists" in err
    assert imported.path.read_bytes() == before


def test_not_an_hse_bench_folder(tmp_path: Path) -> None:
    code, _, err = cli("import", "hse-bench", str(tmp_path), "--out", str(tmp_path / "x.sqlite"))
    assert code == 2
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert not (tmp_path / "x.sqlite").exists()


def _write(path: Path, rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)


def test_problem_rows_are_imported_where_possible_and_reported(tmp_path: Path) -> None:
    results = tmp_path / "src" / "results"
    good = ["Scenario?", "one", "two", "three", "four", "B", "Ref"]
    _write(results / "video" / "rule_recall" / "m1.csv", [
        good,
        ["Bad letter?", "one", "two", "three", "four", "E", "Ref"],
        ["Six columns?", "one", "two", "three", "four", "A"],
        ["Empty D?", "one", "two", "three", "", "A", "Ref"],
        ["Lower case?", "one", "two", "three", "four", " c ", ""],
    ])  # fmt: skip
    _write(results / "video" / "extra" / "m1.csv", [good])
    out = tmp_path / "out.sqlite"
    code, _, err = cli("import", "hse-bench", str(tmp_path / "src"), "--out", str(out),
                       "--report", "-")  # fmt: skip
    assert code == 0, err
    assert "imported 3 questions" in err
    name = "results/video/rule_recall/m1.csv"
    assert (
        f"warning: {name}:2: bad_answer: answer 'E' is not one of A, B, C, D (NOT imported)" in err
    )
    assert f"warning: {name}:3: bad_columns: 6 columns" in err
    assert f"warning: {name}:4: empty_option: option D is empty" in err
    assert f"warning: {name}:5: answer_normalized: answer ' c ' read as C (imported)" in err
    assert f"warning: {name}:5: missing_reference" in err
    assert "unexpected_file" in err
    assert "results/video/extra/m1.csv" in err
    assert err.count(": missing_file: ") == 15
    with contextlib.closing(sqlite3.connect(out)) as conn:
        ids = [r[0] for r in conn.execute("SELECT question_id FROM questions ORDER BY ordinal")]
        assert ids == ["video/rule_recall/001", "video/rule_recall/004", "video/rule_recall/005"]
        keys = conn.execute(
            "SELECT group_concat(key, '') FROM (SELECT * FROM options ORDER BY position)"
            " GROUP BY question_id ORDER BY question_id"
        ).fetchall()
        assert keys == [("0100",), ("1000",), ("0010",)]
        assert conn.execute(
            "SELECT text FROM options WHERE question_id = 'video/rule_recall/004' AND position = 3"
        ).fetchone() == ("",)
