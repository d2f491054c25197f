"""The query API on real audit databases: records, filters, keyset paging, streaming."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ai4hse_desk.audit import (
    ATTEMPT_FIELDS,
    RESCORE_COLUMNS,
    AttemptFilter,
    AuditDB,
    AuditError,
    Option,
    SortKey,
    open_audit,
)
from ai4hse_desk.protocol.outcome import Track

Content = Any  # conftest.AuditContent (conftest is not importable by name)


@pytest.fixture
def db(audit_db: Path) -> Iterator[AuditDB]:
    with open_audit(audit_db) as opened:
        yield opened


def _reference(content: Content, flt: AttemptFilter, a: dict[str, Any]) -> bool:
    """What ``flt`` means, written out in Python over the content dicts."""
    run = {r["run_id"]: r for r in content.runs}[a["run_id"]]
    question = {q["question_id"]: q for q in content.questions}[a["question_id"]]
    facets: dict[str, set[str]] = {}
    for facet, value in flt.labels or ():
        facets.setdefault(facet, set()).add(value)
    needle = (flt.text or "").lower()

    def allowed(values: tuple[Any, ...] | None, value: Any) -> bool:
        return values is None or value in values

    return (
        allowed(flt.run_ids, a["run_id"])
        and allowed(flt.models, run["model"])
        and allowed(flt.tracks, run["track"])
        and allowed(flt.repetitions, a["repetition"])
        and allowed(flt.states, a["state"])
        and allowed(flt.recorded_statuses, a["parse_status"])
        and allowed(flt.question_ids, a["question_id"])
        and allowed(flt.attempt_ids, a["attempt_id"])
        and (flt.labels is None or bool(flt.labels))
        and all(question["labels"].get(facet) in values for facet, values in facets.items())
        and (flt.correct is None or a["correct"] == int(flt.correct))
        and (
            not needle
            or needle in (a["raw_response"] or "").lower()
            or needle in question["text"].lower()
        )
    )


def _pages(db: AuditDB, flt: AttemptFilter | None, sort: str, descending: bool) -> list[SortKey]:
    keys: list[SortKey] = []
    after: SortKey | None = None
    while page := db.attempt_keys(flt, sort=sort, descending=descending, after=after, limit=7):
        assert len(page) <= 7
        keys.extend(page)
        after = page[-1]
    assert db.attempt_keys(flt, sort=sort, descending=descending, after=after) == []
    return keys


FILTERS: dict[str, tuple[AttemptFilter, list[int] | None]] = {
    "none": (AttemptFilter(), list(range(1, 31))),
    "one run": (AttemptFilter(run_ids=("r2",)), list(range(11, 21))),
    "two runs": (AttemptFilter(run_ids=("r3", "r1")), [*range(1, 11), *range(21, 31)]),
    "no runs": (AttemptFilter(run_ids=()), []),
    "model": (AttemptFilter(models=("model-a",)), [*range(1, 11), *range(21, 31)]),
    "track": (AttemptFilter(tracks=(Track.REASONING_ASSISTED,)), list(range(11, 21))),
    "repetition": (AttemptFilter(repetitions=(2,)), None),
    "states": (AttemptFilter(states=("pending", "provider_error")), [18, 29, 30]),
    "recorded valid": (AttemptFilter(recorded_statuses=("valid",)), None),
    "recorded null or multiple": (
        AttemptFilter(recorded_statuses=(None, "multiple")),
        [14, 29, 30],
    ),
    "questions": (AttemptFilter(question_ids=("Q003", "Q004")), None),
    "labels ORed": (AttemptFilter(labels=(("topic", "PPE"), ("topic", "Chemicals"))), None),
    "labels ANDed": (
        AttemptFilter(labels=(("topic", "Fire Safety"), ("source", "exam"))),
        [4, 9, 14, 19, 24, 29],
    ),
    "no labels": (AttemptFilter(labels=()), []),
    "correct": (AttemptFilter(correct=True), None),
    "incorrect": (AttemptFilter(correct=False), None),
    "attempt ids": (AttemptFilter(attempt_ids=(29, 3, 3, 999)), [3, 29]),
    "no attempt ids": (AttemptFilter(attempt_ids=()), []),
    "literal %": (AttemptFilter(text="100%"), [2]),
    "literal _": (AttemptFilter(text="snake_case"), [6]),
    "case-insensitive, question text": (AttemptFilter(text="HEARING"), [2, 7, 12, 17, 22, 27]),
    "% in question text": (AttemptFilter(text="50%"), [5, 10, 15, 20, 25, 30]),
    "only %": (AttemptFilter(text="%"), [2, 5, 10, 15, 20, 25, 30]),
    "only _": (AttemptFilter(text="_"), None),
    "backslash": (AttemptFilter(text="\\"), []),
    "quote": (AttemptFilter(text="r1' OR 1=1 --"), []),
    "combined": (
        AttemptFilter(
            models=("model-a",), repetitions=(1,), correct=True, labels=(("topic", "PPE"),)
        ),
        None,
    ),
}


@pytest.mark.parametrize("name", FILTERS)
def test_filters(db: AuditDB, audit_content: Content, name: str) -> None:
    flt, expected = FILTERS[name]
    reference = audit_content.attempt_ids(lambda a: _reference(audit_content, flt, a))
    if expected is not None:
        assert reference == expected
    assert db.count_attempts(flt) == len(reference)
    assert [attempt_id for _, attempt_id in _pages(db, flt, "attempt_id", False)] == reference
    assert sum(db.count_by(flt, "state").values()) == len(reference)


def test_filter_values_are_normalised() -> None:
    flt = AttemptFilter(run_ids=["r1"], labels=[["topic", "PPE"]])  # type: ignore[arg-type]
    assert flt.run_ids == ("r1",)
    assert flt.labels == (("topic", "PPE"),)
    assert hash(flt) == hash(AttemptFilter(run_ids=("r1",), labels=(("topic", "PPE"),)))
    with pytest.raises(ValueError, match="pairs"):
        AttemptFilter(labels=(("topic",),))  # type: ignore[arg-type]


def test_count_by(db: AuditDB) -> None:
    assert db.count_by(None, "state") == {"answered": 27, "pending": 2, "provider_error": 1}
    assert db.count_by(AttemptFilter(models=("model-a",)), "run_id") == {"r1": 10, "r3": 10}
    assert db.count_by(None, "model") == {"model-a": 20, "model-b": 10}
    assert db.count_by(None, "repetition") == {1: 15, 2: 15}
    statuses = db.count_by(None, "parse_status")
    assert next(iter(statuses.items())) == (None, 2)
    for column in ATTEMPT_FIELDS:
        assert sum(db.count_by(None, column).values()) == 30
    with pytest.raises(ValueError, match="unknown attempt column"):
        db.count_by(None, "raw_response; DROP TABLE attempts")


def _sort_value(content: Content, a: dict[str, Any], sort: str) -> Any:
    if sort in ("model", "track"):
        return {r["run_id"]: r for r in content.runs}[a["run_id"]][sort]
    if sort == "ordinal":
        return {q["question_id"]: q["ordinal"] for q in content.questions}[a["question_id"]]
    return a[sort]


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("sort", ATTEMPT_FIELDS)
def test_keyset_paging_yields_every_row_once_in_order(
    make_audit_db: Callable[..., Path],
    make_audit_content: Callable[..., Content],
    sort: str,
    descending: bool,
) -> None:
    content = make_audit_content(extra_questions=20)
    flt = AttemptFilter(models=("model-a",), states=("answered", "pending"))
    with open_audit(make_audit_db(content=content)) as db:
        for current in (None, flt):
            ids = [
                a for a in content.attempts if current is None or _reference(content, current, a)
            ]
            expected = [(_sort_value(content, a, sort), a["attempt_id"]) for a in ids]
            expected.sort(key=lambda k: (k[0] is not None, k[0], k[1]), reverse=descending)
            assert len(expected) == db.count_attempts(current) >= 100
            assert _pages(db, current, sort, descending) == expected


def test_unknown_sort_column_is_refused(db: AuditDB) -> None:
    with pytest.raises(ValueError, match="unknown attempt column"):
        db.attempt_keys(sort="attempt_id; DROP TABLE attempts")
    with pytest.raises(ValueError, match="limit"):
        db.attempt_keys(limit=0)


def test_runs(db: AuditDB, audit_content: Content) -> None:
    runs = db.runs()
    assert [run.run_id for run in runs] == ["r1", "r2", "r3"]
    for run, expected in zip(runs, audit_content.runs, strict=True):
        assert {name: getattr(run, name) for name in expected} == expected
    assert runs[1].track is Track.REASONING_ASSISTED
    assert runs[1].temperature is None and runs[0].temperature == 0.0
    assert runs[0].complete and not runs[2].complete
    assert db.run("r2") == runs[1]
    with pytest.raises(AuditError, match=r"^unknown run: r9$"):
        db.run("r9")
    assert db.models() == ["model-a", "model-b"]
    assert db.tracks() == [Track.ANSWER_ONLY, Track.REASONING_ASSISTED, Track.STRUCTURED_OUTPUT]


def test_questions(db: AuditDB, audit_content: Content) -> None:
    questions = db.questions()
    assert [q.question_id for q in questions] == ["Q001", "Q002", "Q003", "Q005", "Q004"]
    assert [q.ordinal for q in questions] == [1, 2, 3, 4, 5]
    q3 = db.question("Q003")
    assert q3.options == (
        Option(0, "Water", True),
        Option(1, "CO2", True),
        Option(2, "Gasoline", False),
        Option(3, "Paper", False),
        Option(4, "Foam", True),
    )
    assert q3.key == (True, True, False, False, True) and q3.n_options == 5
    assert dict(q3.labels) == {"topic": "Fire Safety", "source": "manual"}
    assert hash(q3) == hash(db.question("Q003"))
    with pytest.raises(AuditError, match=r"^unknown question: Q404$"):
        db.question("Q404")
    assert db.answer_keys() == audit_content.keys()
    assert db.labels() == {q["question_id"]: q["labels"] for q in audit_content.questions}
    assert db.label_facets() == {
        "source": ["exam", "manual"],
        "topic": ["Chemicals", "Fire Safety", "PPE"],
    }


def test_attempts_by_ids(db: AuditDB, audit_content: Content) -> None:
    attempts = db.attempts_by_ids([30, 1, 999, 18])
    assert [a.attempt_id for a in attempts] == [30, 1, 18]
    by_id = {a["attempt_id"]: a for a in audit_content.attempts}
    for attempt in attempts:
        for column, value in by_id[attempt.attempt_id].items():
            assert getattr(attempt, column) == value, column
    pending, first, error = attempts
    assert pending.state == "pending" and pending.raw_response is None
    assert (pending.model, pending.track, pending.question_ordinal) == (
        "model-a",
        Track.STRUCTURED_OUTPUT,
        5,
    )
    assert first.recorded_selection == (True, False, True, False)
    assert first.correct is True and first.strict_format is True
    assert error.error == "HTTP 502 Bad Gateway" and error.recorded_selection is None
    assert db.attempts_by_ids([]) == []
    everything = db.attempts_by_ids(range(1, 31))
    assert [a.attempt_id for a in everything] == list(range(1, 31))


def test_iter_rescore_rows(db: AuditDB, audit_content: Content) -> None:
    def expected(runs: tuple[str, ...]) -> list[tuple[Any, ...]]:
        return [
            tuple(a[column] for column in RESCORE_COLUMNS)
            for a in audit_content.attempts
            if a["run_id"] in runs
        ]

    rows = list(db.iter_rescore_rows())
    assert rows == expected(("r1", "r2", "r3"))
    assert all(type(row) is tuple for row in rows)
    assert list(db.iter_rescore_rows(["r3", "r1"], batch=3)) == expected(("r1", "r3"))
    assert list(db.iter_rescore_rows("r2", batch=1)) == expected(("r2",))
    assert list(db.iter_rescore_rows([])) == []
    with pytest.raises(ValueError, match="batch"):
        next(db.iter_rescore_rows(batch=0))
