"""The honest probability (issue 35): shown only on corpora like the calibration data,
withheld with its reason elsewhere; the rank and the evidence in words always."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.keyaudit import KeyAuditResult, compute_key_audit
from ai4hse_desk.keyaudit.calibration import probability
from ai4hse_desk.launcher import main
from tests.core.test_keyaudit_ranking import build, options

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from tests.audit_factory import AuditContent

QUESTIONS = 40
PLANTED = "Q07"


def one_hot(position: int) -> tuple[bool, ...]:
    return tuple(i == position for i in range(4))


def single_choice(
    make_audit_db: Callable[..., Path], base: AuditContent, runs: int, accuracy: float
) -> Path:
    """``runs`` single-choice runs answering about ``accuracy`` of the keys (the later
    runs a little less); on PLANTED (key A) the first 8 in 10 runs choose C."""
    names = {f"run{j:02d}": "single_choice" for j in range(runs)}
    questions = []
    answers: dict[tuple[str, str], tuple[bool, ...]] = {}
    for q in range(QUESTIONS):
        qid = f"Q{q:02d}"
        key = one_hot(q % 4)
        questions.append((qid, q + 1, f"Which sign marks exit route {q}?", options(key, qid)))
        for j, run in enumerate(names):
            right = (q * 37 + j * 11) % 100 < accuracy * 100 - j
            answers[(run, qid)] = key if right else one_hot((q + 1 + j % 2) % 4)
    questions[7] = (PLANTED, 8, "Which glove resists acetone?", options(one_hot(0), PLANTED))
    for j, run in enumerate(names):
        answers[(run, PLANTED)] = one_hot(2) if j < 0.8 * runs else one_hot(0)
    return make_audit_db(content=build(base, questions, names, answers, repetitions=1))


def audit(path: Path) -> KeyAuditResult:
    with open_audit(path) as db:
        return compute_key_audit(db)


def test_ten_single_choice_runs_like_the_calibration_runs_get_a_probability(
    make_audit_db: Callable[..., Path], audit_content: AuditContent
) -> None:
    result = audit(single_choice(make_audit_db, audit_content, 10, 0.85))
    top = result.questions[0]
    assert top.question_id == PLANTED
    assert top.rank == 1
    assert top.option == 2
    assert result.corpus["calibration"]["applies"] is True
    assert result.corpus["calibration"]["questions_with_probability"] == QUESTIONS
    for item in result.questions:
        assert item.probability is not None
        assert item.withheld is None
        assert item.probability == pytest.approx(probability(item.suspicion), abs=1e-4)
    # Calibrated on real key errors: even 8 of 10 runs against a key is far from certain.
    assert 0.1 < top.probability < 0.5  # type: ignore[operator]
    # The 8 that choose C are the 8 strongest: named up to three, strongest first.
    assert top.reasons[0] == (
        "8 of 10 runs, including the 8 strongest (run03, run00, run01, …), choose C; the key says A"
    )
    assert top.reasons[1] == "2 of 10 runs (run08, run09) give the key's answer"


def test_too_few_runs_withhold_the_probability_but_keep_rank_and_words(
    make_audit_db: Callable[..., Path], audit_content: AuditContent
) -> None:
    result = audit(single_choice(make_audit_db, audit_content, 5, 0.85))
    top = result.questions[0]
    assert top.question_id == PLANTED
    assert top.rank == 1
    assert all(item.probability is None for item in result.questions)
    assert top.withheld == "5 runs answer it; the calibration holds for 8 to 10"
    assert top.reasons[0].startswith("4 of 5 runs, including the 4 strongest (run03, ")
    assert result.corpus["calibration"]["questions_with_probability"] == 0


def test_runs_unlike_the_calibration_runs_withhold_it_for_the_whole_corpus(
    make_audit_db: Callable[..., Path],
    audit_content: AuditContent,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = single_choice(make_audit_db, audit_content, 10, 0.45)
    result = audit(path)
    calibration = result.corpus["calibration"]
    assert calibration["applies"] is False
    assert calibration["reason"].startswith("the single-choice runs answer ")
    assert calibration["reason"].endswith("the calibration holds for 70% to 95%")
    assert all(item.probability is None for item in result.questions)
    assert {item.withheld for item in result.questions} == {calibration["reason"]}
    assert main(["keyaudit", str(path), "--top", "3"]) == 0
    shown = json.loads(capsys.readouterr().out)["questions"]
    assert [q["rank"] for q in shown] == [1, 2, 3]
    assert all(q["probability"] is None for q in shown)
    assert shown[0]["probability_withheld"] == calibration["reason"]
    assert shown[0]["score"] >= shown[1]["score"] >= shown[2]["score"]
