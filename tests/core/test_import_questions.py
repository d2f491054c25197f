"""``ai4hse-desk import questions``: the AI4HSE question-input CSV (README format)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import TYPE_CHECKING

import pytest

from tests.core.desk_helpers import cli

if TYPE_CHECKING:
    from pathlib import Path

GOOD = """\
question_id,question,option,correct,topic,label:difficulty
Q1,Which PPE protects the eyes?,Safety glasses,TRUE,PPE,easy
Q1,,Ear plugs,false,,
Q2,When is a permit needed?,,,Permits,hard
Q2,When is a permit needed?,Hot work,True,,
Q1,,Face shield, TRUE ,,
Q2,,Filing paperwork,FALSE,,
"""

BAD = """\
question_id,question,option,correct,topic
Q1,Which PPE protects the eyes?,Safety glasses,TRUE,PPE
Q1,,Ear plugs,FALSE,
Q2,Which signs warn of a hazard?,Yellow triangle,yes,Signs
Q2,,Blue circle,FALSE,
Q3,A question without options,,,Signs
Q4,Which agents put out a fire?,Water,TRUE,Fire
Q4,,,FALSE,
,Orphan,An option,TRUE,
Q5,"Multi-line
question text?",A,TRUE,Fire
Q5,Another text,B,FALSE,
"""


def write(tmp_path: Path, text: str, name: str = "questions.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return conn.execute(sql).fetchall()


def test_valid_csv_groups_options_by_question_id(tmp_path: Path) -> None:
    out = tmp_path / "q.sqlite"
    code, _, err = cli("import", "questions", str(write(tmp_path, GOOD)), "--out", str(out))
    assert code == 0, err
    assert "imported 2 questions" in err
    assert "warning" not in err
    assert rows(out, "SELECT question_id, ordinal, text FROM questions ORDER BY ordinal") == [
        ("Q1", 1, "Which PPE protects the eyes?"),
        ("Q2", 2, "When is a permit needed?"),
    ]
    assert rows(out, "SELECT question_id, position, text, key FROM options ORDER BY 1, 2") == [
        ("Q1", 0, "Safety glasses", 1),
        ("Q1", 1, "Ear plugs", 0),
        ("Q1", 2, "Face shield", 1),
        ("Q2", 0, "Hot work", 1),
        ("Q2", 1, "Filing paperwork", 0),
    ]
    assert rows(out, "SELECT question_id, facet, value FROM question_labels ORDER BY 1, 2") == [
        ("Q1", "difficulty", "easy"),
        ("Q1", "topic", "PPE"),
        ("Q2", "difficulty", "hard"),
        ("Q2", "topic", "Permits"),
    ]
    meta = {key: value for key, value in rows(out, "SELECT key, value FROM audit_meta")}
    assert meta["created_by"] == "ai4hse-desk import questions"
    assert meta["benchmark"] == "AI4HSE-Bench v1"
    assert meta["consistency_facet"] == "topic"
    assert rows(out, "SELECT question_id, source_line FROM question_sources ORDER BY 1") == [
        ("Q1", 2),
        ("Q2", 4),
    ]


def test_bad_tokens_and_questions_without_options_are_reported_by_line(tmp_path: Path) -> None:
    out, report = tmp_path / "q.sqlite", tmp_path / "report.json"
    csv_path = write(tmp_path, BAD)
    code, _, err = cli("import", "questions", str(csv_path), "--out", str(out),
                       "--report", str(report))  # fmt: skip
    assert code == 0, err
    assert "warning: questions.csv:4: bad_token: correct is 'yes', not TRUE or FALSE; " \
        "question 'Q2' left out (NOT imported)" in err  # fmt: skip
    assert "warning: questions.csv:6: no_options: the question has no options; " \
        "question 'Q3' left out" in err  # fmt: skip
    assert "warning: questions.csv:8: empty_option: the option text is empty" in err
    assert "warning: questions.csv:9: missing_question_id: no question_id; record left out" in err
    assert "warning: questions.csv:12: question_text_differs" in err
    assert "imported 1 question into " in err  # one question, in the singular
    assert rows(out, "SELECT question_id FROM questions") == [("Q1",)]
    data = json.loads(report.read_text("utf-8"))
    found = {(p["line"], p["kind"], p["question_id"]) for p in data["problems"]}
    assert found == {
        (4, "bad_token", "Q2"),
        (6, "no_options", "Q3"),
        (8, "empty_option", "Q4"),
        (9, "missing_question_id", None),
        (12, "question_text_differs", "Q5"),
    }
    assert not any(p["imported"] for p in data["problems"])
    assert data["written"] is True
    assert data["questions"] == 1
    assert rows(out, "SELECT source_line, kind FROM import_problems ORDER BY 1") == [
        (4, "bad_token"), (6, "no_options"), (8, "empty_option"), (9, "missing_question_id"),
        (12, "question_text_differs"),
    ]  # fmt: skip


def test_nothing_valid_is_exit_2_with_line_numbers(tmp_path: Path) -> None:
    text = "question_id,question,option,correct\nQ1,Only a question,,\nQ2,Text,Opt,maybe\n"
    out, report = tmp_path / "q.sqlite", tmp_path / "report.json"
    code, stdout, err = cli("import", "questions", str(write(tmp_path, text)), "--out", str(out),
                            "--report", str(report))  # fmt: skip
    assert (code, stdout) == (2, "")
    assert err.startswith("error: nothing to import: ")
    assert err.count("\n") == 1
    assert "questions.csv:2: no_options" in err
    assert "questions.csv:3: bad_token" in err
    assert not out.exists()
    assert json.loads(report.read_text("utf-8"))["written"] is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("question_id,question,option\nQ1,T,O\n", "missing column(s) correct"),
        ("", "empty file"),
        ("question_id,question,option,correct,option\n", "appears twice"),
    ],
)
def test_bad_header_is_exit_2(tmp_path: Path, text: str, message: str) -> None:
    out = tmp_path / "q.sqlite"
    code, _, err = cli("import", "questions", str(write(tmp_path, text)), "--out", str(out))
    assert code == 2
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert message in err
    assert not out.exists()


def test_unknown_column_is_reported_and_ignored(tmp_path: Path) -> None:
    text = "question_id,question,option,correct,comment\nQ1,T,A,TRUE,x\nQ1,,B,FALSE,y\n"
    out = tmp_path / "q.sqlite"
    code, _, err = cli("import", "questions", str(write(tmp_path, text)), "--out", str(out))
    assert code == 0
    assert "warning: questions.csv:1: unknown_column: column 'comment'" in err
    assert rows(out, "SELECT count(*) FROM options") == [(2,)]


def test_refuses_to_overwrite_out_or_report(tmp_path: Path) -> None:
    csv_path = write(tmp_path, GOOD)
    existing = tmp_path / "existing.sqlite"
    existing.write_bytes(b"keep me")
    code, _, err = cli("import", "questions", str(csv_path), "--out", str(existing))
    assert code == 2
    assert "already exists" in err
    code, _, err = cli("import", "questions", str(csv_path), "--out", str(tmp_path / "new.sqlite"),
                       "--report", str(existing))  # fmt: skip
    assert code == 2
    assert "already exists" in err
    assert existing.read_bytes() == b"keep me"
    assert not (tmp_path / "new.sqlite").exists()
