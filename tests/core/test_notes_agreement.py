"""Agreement on key_incorrect: Cohen's κ and Krippendorff's α on hand-worked examples,
and the rating units taken from the flags."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes.agreement import cohen_kappa, key_agreement, krippendorff_alpha

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.notes.store import NotesStore


def test_cohen_kappa_worked_example() -> None:
    # 10 questions: both 1 on 4, both 0 on 3, A=1/B=0 on 2, A=0/B=1 on 1.
    # p_o = 7/10; A: six 1s, B: five 1s; p_e = .6*.5 + .4*.5 = .5; κ = (.7 - .5)/(1 - .5) = 0.4
    first = [1, 1, 1, 1, 0, 0, 0, 1, 1, 0]
    second = [1, 1, 1, 1, 0, 0, 0, 0, 0, 1]
    kappa, reason = cohen_kappa(first, second)
    assert kappa == pytest.approx(0.4)
    assert reason is None
    assert cohen_kappa(first, first)[0] == pytest.approx(1.0)


def test_kappa_undefined_cases() -> None:
    assert cohen_kappa([], []) == (None, "no question was rated by both reviewers")
    value, reason = cohen_kappa([1, 1, 1], [1, 1, 1])
    assert value is None
    assert reason is not None
    assert "no variation" in reason
    with pytest.raises(ValueError, match="same units"):
        cohen_kappa([1], [1, 0])


def test_krippendorff_alpha_worked_example() -> None:
    # Units (missing ratings left out): [1,1,1] [0,0] [1,0,1] [0,0,0] [1,1].
    # Coincidences (÷ m_u − 1): o11 = 3 + 1 + 2 = 6, o00 = 2 + 3 = 5, o01 = o10 = 1; n = 13,
    # n0 = 6, n1 = 7. D_o = 2/13; D_e = 2·6·7 / (13·12) = 7/13; α = 1 − (2/13)/(7/13) = 5/7.
    alpha, reason = krippendorff_alpha([[1, 1, 1], [0, 0], [1, 0, 1], [0, 0, 0], [1, 1]])
    assert alpha == pytest.approx(5 / 7)
    assert reason is None


def test_krippendorff_alpha_published_example() -> None:
    # Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", 4 observers ×
    # 12 units with missing values, nominal: α = 0.743 (unit 12, rated once, drops out).
    rows = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
    ]
    units = [[v for v in column if v is not None] for column in zip(*rows, strict=True)]
    alpha, _ = krippendorff_alpha(units)
    assert alpha == pytest.approx(0.743, abs=5e-4)


def test_alpha_undefined_cases() -> None:
    value, reason = krippendorff_alpha([[1], [0]])
    assert value is None
    assert reason == "no question was rated by two or more reviewers"
    value, reason = krippendorff_alpha([[1, 1], [1, 1, 1]])
    assert value is None
    assert reason == "no variation: every rating is the same"


@pytest.fixture
def audit(open_db: Callable[..., AuditDB]) -> AuditDB:
    """Two more questions than the default (seven to agree on)."""
    return open_db(extra_questions=2)


def flag(store: NotesStore, reviewer: str, question: str, category: str, **kw: object) -> str:
    made = store.add_flag(
        question_id=question,
        category=category,
        note="a reason",
        reviewer=reviewer,
        **kw,  # type: ignore[arg-type]
    )
    return made.flag_id


def test_two_reviewers_get_cohen_kappa_over_questions_both_flagged(store: NotesStore) -> None:
    ki = "key_incorrect"
    flag(store, "ann", "Q001", ki), flag(store, "bob", "Q001", ki)  # (1, 1)
    flag(store, "ann", "Q002", ki), flag(store, "bob", "Q002", "ambiguous_wording")  # (1, 0)
    flag(store, "ann", "Q003", "typo_or_format"), flag(store, "bob", "Q003", "typo_or_format")
    gone = flag(store, "ann", "Q004", ki)  # withdrawn: not ann's opinion any more
    store.set_flag_state(gone, "withdrawn", reviewer="ann")
    flag(store, "ann", "Q004", "other"), flag(store, "bob", "Q004", "other")  # (0, 0)
    done = flag(store, "ann", "Q005", ki)
    store.set_flag_state(done, "resolved", reviewer="ann")  # resolved still counts
    flag(store, "bob", "Q005", ki)  # (1, 1)
    flag(store, "ann", "G0001", ki)  # only one reviewer: not a unit
    flag(store, "ann", "G0002", "other"), flag(store, "ann", "G0002", ki, option=1)
    flag(store, "bob", "G0002", "other")  # (1, 0)
    result = key_agreement(store)
    # 6 units; p_o = 4/6; ann 1s = 4/6, bob 1s = 2/6; p_e = 4/6·2/6 + 2/6·4/6 = 4/9;
    # κ = (2/3 − 4/9) / (1 − 4/9) = 0.4
    assert result.questions == 6
    assert result.reviewers == ("ann", "bob")
    assert result.statistic == "cohen_kappa"
    assert result.value == pytest.approx(0.4)
    assert result.reason is None
    assert result.units["Q004"] == {"ann": 0, "bob": 0}
    assert result.units["G0002"] == {"ann": 1, "bob": 0}
    assert "G0001" not in result.units
    (pair,) = result.pairs
    assert pair.questions == 6
    assert pair.kappa == pytest.approx(0.4)
    data = result.to_json()
    assert data["value"] == pytest.approx(0.4)
    assert data["undefined_reason"] is None


def test_three_reviewers_get_krippendorff_alpha_and_pairwise_kappa(store: NotesStore) -> None:
    ki, other = "key_incorrect", "other"
    ratings = {  # the 5/7 example above, reviewer → category per question
        "Q001": {"ann": ki, "bob": ki, "cat": ki},
        "Q002": {"ann": other, "bob": other},
        "Q003": {"ann": ki, "bob": other, "cat": ki},
        "Q004": {"ann": other, "bob": other, "cat": other},
        "Q005": {"bob": ki, "cat": ki},
    }
    for question, by in ratings.items():
        for reviewer, category in by.items():
            flag(store, reviewer, question, category)
    result = key_agreement(store)
    assert result.statistic == "krippendorff_alpha_nominal"
    assert result.value == pytest.approx(5 / 7)
    assert result.reviewers == ("ann", "bob", "cat")
    assert result.questions == 5
    pairs = {pair.reviewers: pair for pair in result.pairs}
    # ann/bob on Q001–Q004: [1,0,1,0] vs [1,0,0,0]: p_o = 3/4, p_e = 1/2 → κ = 0.5
    ann_bob = pairs[("ann", "bob")]
    assert ann_bob.questions == 4
    assert ann_bob.kappa == pytest.approx(0.5)
    # ann/cat on Q001, Q003, Q004: identical → κ = 1
    assert pairs[("ann", "cat")].kappa == pytest.approx(1.0)
    # bob/cat on Q001, Q003–Q005: [1,0,0,1] vs [1,1,0,1]: p_o = 3/4, p_e = 1/2 → κ = 0.5
    assert pairs[("bob", "cat")].kappa == pytest.approx(0.5)


def test_undefined_agreement_says_why(store: NotesStore) -> None:
    result = key_agreement(store)
    assert (result.statistic, result.value, result.questions) == (None, None, 0)
    assert result.reason == "fewer than two reviewers flagged the same question"
    flag(store, "ann", "Q001", "key_incorrect"), flag(store, "bob", "Q001", "key_incorrect")
    result = key_agreement(store)
    assert result.statistic == "cohen_kappa"
    assert result.value is None
    assert result.reason is not None
    assert result.reason.startswith("no variation")
    assert result.to_json()["value"] is None
