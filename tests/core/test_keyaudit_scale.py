"""Key-audit duplicates at scale: shared texts are grouped once, near-duplicate search
stays within a linear budget, and the findings still say exactly who duplicates whom.

No test here measures time: each counts what was compared or listed."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from ai4hse_desk.audit import Question, open_audit
from ai4hse_desk.keyaudit import compute_key_audit, duplicates
from ai4hse_desk.keyaudit.dupgroups import LISTED, DuplicateReport
from ai4hse_desk.keyaudit.duplicates import NEAR_DUPLICATE, comparison_text
from ai4hse_desk.keyaudit.hygiene import corpus_hygiene
from tests.core.desk_helpers import question as q

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from tests.audit_factory import AuditContent

STEM = "Which PPE is required when grinding metal on a bench grinder?"
OPTS = ("Safety glasses", "Open-toe sandals", "Hearing protection", "Loose necktie")
KEYS = ((True, False, True, False), (True, False, False, False), (False, True, True, True))


def words(rng: random.Random, count: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return ["".join(rng.choice(letters) for _ in range(rng.randint(4, 9))) for _ in range(count)]


def test_20000_questions_sharing_one_text_are_one_group(compared: list[int]) -> None:
    n = 20_000
    questions = [q(f"S{i:05d}", STEM, OPTS, KEYS[i % 3], i) for i in range(n)]
    report = DuplicateReport(questions)
    found = corpus_hygiene(questions, report)

    assert compared == []  # one distinct text: nothing to compare
    assert sum(len(h.duplicates) for h in found) == n * LISTED  # not n * (n - 1)
    per_key = Counter(question.key for question in questions)
    for i in (0, 1, 2, 12_345, n - 1):
        finding = found[i].finding
        assert finding.group == ("S00000", n)
        assert finding.exact == n - 1
        assert finding.near == 0
        assert finding.exact_different == n - per_key[questions[i].key]
        assert [d["question_id"] for d in found[i].duplicates] == [
            f"S{k:05d}" for k in range(LISTED + 1) if k != i
        ][:LISTED]
        assert found[i].severity == 1.0  # members with another key
    assert found[0].finding.reasons() == [
        "duplicate of S00001 and 19,998 others; 13,333 of them with a different key"
        " (the first: S00001)"
    ]
    assert found[1].finding.reasons()[0].endswith("(the first: S00000)")
    pairs = n * (n - 1) // 2
    same = sum(c * (c - 1) // 2 for c in per_key.values())
    assert report.counts() == {
        "duplicate_pairs": pairs,
        "near_duplicate_pairs": 0,
        "duplicate_pairs_with_different_keys": pairs - same,
        "duplicate_groups": 1,
        "largest_duplicate_group": n,
        "near_duplicate_search_limited": 0,
    }


def test_many_small_groups_are_listed_as_before() -> None:
    rng = random.Random(3)
    vocabulary = words(rng, 4000)
    questions: list[Question] = []
    for g in range(3000):
        stem = " ".join(rng.choice(vocabulary) for _ in range(12))
        options = [" ".join(rng.choice(vocabulary) for _ in range(3)) for _ in range(4)]
        for m in range(3):
            questions.append(q(f"G{g:04d}-{m}", stem, options, KEYS[(g + m) % 2], len(questions)))
    report = DuplicateReport(questions)
    for i in (0, 4, 8_999):
        finding = report.finding(i)
        first = i - i % 3
        assert finding.group == (questions[first].question_id, 3)
        assert finding.exact == 2
        assert finding.near == 0
        assert finding.complete
        others = [questions[k] for k in range(first, first + 3) if k != i]
        expected = [
            "duplicate of "
            + o.question_id
            + ("" if o.key == questions[i].key else " with a different key")
            for o in others
        ]
        assert finding.reasons() == expected
    counts = report.counts()
    assert counts["duplicate_pairs"] == 9000
    assert counts["near_duplicate_pairs"] == 0
    assert counts["duplicate_pairs_with_different_keys"] == 6000  # keys alternate by member
    assert counts["duplicate_groups"] == 3000
    assert counts["near_duplicate_search_limited"] == 0


def test_near_duplicates_sharing_most_words_stay_within_the_budget(compared: list[int]) -> None:
    rng = random.Random(5)
    vocabulary = words(rng, 3000)
    base = [rng.choice(vocabulary) for _ in range(20)]
    questions = []
    for i in range(2500):  # each differs from the base in one word: all mutual near-duplicates
        text = list(base)
        text[i % 20] = vocabulary[i]
        questions.append(q(f"N{i:04d}", " ".join(text), OPTS, KEYS[i % 2], i))
    report = DuplicateReport(questions)
    texts = len({comparison_text(x) for x in questions})

    assert len(compared) <= duplicates.budget(texts)  # of 3.1 million true pairs
    findings = report.findings()
    assert all(f.near >= 1 and f.limited for f in findings)
    assert report.counts()["near_duplicate_search_limited"] == texts
    assert sum(len(f.listed) for f in findings) <= LISTED * len(questions)
    assert findings[0].reasons()[0].startswith("near-duplicate of ")
    assert " and at least " in findings[0].reasons()[0]
    by_id = {x.question_id: x for x in questions}
    for finding, question in list(zip(findings, questions, strict=True))[::250]:
        for entry in finding.listed:  # every named one really is a near-duplicate
            other = by_id[str(entry["question_id"])]
            first, second = comparison_text(question), comparison_text(other)
            assert similarity(tokens(first), tokens(second)) >= NEAR_DUPLICATE


def tokens(text: str) -> list[str]:
    return duplicates._TOKEN.findall(text)


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """Twice the longest common subsequence over the summed lengths, by the textbook
    dynamic programme (the reference the compiled comparison is held to)."""
    previous = [0] * (len(b) + 1)
    for x in a:
        row = [0]
        for j, y in enumerate(b):
            row.append(previous[j] + 1 if x == y else max(previous[j + 1], row[j]))
        previous = row
    return 2 * previous[-1] / (len(a) + len(b)) if a or b else 1.0


def brute_force(questions: Sequence[Question]) -> dict[tuple[int, int], bool]:
    """Every duplicate (True) and near-duplicate (False) pair, by comparing all pairs."""
    texts = [comparison_text(x) for x in questions]
    found: dict[tuple[int, int], bool] = {}
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if texts[i] == texts[j]:
                found[(i, j)] = True
                continue
            if similarity(tokens(texts[i]), tokens(texts[j])) >= NEAR_DUPLICATE:
                found[(i, j)] = False
    return found


def test_findings_agree_with_comparing_every_pair() -> None:
    rng = random.Random(11)
    vocabulary = words(rng, 500)
    questions: list[Question] = []
    for _ in range(40):
        stem = [rng.choice(vocabulary) for _ in range(16)]
        for variant in range(rng.choice((1, 1, 2, 3))):
            text = list(stem)
            if variant:
                text[rng.randrange(16)] = rng.choice(vocabulary)  # a near-duplicate
            for _ in range(rng.choice((1, 1, 2, 4))):  # and exact copies of it
                qid = f"R{len(questions):03d}"
                questions.append(q(qid, " ".join(text), OPTS, rng.choice(KEYS), len(questions)))
    rng.shuffle(questions)
    pairs = brute_force(questions)
    assert sum(pairs.values()) >= 20
    assert sum(not v for v in pairs.values()) >= 20
    report = DuplicateReport(questions)
    for i, question in enumerate(questions):
        partners = sorted(
            (j if k == i else k, exact) for (k, j), exact in pairs.items() if i in (k, j)
        )
        finding = report.finding(i)
        assert finding.exact == sum(exact for _, exact in partners)
        assert finding.near == sum(not exact for _, exact in partners)
        assert finding.different_key == sum(questions[j].key != question.key for j, _ in partners)
        assert [d["question_id"] for d in finding.listed] == [
            questions[j].question_id for j, _ in partners[:LISTED]
        ]
        assert not finding.limited
    counts = report.counts()
    assert counts["duplicate_pairs"] == sum(pairs.values())
    assert counts["near_duplicate_pairs"] == sum(not v for v in pairs.values())
    assert counts["duplicate_pairs_with_different_keys"] == sum(
        questions[i].key != questions[j].key for i, j in pairs
    )


def test_a_near_duplicate_inside_a_large_template_is_found() -> None:
    rng = random.Random(2)
    vocabulary = words(rng, 5000)
    template = " ".join(rng.choice(vocabulary) for _ in range(40))
    questions = [
        q(
            f"T{i:04d}",
            template,
            [" ".join(rng.choice(vocabulary) for _ in range(5)) for _ in range(4)],
            KEYS[0],
            i,
        )
        for i in range(3000)
    ]
    twin = questions[1234]
    options = [o.text for o in twin.options]
    options[3] = options[3] + " now"
    questions.append(q("TWIN", twin.text, options, KEYS[2], 9999))
    report = DuplicateReport(questions)
    assert report.counts()["near_duplicate_search_limited"] > 0  # template buckets were cut
    finding = report.finding(len(questions) - 1)
    assert finding.near == 1
    assert finding.exact == 0
    assert finding.listed[0]["question_id"] == "T1234"
    assert finding.listed[0]["same_key"] is False
    assert finding.reasons()[0].startswith("near-duplicate of T1234 (similarity 0.9")
    assert finding.reasons()[0].endswith(", with a different key)")


def test_a_shared_text_reaches_the_ranking_as_one_group(
    make_audit_db: Callable[..., Path], audit_content: AuditContent
) -> None:
    text = "Where must a fire blanket be kept?"  # no near-duplicate of the default five
    shared = [
        {"question_id": f"D{i:03d}", "ordinal": 200 + i, "text": text,
         "options": tuple(zip(OPTS, KEYS[i % 3], strict=True)), "labels": {}}
        for i in range(400)
    ]  # fmt: skip
    content = type(audit_content)(
        audit_content.meta,
        (*audit_content.questions, *shared),
        audit_content.runs,
        audit_content.attempts,
    )
    with open_audit(make_audit_db(content=content)) as db:
        result = compute_key_audit(db)
    data: dict[str, Any] = result.to_json()
    items = {item["question_id"]: item for item in data["questions"]}
    hygiene = items["D007"]["signals"]["hygiene"]
    assert hygiene["duplicate_group"] == {"id": "D000", "size": 400}
    assert hygiene["duplicate_counts"] == {
        "exact": 399, "near": 0, "different_key": 267, "listed": LISTED,
        "near_search_limited": False,
    }  # fmt: skip
    assert len(hygiene["duplicates"]) == LISTED
    assert items["D007"]["signals"]["components"]["hygiene"] == 1.0
    assert (
        "duplicate of D000 and 398 others; 267 of them with a different key (the first: D000)"
        in items["D007"]["reasons"]
    )
    assert items["Q001"]["signals"]["hygiene"]["duplicate_group"] is None
    corpus = data["corpus"]["hygiene"]
    assert corpus["duplicate_pairs"] == 400 * 399 // 2
    assert corpus["duplicate_groups"] == 1
    assert corpus["largest_duplicate_group"] == 400
