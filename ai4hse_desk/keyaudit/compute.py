"""``compute_key_audit``: read an audit database once and rank every question.

The audit database is only read (through the read-only
:class:`~ai4hse_desk.audit.AuditDB`); keys, attempts and scores are never changed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ai4hse_desk.keyaudit import fitted, latent_params
from ai4hse_desk.keyaudit.calibration import corpus_calibration
from ai4hse_desk.keyaudit.dupgroups import DuplicateReport
from ai4hse_desk.keyaudit.hygiene import Hygiene, corpus_hygiene
from ai4hse_desk.keyaudit.latent import HYGIENE_PRIOR, PRIOR
from ai4hse_desk.keyaudit.posterior import fit_corpus
from ai4hse_desk.keyaudit.ranking import FORMULA, WEIGHTS, assess
from ai4hse_desk.keyaudit.result import KeyAuditResult, rank_key
from ai4hse_desk.keyaudit.skew import position_skew
from ai4hse_desk.keyaudit.tally import MIN_WEIGHT, Tallies, collect
from ai4hse_desk.protocol.outcome import TRACK_ORDER
from ai4hse_desk.verdicts.scoring import with_progress

if TYPE_CHECKING:
    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.progress import Progress


MODEL = (
    "rank by the suspicion score: model x clip(logit P(key wrong), 8)/8 + contest"
    " - agree_weight x agree - form x log(mean option length) [when runs contest the key];"
    " P(key wrong) from a latent-truth model fitted by EM with runs as annotators"
    " (ability, copy rate, misconceptions; items ordinary or hard), one vote per run;"
    " weights and the calibration fitted on MMLU-Redux key errors"
    " (docs/explain/key-audit-model.md)"
)


def _hygiene_counts(found: list[Hygiene], duplicates: DuplicateReport) -> dict[str, int]:
    counts = duplicates.counts()
    pairs = ("duplicate_pairs", "near_duplicate_pairs", "duplicate_pairs_with_different_keys")
    return {
        **{name: counts.pop(name) for name in pairs},
        "questions_with_identical_options": sum(1 for h in found if h.identical),
        "questions_with_empty_options": sum(1 for h in found if h.empty),
        "questions_with_encoding_damage": sum(1 for h in found if h.damage),
        **counts,
    }


def _runs_json(tallies: Tallies) -> list[dict[str, object]]:
    order = {track: i for i, track in enumerate(TRACK_ORDER)}
    runs = sorted(tallies.runs.values(), key=lambda r: (order[r.track], r.run_id))
    return [
        {
            "run_id": run.run_id,
            "model": run.model,
            "track": run.track.value,
            "attempts": run.attempts,
            "correct": run.correct,
            "weight": round(run.weight, 4),
        }
        for run in runs
    ]


def compute_key_audit(
    db: AuditDB, *, progress: Progress | None = None, index: ReviewIndex | None = None
) -> KeyAuditResult:
    """Rank every question of ``db`` by the evidence that its answer key needs a look.

    Args:
        db: an open audit database (only read).
        progress: called with (attempts done, attempts in total) while the
            attempts are read; returning False cancels.
        index: the review index of ``db``: its stored verdicts are used (no second
            derivation). Without it the attempts are re-derived.

    Raises:
        AuditError: the file is damaged or inconsistent.
        RescoreCancelled: ``progress`` returned False.
    """
    questions = db.questions()
    verdicts = None
    if index is not None:
        verdicts = with_progress(index.verdict_batches(), index.total(), progress)
    tallies = collect(db, progress, verdicts)
    duplicates = DuplicateReport(questions)
    hygiene = corpus_hygiene(questions, duplicates)
    fit = fit_corpus(questions, tallies.cells, tallies.runs, hygiene)
    calibrated = corpus_calibration(tallies.runs)
    items = [
        assess(
            question,
            tallies.cells.get(question.question_id, {}),
            tallies.runs,
            found,
            fit.posteriors[question.question_id],
            calibrated,
        )
        for question, found in zip(questions, hygiene, strict=True)
    ]
    items.sort(key=rank_key)
    items = [replace(item, rank=rank) for rank, item in enumerate(items, start=1)]
    corpus: dict[str, object] = {
        "questions": len(questions),
        "attempts": tallies.attempts,
        "runs": _runs_json(tallies),
        "position_skew": position_skew(questions),
        "hygiene": _hygiene_counts(hygiene, duplicates),
        "reliability": fit.reliabilities,
        "calibration": {
            **calibrated.to_json(),
            "questions_with_probability": sum(item.probability is not None for item in items),
        },
        "score": {
            "model": MODEL,
            "suspicion_weights": dict(fitted.WEIGHTS),
            "prior_key_right": PRIOR,
            "hygiene_prior_key_right": HYGIENE_PRIOR,
            "ability_prior_mean_sd": list(latent_params.ABILITY_PRIOR),
            "ability_spread_sd": latent_params.ABILITY_SPREAD,
            "lure_shift_prior_mean_sd": list(latent_params.LURE_SHIFT_PRIOR),
            "copy_rate_beta": list(latent_params.COPY_PRIOR),
            "misconception_pull_beta": list(latent_params.LURE_PRIOR),
            "legacy_formula": FORMULA,
            "weights": dict(WEIGHTS),
            "min_run_weight": MIN_WEIGHT,
        },
    }
    audit = db.summary()
    return KeyAuditResult(questions=items, corpus=corpus, audit=audit)


__all__ = ["compute_key_audit"]
