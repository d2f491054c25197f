"""Key-audit ranking on hand-made audit databases: a flipped key, negative
discrimination, single-choice letters, ties, and the ``keyaudit`` command."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.keyaudit import KeyAuditResult, compute_key_audit
from ai4hse_desk.launcher import main
from tests.audit_factory import render_response
from tests.core.desk_helpers import question as q

if TYPE_CHECKING:
    from pathlib import Path

    from tests.audit_factory import AuditContent

Answer = Sequence[bool] | Sequence[Sequence[bool]]  # one selection, or one per repetition

# Six runs, three per track, strong and weak mixed in each track.
SKILLS = {"s1": 0.9, "s2": 0.8, "s3": 0.7, "w1": 0.4, "w2": 0.3, "w3": 0.2}
TRACKS = {
    "s1": "answer_only",
    "s3": "answer_only",
    "w2": "answer_only",
    "s2": "structured_output",
    "w1": "structured_output",
    "w3": "structured_output",
}
KEY4 = (True, False, False, True)


def flip(selection: Sequence[bool], *positions: int) -> tuple[bool, ...]:
    return tuple(not v if i in positions else v for i, v in enumerate(selection))


def build(
    base: AuditContent,
    questions: Sequence[tuple[str, int, str, Sequence[tuple[str, bool]]]],
    runs: Mapping[str, str],
    answers: Mapping[tuple[str, str], Answer],
    repetitions: int = 3,
) -> AuditContent:
    """AuditContent with ``questions`` (id, ordinal, text, options), ``runs`` (id → track)
    and ``answers[(run, question)]``; every attempt is answered."""
    template = dict(base.runs[0])
    run_rows = tuple(
        {
            **template,
            "run_id": run_id,
            "model": f"model-{run_id}",
            "track": track,
            "repetitions": repetitions,
            "status": "complete",
        }
        for run_id, track in runs.items()
    )
    attempts: list[dict[str, Any]] = []
    for run_id, track in runs.items():
        for rep in range(1, repetitions + 1):
            for qid, *_ in questions:
                answer = answers[(run_id, qid)]
                # one selection per repetition, or the one selection (Answer)
                chosen = cast(
                    "Sequence[bool]", answer[rep - 1] if isinstance(answer[0], Sequence) else answer
                )
                attempts.append(
                    {
                        "attempt_id": len(attempts) + 1,
                        "run_id": run_id,
                        "question_id": qid,
                        "repetition": rep,
                        "state": "answered",
                        "raw_response": render_response(track, chosen),
                        "finish_reason": "stop",
                    }
                )
    rows = tuple(
        {
            "question_id": qid,
            "ordinal": ordinal,
            "text": text,
            "options": tuple(options),
            "labels": {"topic": "PPE"},
        }
        for qid, ordinal, text, options in questions
    )
    return dataclasses.replace(base, questions=rows, runs=run_rows, attempts=tuple(attempts))


def options(key: Sequence[bool], tag: str) -> list[tuple[str, bool]]:
    return [(f"Option {i} about {tag}", k) for i, k in enumerate(key)]


def mixed_content(base: AuditContent) -> AuditContent:
    """20 filler questions answered by skill, plus FLIP (key flipped at option 2;
    every run but the weakest, which says all TRUE, answers the original key),
    NEG (strong runs wrong in different ways, weak runs right) and HARD1/HARD2
    (only the two strongest runs right)."""
    questions: list[tuple[str, int, str, Sequence[tuple[str, bool]]]] = []
    answers: dict[tuple[str, str], Answer] = {}
    for j in range(20):
        qid = f"F{j:02d}"
        questions.append(
            (qid, j + 1, f"Filler question number {j} on topic {j * 37}", options(KEY4, qid))
        )
        for i, (run, skill) in enumerate(SKILLS.items()):
            right = (j * 7 + i * 3) % 10 < skill * 10
            answers[(run, qid)] = KEY4 if right else flip(KEY4, (i + j) % 4)
    original = (True, False, False, True)
    flipped = flip(original, 2)
    questions.append(("FLIP", 21, "Which gloves resist solvents?", options(flipped, "FLIP")))
    for run in SKILLS:
        answers[(run, "FLIP")] = original if run != "w3" else (True, True, True, True)
    questions.append(("NEG", 22, "Which signs mean an exit route?", options(KEY4, "NEG")))
    for i, run in enumerate(SKILLS):
        answers[(run, "NEG")] = flip(KEY4, i) if run.startswith("s") else KEY4
    for ordinal, qid in ((23, "HARD1"), (24, "HARD2")):
        questions.append((qid, ordinal, f"Hard question {qid} on ladders", options(KEY4, qid)))
        for i, run in enumerate(SKILLS):
            answers[(run, qid)] = KEY4 if run in ("s1", "s2") else flip(KEY4, (i + ordinal) % 4)
    return build(base, questions, TRACKS, answers)


@pytest.fixture
def mixed_db(make_audit_db: Callable[..., Path], audit_content: AuditContent) -> Path:
    return make_audit_db(content=mixed_content(audit_content))


def audit(path: Path) -> KeyAuditResult:
    with open_audit(path) as db:
        return compute_key_audit(db)


def rank(result: KeyAuditResult, qid: str) -> int:
    return [item.question_id for item in result.questions].index(qid)


def test_flipped_key_ranks_first_and_names_the_option(mixed_db: Path) -> None:
    result = audit(mixed_db)
    top = result.questions[0]
    assert top.question_id == "FLIP"
    assert top.option == 2
    # Issue 35: plain words, runs named by strength; no probability on a corpus unlike
    # the calibration data (multi-select runs), the rank and the evidence instead.
    assert top.reasons[0] == (
        "5 of 6 runs, including the strongest run of each track, answer C FALSE; the key says TRUE"
    )
    assert top.rank == 1
    assert top.probability is None
    assert top.withheld is not None
    assert top.withheld.startswith("no single-choice runs")
    consensus = top.signals["consensus"]
    assert consensus["against"] == 5
    assert consensus["concentrated"] is True
    assert consensus["options"][2]["by_track"] == {
        "answer_only": {"runs": 3, "against": 3},
        "structured_output": {"runs": 3, "against": 2},
    }
    assert top.signals["difficulty"]["never_correct"] is True


def test_negative_discrimination_ranks_above_ordinary_hard_questions(mixed_db: Path) -> None:
    result = audit(mixed_db)
    neg = result.by_id()["NEG"]
    assert neg.signals["discrimination"]["r"] < -0.5
    assert any("runs that do best on the other questions get this one wrong" in reason
               for reason in neg.reasons)  # fmt: skip
    for hard in ("HARD1", "HARD2"):
        item = result.by_id()[hard]
        assert item.signals["discrimination"]["r"] > 0
        assert rank(result, "NEG") < rank(result, hard)
        assert neg.score > item.score


def test_repetitions_are_one_vote_per_run(
    make_audit_db: Callable[..., Path], audit_content: AuditContent
) -> None:
    key = (True, False, False, True)
    other = flip(key, 1)
    runs = {"a": "answer_only", "b": "answer_only", "c": "reasoning_assisted"}
    answers: dict[tuple[str, str], Answer] = {
        ("a", "Q1"): [other, other, key],  # majority against
        ("b", "Q1"): [key, key, other],  # majority with the key
        ("c", "Q1"): [key, other, other],
    }
    content = build(audit_content, [("Q1", 1, "One question", options(key, "Q1"))], runs, answers)
    item = audit(make_audit_db(content=content)).questions[0]
    votes = item.signals["consensus"]["options"][1]
    assert (votes["runs"], votes["against"]) == (3, 2)
    assert item.signals["instability"]["unstable_runs"] == 3
    assert item.signals["difficulty"]["by_track"]["answer_only"]["correct"] == 3


def test_single_choice_points_at_the_chosen_letter(
    make_audit_db: Callable[..., Path], audit_content: AuditContent
) -> None:
    runs = {f"sc{i}": "single_choice" for i in range(5)}
    questions = []
    answers: dict[tuple[str, str], Answer] = {}
    for j in range(8):
        key = tuple(p == j % 4 for p in range(4))
        qid = f"HS{j}"
        questions.append((qid, j + 1, f"Scenario {j}: which duty applies?", options(key, qid)))
        for i, run in enumerate(runs):
            answers[(run, qid)] = key if (i + j) % 5 else flip(key, j % 4, (j + 1) % 4)
    key_a = (True, False, False, False)
    questions[3] = ("HS3", 4, "Scenario 3: which duty applies?", options(key_a, "HS3"))
    c_pick = (False, False, True, False)
    for i, run in enumerate(runs):
        answers[(run, "HS3")] = c_pick if i < 4 else key_a
    content = build(audit_content, questions, runs, answers, repetitions=2)
    result = audit(make_audit_db(content=content))
    top = result.questions[0]
    assert top.question_id == "HS3"
    assert top.option == 2
    assert top.reasons[0].startswith("4 of 5 runs, including the ")
    assert top.reasons[0].endswith(" choose C; the key says A")
    assert top.probability is None  # 5 runs: the calibration needs 8 to 10
    assert top.withheld == "5 runs answer it; the calibration holds for 8 to 10"
    assert [r["run_id"] for r in result.corpus["reliability"]] == list(runs)
    assert all(0 < r["letters"]["accuracy"] < 1 for r in result.corpus["reliability"])
    assert result.corpus["position_skew"]["method"] == "one_hot"


def test_ties_are_broken_by_ordinal_and_top_limits(
    make_audit_db: Callable[..., Path],
    audit_content: AuditContent,
    capsys: pytest.CaptureFixture[str],
) -> None:
    questions = [
        ("QA", 3, "Alpha question about scaffolds", options(KEY4, "alpha scaffolds")),
        ("QB", 1, "Bravo question about noise", options(KEY4, "bravo noise")),
        ("QC", 2, "Charlie question about asbestos", options(KEY4, "charlie asbestos")),
    ]
    runs = {"r1": "answer_only", "r2": "structured_output"}
    answers: dict[tuple[str, str], Answer] = {(r, q[0]): KEY4 for r in runs for q in questions}
    path = make_audit_db(content=build(audit_content, questions, runs, answers))
    result = audit(path)
    assert [item.question_id for item in result.questions] == ["QB", "QC", "QA"]
    assert len({item.score for item in result.questions}) == 1  # equal evidence, equal P
    assert all(item.score < 0.05 for item in result.questions)
    assert all(item.option is None and item.reasons == () for item in result.questions)

    code = main(["keyaudit", str(path), "--top", "2"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert [q["question_id"] for q in json.loads(out)["questions"]] == ["QB", "QC"]


def test_command_json_shape_and_order(mixed_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["keyaudit", str(mixed_db)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert set(data) == {"questions", "corpus", "audit"}
    items = data["questions"]
    assert len(items) == 24
    for item in items:
        assert set(item) == {
            "question_id", "ordinal", "rank", "option", "score", "probability",
            "probability_withheld", "signals", "reasons",
        }  # fmt: skip
        assert item["probability"] is None  # multi-select runs: no calibration
        assert item["probability_withheld"]
        assert item["option"] is None or isinstance(item["option"], int)
        assert isinstance(item["score"], float)
        assert 0.0 <= item["score"] <= 1.0
        assert set(item["signals"]) == {
            "consensus",
            "discrimination",
            "difficulty",
            "instability",
            "hygiene",
            "components",
            "model",
            "suspicion",
        }
    order = [(-item["score"], item["ordinal"]) for item in items]
    assert order == sorted(order)
    assert [item["rank"] for item in items] == list(range(1, len(items) + 1))
    assert items[0]["question_id"] == "FLIP"
    assert items[0]["option"] == 2
    assert {"position_skew", "hygiene", "runs", "score", "reliability"} <= set(data["corpus"])
    assert {r["run_id"] for r in data["corpus"]["reliability"]} == set(SKILLS)
    assert main(["keyaudit", str(mixed_db), "--top", "3"]) == 0
    assert [q["question_id"] for q in json.loads(capsys.readouterr()[0])["questions"]] == [
        item["question_id"] for item in items[:3]
    ]


def test_no_row_without_a_reason_ranks_above_one_with_a_reason() -> None:
    """Issue 14, point 9: a question the audit cannot explain never outranks one it can."""
    from ai4hse_desk.keyaudit.result import QuestionSuspicion, rank_key

    silent = QuestionSuspicion(question_id="Q1", ordinal=1, option=None, score=0.9,
                               signals={}, reasons=())  # fmt: skip
    explained = QuestionSuspicion(question_id="Q2", ordinal=2, option=None, score=0.4,
                                  signals={}, reasons=("6 of 8 runs agree on B",))  # fmt: skip
    assert [q.question_id for q in sorted([silent, explained], key=rank_key)] == ["Q2", "Q1"]


@pytest.mark.parametrize(("tied", "said"), [(1, "1 run answers"), (2, "2 runs answer")])
def test_runs_without_a_majority_are_named_in_plain_grammar(tied: int, said: str) -> None:
    from ai4hse_desk.audit.records import Option, Question
    from ai4hse_desk.keyaudit.evidence import vote_sentences
    from ai4hse_desk.keyaudit.suspicion import VoteSummary
    from ai4hse_desk.keyaudit.tally import RunTally
    from ai4hse_desk.protocol.outcome import Track

    question = Question("Q1", 1, "Which?", (Option(0, "a", True), Option(1, "b", False)))
    runs = {
        name: RunTally(name, name, Track.ANSWER_ONLY, attempts=10, correct=correct)
        for name, correct in (("r1", 9), ("r2", 8), ("r3", 7), ("r4", 6))
    }
    key, other = (True, False), (False, True)
    votes = VoteSummary(
        voters=4 - tied, agree=1, contest=3 - tied, alternative=other, declined=0,
        votes={"r1": key, **{f"r{i}": other for i in range(2, 5 - tied)}}, tied=tied,
    )  # fmt: skip
    sentences = vote_sentences(question, votes, runs, letters=False)
    assert sentences[-1] == (
        f"{said} differently in equal numbers of repetitions (no majority: not counted)"
    )


def _summary(answers: Sequence[tuple[bool, ...]], key: tuple[bool, ...]) -> Any:
    """One vote per run ``r0``, ``r1``, …: what the key audit's tally makes of ``answers``."""
    from collections import Counter

    from ai4hse_desk.keyaudit.suspicion import VoteSummary

    others = Counter(a for a in answers if a != key).most_common(1)
    alternative, contest = others[0] if others else (None, 0)
    return VoteSummary(voters=len(answers), agree=answers.count(key), contest=contest,
                       alternative=alternative, declined=0,
                       votes={f"r{i}": a for i, a in enumerate(answers)})  # fmt: skip


