"""The review report's sensitivity table: each run rescored on the side, never official.

protocol.md section 7: an adjudicator's ``key_corrected`` and ``question_excluded``
never change a score. The review report shows beside each official figure "the same
metric without the excluded questions" and "rescored with the corrected keys"
(cli.md, ``review report``'s ``sensitivity``). :func:`review_sensitivity` computes all
three from one verdict stream (:func:`~.stream.verdict_stream`, the desk's one
derivation), scored three times by :func:`~.scoring.score_batches`: with the official
keys, without the excluded questions, and with the corrected keys and without the
excluded questions. Nothing is written anywhere.

A corrected key is scored like any key (a valid selection equal to it at every
position is correct), on every track: a single-choice run's attempt is correct
when its one chosen option is the key's only TRUE, so a corrected key without
exactly one TRUE simply makes that question unanswerable on that track.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.errors import InputProblem
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.scoring import (
    Scoring,
    official,
    run_results,
    score_batches,
    selected_runs,
)
from ai4hse_desk.verdicts.stream import verdict_stream

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.outcome import Selection

#: The three figures of each row, in the order cli.md lists them.
FIGURES = ("official", "without_excluded", "with_corrected_keys")


class SensitivityInputError(InputProblem, ValueError):
    """A corrected key or an excluded question that does not fit the audit database."""


def _checked_keys(
    keys: Mapping[str, Selection], corrected: Mapping[str, Sequence[bool]]
) -> dict[str, Selection]:
    """``corrected`` as tuples of bools, each checked against its question's key."""
    checked: dict[str, Selection] = {}
    for question_id, key in corrected.items():
        official = keys.get(question_id)
        if official is None:
            raise SensitivityInputError(f"corrected key for unknown question: {question_id}")
        if not all(isinstance(value, bool) for value in key):
            raise SensitivityInputError(
                f"corrected key of {question_id} must hold only TRUE/FALSE values"
            )
        if len(key) != len(official):
            raise SensitivityInputError(
                f"corrected key of {question_id} has {len(key)} values, "
                f"the question has {len(official)} options"
            )
        checked[question_id] = tuple(key)
    return checked


def _repetitions(run: Mapping[str, object], scored: bool) -> object:
    """``run``'s repetitions; unscored (rates ``None``) when the official run is unscored.

    Leaving questions out can leave out a run's pending attempts too, but a run
    ``rescore`` does not score gets no figure here either.
    """
    repetitions = run["repetitions"]
    if scored or not isinstance(repetitions, list):
        return repetitions
    unrated = dict.fromkeys(("exact_accuracy", "wilson_low", "wilson_high"))
    return [{**repetition, **unrated} for repetition in repetitions]


def review_sensitivity(
    db: AuditDB,
    corrected_keys: Mapping[str, Sequence[bool]],
    excluded: Collection[str],
    *,
    progress: Progress | None = None,
) -> list[dict[str, object]]:
    """Every run's official exact accuracy beside two not-official rescorings.

    Args:
        db: the audit database (only read).
        corrected_keys: question id -> corrected key, one bool per option in option
            order (the ``key_corrected`` decisions).
        excluded: ids of the questions decided ``question_excluded``; their attempts
            are left out of both not-official figures.
        progress: called with (attempts read, attempts in total); False cancels.

    Returns:
        One dict per run in ``rescore`` order (cli.md): ``run_id``, ``model``,
        ``track``, ``official`` (exactly ``rescore``'s ``exact_accuracy``),
        ``without_excluded``, ``with_corrected_keys`` (all three ``None`` for an
        unscored run), ``not_official`` (always True) and ``repetitions``: for each
        figure the run object's ``repetitions`` list as that scoring produced it.

    Raises:
        SensitivityInputError: a corrected key or an excluded id for a question not
            in ``db``, a key of the wrong length or with a value that is not a bool.
        AuditError: the attempts cannot be read (as for ``rescore``).
        RescoreCancelled: ``progress`` returned False.
    """
    keys = db.answer_keys()
    corrected = _checked_keys(keys, corrected_keys)
    skipped = frozenset(excluded)
    unknown = sorted(skipped - keys.keys())
    if unknown:
        raise SensitivityInputError(f"excluded question not in the audit database: {unknown[0]}")
    runs = selected_runs(db, None)
    scorings = [
        official(db, runs),
        official(db, runs, skipped),
        Scoring(official(db, runs).scorers, {**keys, **corrected}, skipped, rekeyed=True),
    ]
    with collector_paused():  # (see .collector)
        score_batches(verdict_stream(db, progress=progress), scorings)
    ordered = run_results(db, scorings[0].scorers).runs
    others = {
        figure: {str(run["run_id"]): run for run in run_results(db, scoring.scorers).runs}
        for figure, scoring in zip(FIGURES[1:], scorings[1:], strict=True)
    }
    rows: list[dict[str, object]] = []
    for run in ordered:
        scored = run["scored"] is True
        same = {
            "official": run,
            **{figure: others[figure][str(run["run_id"])] for figure in others},
        }
        rows.append(
            {
                "run_id": run["run_id"],
                "model": run["model"],
                "track": run["track"],
                **{
                    figure: same[figure]["exact_accuracy"] if scored else None for figure in FIGURES
                },
                "not_official": True,
                "repetitions": {figure: _repetitions(same[figure], scored) for figure in FIGURES},
            }
        )
    return rows


__all__ = ["FIGURES", "SensitivityInputError", "review_sensitivity"]
