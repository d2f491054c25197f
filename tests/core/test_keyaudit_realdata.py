"""The key audit on real key errors (MMLU-Redux dev, 10 HELM models as single-choice
runs), through the desk's own writer and key audit: a probability on every question
(the corpus is the calibration data's), honest numbers, and a top of the ranking that
finds real errors. Fails, not skips, without the data under ``make test``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.keyaudit import compute_key_audit
from tests.core.desk_helpers import public_data, require_data

if TYPE_CHECKING:
    from types import ModuleType

    from ai4hse_desk.keyaudit import KeyAuditResult

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def redux_module() -> ModuleType:
    """``tests/benchmarks/keyaudit_redux.py`` (the loader the benchmarks use)."""
    spec = importlib.util.spec_from_file_location(
        "keyaudit_redux", BENCHMARKS / "keyaudit_redux.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("keyaudit_redux", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> tuple[KeyAuditResult, dict[str, bool]]:
    folder = public_data("mmlu-redux-dev")
    require_data(folder)
    redux = redux_module()
    data = redux.load(folder)
    audit = redux.build_audit_db(data, tmp_path_factory.mktemp("redux"))
    with open_audit(audit) as db:
        result = compute_key_audit(db)
    return result, {q.question_id: q.key_error for q in data.questions}


def test_every_question_gets_an_honest_probability(
    real: tuple[KeyAuditResult, dict[str, bool]],
) -> None:
    result, wrong = real
    assert len(result.questions) == 2898
    assert result.corpus["calibration"]["applies"] is True
    probabilities = [item.probability for item in result.questions]
    assert None not in probabilities
    shown = [p for p in probabilities if p is not None]
    # Honest: the mean probability is the share of wrong keys, within a point, and no
    # key is shown as near-certain (even 10 of 10 runs against a key is about 1 in 4).
    assert abs(sum(shown) / len(shown) - sum(wrong.values()) / len(wrong)) < 0.01
    assert max(shown) < 0.5
    top = result.questions[:100]
    assert sum(wrong[item.question_id] for item in top) >= 15  # a 3 % base rate gives 3
    top_mean = sum(item.probability or 0.0 for item in top) / len(top)
    assert abs(top_mean - sum(wrong[item.question_id] for item in top) / 100) < 0.06


def test_the_evidence_names_the_runs_in_words(
    real: tuple[KeyAuditResult, dict[str, bool]],
) -> None:
    result, _wrong = real
    first = result.questions[0]
    assert first.rank == 1
    assert first.reasons[0].startswith("all 10 runs choose ")
    for item in result.questions[:50]:
        for reason in item.reasons:
            assert "P(key wrong)" not in reason
            assert "reliability" not in reason
            assert "weighted" not in reason