def test_the_counts_in_the_evidence_add_up_to_the_runs_on_a_multi_select_question() -> None:
    """The first sentence counts the runs that differ on the option pointed at (7); "the
    other" runs must then say what they are other than, or 7 + 2 + 5 reads as 14 of 10."""
    from ai4hse_desk.keyaudit.evidence import vote_sentences
    from ai4hse_desk.keyaudit.tally import RunTally
    from ai4hse_desk.protocol.outcome import Track

    runs = {f"r{i}": RunTally(f"r{i}", f"m{i}", Track.ANSWER_ONLY, attempts=10, correct=9 - i % 5)
            for i in range(10)}  # fmt: skip
    key = (True, False, True, False)
    answers = [key] * 2 + [(False, False, True, False)] * 3 + [(False, True, True, False)] * 2
    answers += [(False, False, False, False)] * 2 + [(True, True, True, False)]
    votes = _summary(answers, key)
    assert (votes.agree, votes.contest) == (2, 3)
    sentences = vote_sentences(q("Q1", "Which?", "abcd", key), votes, runs, letters=False, option=0)
    assert sentences[0].startswith("7 of 10 runs")
    assert sentences[0].endswith("answer A FALSE; the key says TRUE")
    assert sentences[1].startswith("2 of 10 runs")
    assert "give the key's answer" in sentences[1]
    assert sentences[2] == (
        "besides the 3 runs that give the most common other answer, the other 5 runs that "
        "disagree with the key scatter over 3 other answers"
    )
    # On a letter question the first sentence's runs are the most common other answer.
    key = (False, True, False, False)
    picks = [key] * 2 + [(True, False, False, False)] * 5 + [(False, False, True, False)] * 2
    picks += [(False, False, False, True)]
    votes = _summary(picks, key)
    assert (votes.agree, votes.contest) == (2, 5)
    sentences = vote_sentences(q("Q2", "Which?", "abcd", key), votes, runs, letters=True)
    assert sentences[0].startswith("5 of 10 runs")
    assert (
        sentences[2] == "the other 3 runs that disagree with the key scatter over 2 other answers"
    )


