"""``ai4hse-desk import responses`` end to end: add runs, then ``rescore`` them."""

from __future__ import annotations

import contextlib
import csv
import json
import math
import shutil
import sqlite3
from typing import TYPE_CHECKING, Any

import pytest

from tests.core.desk_helpers import cli, listing, public_data, require_data

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

ENVIROEXAM, HSE_BENCH = public_data("enviroexam"), public_data("hse-bench")

#: Single-answer questions S1..S8 (4 options, key at the letter given).
KEYS = {"S1": "B", "S2": "B", "S3": "C", "S4": "C", "S5": "A", "S6": "A", "S7": "B", "S8": "D"}
#: protocol.md 5b examples: response, finish_reason → status, strict, correct.
EXAMPLES: dict[str, dict[str, Any]] = {
    "S1": {"response": "B", "expect": ("valid", True, True)},
    "S2": {"response": "(b).", "expect": ("valid", True, True)},
    "S3": {"response": "The answer is (C).", "expect": ("valid", False, True)},
    "S4": {"response": "I think the answer is **C**", "expect": ("valid", False, True)},
    "S5": {"response": "E", "expect": ("wrong_length", False, False)},
    "S6": {"response": "I cannot tell.", "expect": ("missing", False, False)},
    "S7": {"response": "B", "finish_reason": "length", "expect": ("incomplete", False, False)},
    "S8": {"response": None, "error": "HTTP 500", "expect": ("provider_error", False, False)},
}


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    return path


def rescore(db: Path, *extra: str) -> dict[str, Any]:
    code, out, err = cli("rescore", str(db), *extra)
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def add_run(db: Path, file: Path, run_id: str, *extra: str, track: str = "single_choice") -> str:
    code, _, err = cli("import", "responses", str(db), "--run-id", run_id, "--model", "m",
                       "--track", track, *extra, str(file))  # fmt: skip
    assert code == 0, err
    return err


def expected_index(slices: dict[str, float]) -> float | str:
    """EnviroExam's composite index, computed here from the slice accuracies."""
    values = list(slices.values())
    mean = sum(values) / len(values)
    sigma = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return "void" if mean == 0 or sigma > mean else mean - sigma


@pytest.fixture
def sc_db(tmp_path: Path) -> Path:
    lines = ["question_id,question,option,correct,topic"]
    for qid, letter in KEYS.items():
        for option in "ABCD":
            topic = "even" if int(qid[1]) % 2 == 0 else "odd"
            lines.append(f"{qid},Question {qid}?,Option {option},{option == letter},{topic}")
    source = tmp_path / "sc.csv"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "sc.sqlite"
    assert cli("import", "questions", str(source), "--out", str(out))[0] == 0
    return out


def test_single_choice_examples_end_to_end(sc_db: Path, tmp_path: Path) -> None:
    records = [{"question_id": qid, "repetition": 1, "finish_reason": "stop",
                **{k: v for k, v in spec.items() if k != "expect"}}
               for qid, spec in EXAMPLES.items()]  # fmt: skip
    err = add_run(sc_db, write_jsonl(tmp_path / "r.jsonl", records), "sc1")
    assert "added run sc1" in err
    assert "8 attempts, status complete" in err
    result = rescore(sc_db, "--per-attempt")
    (run,) = result["runs"]
    assert (run["track"], run["scored"], run["attempts"], run["disagreements"]) == (
        "single_choice", True, 8, 0,
    )  # fmt: skip
    assert run["correct"] == 4
    assert run["exact_accuracy"] == 0.5
    got = {
        a["question_id"]: (a["status"], a["strict_format"], a["correct"])
        for a in result["attempts"]
    }
    assert got == {qid: spec["expect"] for qid, spec in EXAMPLES.items()}
    by_id = {a["question_id"]: a for a in result["attempts"]}
    assert by_id["S3"]["selection"] == [False, False, True, False]
    assert by_id["S7"]["selection"] == [False, True, False, False]  # shown, never scored
    assert all(a["agrees"] and a["recorded_status"] == a["status"] for a in result["attempts"])
    assert run["slices"]["topic"] == {"even": 0.5, "odd": 0.5}
    assert run["consistency_index"] == 0.5


