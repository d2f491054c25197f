"""``ai4hse-desk import enviroexam``: the real EnviroExam files, read where they are.

The data (MIT) stays in ``../shared/data/enviroexam`` (or
``$AI4HSE_PUBLIC_DATA/enviroexam``); tests compare the database with the CSV
files read independently here.
"""

from __future__ import annotations

import contextlib
import csv
import json
import sqlite3
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from tests.core.desk_helpers import cli, public_data, require_data, tree_digest

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

DATA = public_data("enviroexam")


@pytest.fixture(autouse=True, scope="module")
def _data_present() -> None:
    require_data(DATA)


def source_rows(relative: str) -> list[list[str]]:
    """Data rows (header dropped) of one source CSV."""
    with open(DATA / relative, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))[1:]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, object]]:
    before = tree_digest(DATA)
    out = tmp_path_factory.mktemp("enviroexam") / "ee.sqlite"
    code, stdout, stderr = cli(
        "import", "enviroexam", str(DATA), "--out", str(out), "--report", "-"
    )
    assert code == 0, stderr
    assert tree_digest(DATA) == before, "the source folder changed"
    return out, stderr, json.loads(stdout)


@pytest.fixture
def db(imported: tuple[Path, str, dict[str, object]]) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(f"file:{imported[0]}?mode=ro", uri=True)) as conn:
        yield conn


def test_imports_936_questions_210_dev_726_test(db: sqlite3.Connection) -> None:
    assert db.execute("SELECT count(*) FROM questions").fetchone() == (936,)
    splits = dict(
        db.execute(
            "SELECT value, count(*) FROM question_labels WHERE facet = 'split' GROUP BY value"
        ).fetchall()
    )
    assert splits == {"dev": 210, "test": 726}
    assert set(
        db.execute("SELECT count(*), sum(key) FROM options GROUP BY question_id").fetchall()
    ) == {(4, 1)}


def test_course_counts_match_the_files(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT c.value, s.value FROM question_labels c JOIN question_labels s"
        " ON s.question_id = c.question_id AND s.facet = 'split' WHERE c.facet = 'course'"
    ).fetchall()
    counts = Counter(rows)
    courses = {course for course, _ in counts}
    assert len(courses) == 42
    expected = {
        (path.stem, split): len(source_rows(f"{split}/{path.name}"))
        for split in ("dev", "test")
        for path in (DATA / split).glob("*.csv")
    }
    assert dict(counts) == expected
    assert all(counts[course, "dev"] == 5 for course in courses)


def test_meta_and_report(imported: tuple[Path, str, dict[str, object]]) -> None:
    path, stderr, report = imported
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        meta = dict(conn.execute("SELECT key, value FROM audit_meta").fetchall())
    assert meta["created_by"] == "ai4hse-desk import enviroexam"
    assert meta["consistency_facet"] == "course"
    assert meta["benchmark"] == "EnviroExam"
    assert meta["source_license"] == "MIT"
    assert report["questions"] == 936
    assert report["problems"] == []
    assert report["labels"]["split"] == {"dev": 210, "test": 726}  # type: ignore[index]
    assert "imported 936 questions" in stderr
    assert "split: dev 210, test 726" in stderr


@pytest.mark.parametrize(
    ("split", "course", "position"),
    [
        ("dev", "advanced_environmental_chemistry", 0),
        ("test", "environmental_monitoring", 7),
        ("test", "water_pollution_control_engineering", -1),
    ],
)
def test_sample_records_match_the_source_field_by_field(
    db: sqlite3.Connection, split: str, course: str, position: int
) -> None:
    rows = source_rows(f"{split}/{course}.csv")
    index, text, a, b, c, d, answer = rows[position]
    qid = f"{split}/{course}/{int(index):03d}"
    assert db.execute("SELECT text FROM questions WHERE question_id = ?", (qid,)).fetchone() == (
        text,
    )
    options = db.execute(
        "SELECT text, key FROM options WHERE question_id = ? ORDER BY position", (qid,)
    ).fetchall()
    assert options == [(t, int(x == answer)) for t, x in zip((a, b, c, d), "ABCD", strict=True)]
    labels = dict(
        db.execute(
            "SELECT facet, value FROM question_labels WHERE question_id = ?", (qid,)
        ).fetchall()
    )
    assert labels == {"course": course, "split": split}
    line = (len(rows) if position < 0 else position + 1) + 1
    assert db.execute(
        "SELECT source_file, source_line FROM question_sources WHERE question_id = ?", (qid,)
    ).fetchone() == (f"{split}/{course}.csv", line)


def test_ordinals_put_dev_before_test(db: sqlite3.Connection) -> None:
    ids = [row[0] for row in db.execute("SELECT question_id FROM questions ORDER BY ordinal")]
    assert all(qid.startswith("dev/") for qid in ids[:210])
    assert all(qid.startswith("test/") for qid in ids[210:])


def test_bad_header_and_rows_are_reported(tmp_path: Path) -> None:
    dev = tmp_path / "src" / "dev"
    dev.mkdir(parents=True)
    (dev / "ok_course.csv").write_text(
        ",Question,A,B,C,D,Answer\r\n0,Q zero?,a,b,c,d,A\r\n1,Q one?,a,b,c,d,X\r\n"
        "5,Q two?,a,b,c,d,B\r\n3,too few,a,b\r\n",
        encoding="utf-8",
    )
    (dev / "no_header.csv").write_text("0,Q?,a,b,c,d,A\n", encoding="utf-8")
    out = tmp_path / "out.sqlite"
    code, _, err = cli("import", "enviroexam", str(tmp_path / "src"), "--out", str(out))
    assert code == 0, err
    assert "warning: dev/no_header.csv:1: bad_header" in err
    assert "warning: dev/ok_course.csv:3: bad_answer: answer 'X'" in err
    assert "warning: dev/ok_course.csv:4: index_mismatch" in err
    assert "warning: dev/ok_course.csv:5: bad_columns" in err
    assert "warning: test: missing_split" in err
    assert "imported 2 questions" in err