def test_tied_ranks_are_the_questions_only_the_corpus_order_tells_apart() -> None:
    from ai4hse_desk.keyaudit.result import QuestionSuspicion

    def item(qid: str, score: float, reason: bool) -> QuestionSuspicion:
        reasons = ("6 of 8 runs agree on B",) if reason else ()
        return QuestionSuspicion(question_id=qid, ordinal=int(qid[1:]), option=None,
                                 score=score, signals={}, reasons=reasons)  # fmt: skip

    ranked = [item("Q1", 0.5, True), item("Q2", 0.3, True), item("Q3", 0.3, True),
              item("Q4", 0.3, False), item("Q5", 0.3, False), item("Q6", 0.1, False)]  # fmt: skip
    ranked = [dataclasses.replace(q, rank=place) for place, q in enumerate(ranked, start=1)]
    result = KeyAuditResult(ranked, {})
    assert [result.tied_ranks(q) for q in ranked] == [
        (1, 1),
        (2, 3),
        (2, 3),
        (4, 5),
        (4, 5),
        (6, 6),
    ]


@pytest.mark.parametrize(
    ("unstable", "stable", "said"),
    [
        (2, 2, "2 of 4 runs answer differently across repetitions"),
        (866, 134, "866 of 1,000 runs answer differently across repetitions"),
        (1, 0, None),  # one run alone is no pattern
        (2, 3, None),  # fewer than half of the runs
    ],
)
def test_runs_answering_differently_across_repetitions_are_said_when_they_are_many(
    unstable: int, stable: int, said: str | None
) -> None:
    from ai4hse_desk.keyaudit.ranking import _other_reasons
    from ai4hse_desk.keyaudit.signals import Counts, Discrimination
    from ai4hse_desk.keyaudit.suspicion import VoteSummary

    counts = Counts(attempts=10, valid=10, correct=5, stable_runs=stable, unstable_runs=unstable)
    votes = VoteSummary(voters=4, agree=2, contest=2, alternative=None, declined=0, votes={})
    found = _other_reasons(Discrimination(None, 4, 0, {}), counts, votes)
    assert found == ([] if said is None else [said])