def test_csv_responses_missing_pairs_become_pending(sc_db: Path, tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with open(path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question_id", "repetition", "response", "finish_reason", "latency_ms"])
        writer.writerow(["S1", "1", "B", "stop", "120"])
        writer.writerow(["S2", "2", "C", "", ""])
    err = add_run(sc_db, path, "partial", "--temperature", "0.2", "--max-tokens", "16")
    assert "14 not in the file, recorded as pending" in err
    assert "status unfinished" in err
    (run,) = rescore(sc_db)["runs"]
    assert (run["attempts"], run["scored"], run["exact_accuracy"]) == (16, False, None)
    with contextlib.closing(sqlite3.connect(sc_db)) as conn:
        assert conn.execute(
            "SELECT repetitions, status, temperature, max_tokens, prompt_template FROM runs"
        ).fetchone() == (2, "unfinished", 0.2, 16, "zero_shot")
        assert conn.execute(
            "SELECT latency_ms, raw_response FROM attempts"
            " WHERE question_id = 'S1' AND repetition = 1"
        ).fetchone() == (120, "B")


S1 = '{"question_id": "S1", "repetition": 1}'


@pytest.mark.parametrize(
    ("lines", "extra", "message"),
    [
        ([S1, '{"question_id": "Q9", "repetition": 1}'], (), "r.jsonl:2: unknown question id 'Q9'"),
        ([S1, "", S1], (), "r.jsonl:3: 'S1' repetition 1 again (r.jsonl:1)"),
        ([S1.replace("1}", "0}")], (), "r.jsonl:1: repetition must be a whole number ≥ 1"),
        ([S1.replace("1}", "3}")], ("--repetitions", "2"), "r.jsonl:1: repetition 3"),
        ([S1.replace("1}", '"1"}')], (), "r.jsonl:1: repetition must be"),
        (["{not json"], (), "r.jsonl:1: not JSON"),
        ([S1.replace("}", ', "state": "done"}')], (), "r.jsonl:1: state 'done'"),
        ([S1.replace("}", ', "response": 7}')], (), "r.jsonl:1: response must be text"),
        ([S1], ("--split", "dev"), "unknown split 'dev'"),
        ([S1], ("--prompt-setting", "Five Shot"), "prompt setting"),
        ([], (), "r.jsonl: no responses"),
    ],
)
def test_bad_responses_are_exit_2_and_nothing_is_written(
    sc_db: Path, tmp_path: Path, lines: list[str], extra: tuple[str, ...], message: str
) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = listing(sc_db.parent)
    code, out, err = cli("import", "responses", str(sc_db), "--run-id", "x", "--model", "m",
                         "--track", "single_choice", *extra, str(path))  # fmt: skip
    assert (code, out) == (2, "")
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert message in err
    assert listing(sc_db.parent) == before


def test_duplicate_run_id_is_refused(sc_db: Path, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [{"question_id": "S1", "repetition": 1}])
    add_run(sc_db, path, "dup")
    before = listing(sc_db.parent)
    code, _, err = cli("import", "responses", str(sc_db), "--run-id", "dup", "--model", "m",
                       "--track", "answer_only", str(path))  # fmt: skip
    assert code == 2
    assert "run 'dup' already exists" in err
    assert listing(sc_db.parent) == before


def test_runner_and_demo_databases_are_refused(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [{"question_id": "Q001", "repetition": 1}])
    runner = make_audit_db()
    demo = tmp_path / "demo.sqlite"
    assert cli("demo", "--out", str(demo))[0] == 0
    for db in (runner, demo):
        before = listing(db.parent)
        code, _, err = cli("import", "responses", str(db), "--run-id", "new", "--model", "m",
                           "--track", "answer_only", str(path))  # fmt: skip
        assert code == 2
        assert err.count("\n") == 1
        assert "was not made by 'ai4hse-desk import'" in err
        assert listing(db.parent) == before


def test_a_failed_write_leaves_the_original_intact(
    sc_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [{"question_id": "S1", "repetition": 1}])
    before = listing(sc_db.parent)

    def broken_replace(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ai4hse_desk.filewrite.atomic.os.replace", broken_replace)
    code, _, err = cli("import", "responses", str(sc_db), "--run-id", "x", "--model", "m",
                       "--track", "single_choice", str(path))  # fmt: skip
    assert code == 2
    assert "no space left" in err.lower()
    assert listing(sc_db.parent) == before


@pytest.fixture(scope="module")
def enviroexam_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_data(ENVIROEXAM)
    out = tmp_path_factory.mktemp("ee") / "ee.sqlite"
    code, _, err = cli("import", "enviroexam", str(ENVIROEXAM), "--out", str(out))
    assert code == 0, err
    return out


def _answers(db: Path, split: str) -> list[dict[str, Any]]:
    """Responses for every question of ``split``: right in even positions of a course, plus
    all of the first course, so that course accuracies differ."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(
            "SELECT q.question_id, c.value, o.position FROM questions q"
            " JOIN question_labels s ON s.question_id = q.question_id AND s.facet = 'split'"
            " JOIN question_labels c ON c.question_id = q.question_id AND c.facet = 'course'"
            " JOIN options o ON o.question_id = q.question_id AND o.key = 1"
            " WHERE s.value = ? ORDER BY q.ordinal",
            (split,),
        ).fetchall()
    records = []
    for qid, course, position in rows:
        right = int(qid.rsplit("/", 1)[1]) % 2 == 0 or course.startswith("advanced")
        letter = "ABCD"[position if right else (position + 1) % 4]
        records.append(
            {"question_id": qid, "repetition": 1, "response": f"The answer is {letter}."}
        )
    return records


def test_enviroexam_runs_per_split_and_prompt_setting(enviroexam_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "ee.sqlite"
    shutil.copy(enviroexam_db, db)
    dev = write_jsonl(tmp_path / "dev.jsonl", _answers(db, "dev"))
    test = write_jsonl(tmp_path / "test.jsonl", _answers(db, "test"))
    code, _, err = cli("import", "responses", str(db), "--run-id", "x", "--model", "m",
                       "--track", "single_choice", str(dev))  # fmt: skip
    assert code == 2
    assert "give --split" in err
    code, _, err = cli("import", "responses", str(db), "--run-id", "x", "--model", "m",
                       "--track", "single_choice", "--split", "test", str(dev))  # fmt: skip
    assert code == 2
    assert "dev.jsonl:1: question 'dev/" in err
    assert "a run covers one split" in err
    add_run(db, dev, "dev-0", "--split", "dev")
    add_run(db, test, "test-5", "--split", "test", "--prompt-setting", "five_shot")
    runs = {run["run_id"]: run for run in rescore(db)["runs"]}
    assert set(runs) == {"dev-0", "test-5"}
    for run_id, split, attempts in (("dev-0", "dev", 210), ("test-5", "test", 726)):
        run = runs[run_id]
        assert (run["track"], run["attempts"], run["scored"]) == ("single_choice", attempts, True)
        assert list(run["slices"]["split"]) == [split]
        assert len(run["slices"]["course"]) == 42
        assert run["consistency_index"] == pytest.approx(expected_index(run["slices"]["course"]))
    assert runs["dev-0"]["slices"]["course"]["advanced_environmental_chemistry"] == 1.0
    with contextlib.closing(sqlite3.connect(db)) as conn:
        assert conn.execute(
            "SELECT r.run_id, r.prompt_template, i.split, i.prompt_setting, i.source_file"
            " FROM runs r JOIN run_imports i USING (run_id) ORDER BY 1"
        ).fetchall() == [
            ("dev-0", "zero_shot", "dev", "zero_shot", "dev.jsonl"),
            ("test-5", "five_shot", "test", "five_shot", "test.jsonl"),
        ]


def test_hse_bench_run_slices_by_source_and_phase(tmp_path: Path) -> None:
    require_data(HSE_BENCH)
    db = tmp_path / "hse.sqlite"
    assert cli("import", "hse-bench", str(HSE_BENCH), "--out", str(db))[0] == 0
    with contextlib.closing(sqlite3.connect(db)) as conn:
        keys = conn.execute(
            "SELECT question_id, position FROM options WHERE key = 1 ORDER BY question_id"
        ).fetchall()
    records = [
        {"question_id": qid, "repetition": rep,
         "response": "ABCD"[pos if not qid.startswith("video") or rep == 1 else (pos + 1) % 4]}
        for rep in (1, 2) for qid, pos in keys
    ]  # fmt: skip
    add_run(db, write_jsonl(tmp_path / "r.jsonl", records), "hse")
    (run,) = rescore(db)["runs"]
    assert (run["attempts"], run["correct"], run["disagreements"]) == (2040, 1940, 0)
    assert [r["exact_accuracy"] for r in run["repetitions"]] == [1.0, pytest.approx(920 / 1020)]
    assert set(run["slices"]) == {"source", "irac_phase", "source_phase"}
    assert run["slices"]["source"]["video"] == 0.5
    assert run["slices"]["source_phase"]["video/rule_recall"] == 0.5
    assert len(run["slices"]["source_phase"]) == 16
    assert run["consistency_index"] == pytest.approx(expected_index(run["slices"]["source_phase"]))
