"""Key-audit data hygiene and corpus skew on hand-made questions (no database needed),
and hygiene findings as they reach the ranked JSON."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.keyaudit import (
    chi_square_sf,
    compute_key_audit,
    duplicate_pairs,
    duplicates,
    encoding_damage,
    identical_options,
    normalise,
    position_skew,
)
from ai4hse_desk.keyaudit.hygiene import corpus_hygiene
from ai4hse_desk.keyaudit.skew import skew_words
from tests.core.desk_helpers import question as q

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from tests.audit_factory import AuditContent


OPTS = ("Safety glasses", "Open-toe sandals", "Hearing protection", "Loose necktie")
KEY = (True, False, True, False)


def test_near_duplicates_are_found_and_unrelated_questions_are_not() -> None:
    questions = [
        q("A", "Which PPE is required when grinding metal on a bench grinder?", OPTS, KEY),
        q("B", "Which PPE is required while grinding metal on the bench grinder?", OPTS, KEY),
        q("C", "Which agents are suitable for extinguishing an electrical fire?", OPTS, KEY),
        q(
            "D",
            "WHICH ppe is required when grinding metal on a bench-grinder",
            OPTS,
            (False, False, True, True),
        ),
    ]
    pairs = {(p.first, p.second): p for p in duplicate_pairs(questions)}
    assert set(pairs) == {(0, 1), (0, 3), (1, 3)}
    assert pairs[(0, 3)].exact
    assert pairs[(0, 3)].similarity == 1.0
    assert not pairs[(0, 1)].exact
    assert 0.85 <= pairs[(0, 1)].similarity < 1.0
    found = corpus_hygiene(questions)
    assert found[2].duplicates == []
    assert {d["question_id"]: d["same_key"] for d in found[0].duplicates} == {"B": True, "D": False}
    assert found[3].severity == 1.0  # a duplicate with another key
    assert corpus_hygiene(questions[:2])[1].severity == 0.5  # a near-duplicate, same key


def test_near_duplicates_are_judged_by_the_longest_common_subsequence() -> None:
    """One word moved: 12 of the 13 words in order. difflib's heuristic, taking the first
    long block it finds, matched only 0.82 of the texts and missed this pair."""
    opts, key = ("yes", "no", "maybe", "never"), (True, False, False, False)
    questions = [
        q("A", "tank hose pump tank hose seal gauge seal seal valve tank", opts, key),
        q("B", "tank hose seal pump tank hose pump gauge seal seal valve tank", opts, key),
    ]
    (pair,) = duplicate_pairs(questions)
    assert not pair.exact
    assert pair.similarity == pytest.approx(2 * 18 / (19 + 20))  # words, options included


def test_duplicate_search_examines_few_pairs_and_is_exact_on_a_large_corpus(
    compared: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """1,500 unrelated texts and one near twin: 1.1 million pairs, one of them worth a look."""
    rng = random.Random(7)
    words = [
        "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9)))
        for _ in range(3000)
    ]
    questions = [
        q(
            f"G{i:04d}",
            " ".join(rng.choice(words) for _ in range(14)),
            [" ".join(rng.choice(words) for _ in range(4)) for _ in range(4)],
            KEY,
            i,
        )
        for i in range(1500)
    ]
    twin = questions[321]
    questions.append(q("TWIN", twin.text + " now", [o.text for o in twin.options], KEY, 9999))
    examined: list[tuple[int, int]] = []
    find_candidates = duplicates.candidate_pairs

    def candidate_pairs(*args: Any, **kwargs: Any) -> list[tuple[int, int]]:
        found = find_candidates(*args, **kwargs)
        examined.extend(found)
        return found

    monkeypatch.setattr(duplicates, "candidate_pairs", candidate_pairs)
    pairs = duplicate_pairs(questions)
    assert [(p.first, p.second) for p in pairs] == [(321, 1500)]
    assert (321, 1500) in examined
    assert len(examined) <= len(questions)  # not the 1.1 million pairs of a brute force
    assert len(compared) <= len(examined)  # compared: only the candidates


def test_identical_and_empty_options() -> None:
    question = q(
        "Q",
        "Which gloves?",
        ["Nitrile gloves", "Latex", " nitrile  GLOVES.", ""],
        (True, False, False, False),
    )
    assert identical_options(question) == [(0, 2)]
    found = corpus_hygiene([question])[0]
    assert found.empty == [3]
    assert found.severity == 1.0
    assert normalise("  Nitrile—GLOVES!! ") == "nitrile gloves"


def test_replacement_characters_and_mojibake_are_found() -> None:
    question = q(
        "Q",
        "Whatâ€™s the rÃ©gime for Â°C readings?",
        ["Clean option", "Broken \ufffd\ufffd option", "Fine", "ï»¿Leading BOM mojibake"],
        KEY,
    )
    found = {(d.position, d.issue): d for d in encoding_damage(question)}
    assert set(found) == {(None, "mojibake"), (1, "replacement_character"), (3, "mojibake")}
    assert found[(None, "mojibake")].count == 3
    assert found[(1, "replacement_character")].count == 2
    clean = q("C", "São Paulo café naïve – “quoted” ÂGE SÃO", ["Ø", "ß", "é", "…"], KEY)
    assert encoding_damage(clean) == []


def test_position_skew_on_a_skewed_single_answer_corpus() -> None:
    letters = [0] * 100 + [1] * 60 + [2] * 20 + [3] * 20
    questions = [
        q(f"S{i}", f"t{i}", OPTS, [p == k for p in range(4)]) for i, k in enumerate(letters)
    ]
    skew: dict[str, Any] = position_skew(questions)
    assert skew["method"] == "one_hot"
    assert skew["df"] == 3
    assert skew["chi_square"] == pytest.approx((50**2 + 10**2 + 30**2 + 30**2) / 50)
    assert skew["skewed"] is True
    assert skew["p_value"] < 1e-6
    assert skew["leaning"] == ["A", "B"]
    assert [p["true"] for p in skew["positions"]] == [100, 60, 20, 20]

    uniform = [q(f"U{i}", f"t{i}", OPTS, [p == i % 4 for p in range(4)]) for i in range(200)]
    flat: dict[str, Any] = position_skew(uniform)
    assert flat["chi_square"] == 0.0
    assert flat["skewed"] is False
    assert flat["leaning"] == []


def test_position_skew_of_multi_select_keys() -> None:
    keys = [(True, i % 2 == 0, i % 3 == 0, i % 2 == 1) for i in range(120)]
    skew: dict[str, Any] = position_skew([q(f"M{i}", f"t{i}", OPTS, k) for i, k in enumerate(keys)])
    assert skew["method"] == "true_share"
    assert skew["positions"][0]["share"] == 1.0
    assert skew["skewed"] is True
    assert skew["leaning"][0] == "A"


def test_the_skew_is_said_in_words_and_its_statistic_explained_apart() -> None:
    letters = [0] * 100 + [1] * 60 + [2] * 20 + [3] * 20
    lean = position_skew(
        [q(f"S{i}", f"t{i}", OPTS, [p == k for p in range(4)]) for i, k in enumerate(letters)]
    )
    phrase, detail = skew_words(lean)
    assert phrase == "answer keys lean to A, B more than chance explains"
    assert "χ²" not in phrase
    assert f"p = {lean['p_value']} (how often keys placed evenly" in detail
    assert f"w = {lean['effect_w']} (0.1 is small, 0.3 medium)" in detail
    assert "Called a lean when p < 0.01 and w ≥ 0.1" in detail

    keys = [(True, i % 2 == 0, i % 3 == 0, i % 2 == 1) for i in range(120)]
    multi = position_skew([q(f"M{i}", f"t{i}", OPTS, k) for i, k in enumerate(keys)])
    assert skew_words(multi)[0].startswith("TRUE keys lean to A")

    even = position_skew(
        [q(f"U{i}", f"t{i}", OPTS, [p == i % 4 for p in range(4)]) for i in range(200)]
    )
    assert skew_words(even)[0] == "answer keys spread about evenly over the option positions"
    assert skew_words({}) == ("", "")
    single = position_skew([q(f"O{i}", f"t{i}", ["only"], [True]) for i in range(20)])
    assert single["p_value"] is None
    assert skew_words(single) == (
        "",
        "No test of the keys' positions: fewer than two positions where a key could "
        "fall either way.",
    )


def test_chi_square_survival_function() -> None:
    assert chi_square_sf(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_sf(7.814728, 3) == pytest.approx(0.05, abs=1e-6)
    assert chi_square_sf(0.5, 4) == pytest.approx(0.973501, abs=1e-6)
    assert chi_square_sf(100.0, 2) == pytest.approx(math.exp(-50), rel=1e-9)
    assert chi_square_sf(0.0, 3) == 1.0


def test_hygiene_reaches_the_ranking(
    make_audit_db: Callable[..., Path], audit_content: AuditContent
) -> None:
    questions = list(audit_content.questions)
    broken = dict(questions[1])  # Q002, no responses change
    broken["options"] = (
        ("Only at night", False),
        ("Only at night", False),
        ("Only when asked \ufffd", False),
        ("Above the action value", True),
    )
    questions[1] = broken
    content = type(audit_content)(
        audit_content.meta, tuple(questions), audit_content.runs, audit_content.attempts
    )
    with open_audit(make_audit_db(content=content)) as db:
        result = compute_key_audit(db)
    item = result.by_id()["Q002"]
    assert item.signals["hygiene"]["identical_options"] == [[0, 1]]
    assert item.signals["components"]["hygiene"] == 1.0
    assert "option A and option B are identical" in item.reasons
    assert "encoding damage in option C: U+FFFD replacement characters" in item.reasons
    assert item.option == 1
    assert result.corpus["hygiene"]["questions_with_identical_options"] == 1
    assert result.corpus["hygiene"]["questions_with_encoding_damage"] == 1
