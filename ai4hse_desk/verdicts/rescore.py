"""Re-derive every attempt of an audit database with the protocol and score each run.

This is the hot path of ``ai4hse-desk rescore`` and of the window's verdict
cache: it streams attempts through the driver-level cursor (never the ORM,
never all rows at once), applies :func:`ai4hse_desk.protocol.extract.derive`,
compares with the runner's recorded verdict and feeds one
:class:`~ai4hse_desk.protocol.metrics.RunScorer` per run.

Short responses recur (answer-only runs mostly return the same few strict
lists, structured runs the same few JSON objects), so the verdicts of plain
answered attempts with a response of at most :data:`MEMO_MAX_TEXT` characters
are memoised per ``(track, protocol, n, response)``, for every track but
reasoning-assisted. Long texts (explanations, chain-of-thought) almost never
recur: they never enter the memo, so it stays small and no time is spent
hashing them. The memo holds at most :data:`MEMO_MAX_ENTRIES` verdicts (about
30 MB at most) and is emptied when full.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.progress import Progress
from ai4hse_desk.protocol.compare import PARSED_EXTRACTED, disagrees
from ai4hse_desk.protocol.extract import Rule, derive, track_rule
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.protocol.outcome import (
    CUT_OFF_REASONS,
    STATE_ANSWERED,
    Extraction,
    Status,
    Track,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB

#: Longest response whose verdict is memoised (characters).
MEMO_MAX_TEXT = 200
#: Most verdicts memoised at once, over all tracks.
MEMO_MAX_ENTRIES = 65_536
_VALID = Status.VALID


class RescoreCancelled(Exception):
    """The progress callback asked to stop."""


@dataclass(frozen=True, slots=True)
class AttemptVerdict:
    """The desk's verdict on one attempt next to what the runner recorded."""

    attempt_id: int
    run_id: str
    question_id: str
    repetition: int
    outcome: Extraction
    correct: bool
    recorded_status: str | None
    agrees: bool

    def to_json(self) -> dict[str, object]:
        """The per-attempt object of cli.md's ``rescore --per-attempt``."""
        selection = self.outcome.selection
        return {
            "attempt_id": self.attempt_id,
            "run_id": self.run_id,
            "question_id": self.question_id,
            "repetition": self.repetition,
            "status": self.outcome.status.value,
            "selection": None if selection is None else list(selection),
            "strict_format": self.outcome.strict_format,
            "correct": self.correct,
            "recorded_status": self.recorded_status,
            "agrees": self.agrees,
        }


@dataclass(frozen=True, slots=True)
class RescoreResult:
    """Ordered run objects (cli.md) of one rescore."""

    runs: list[dict[str, object]]
    attempts: int


def selected_runs(db: AuditDB, run_ids: Sequence[str] | None) -> dict[str, RunInfo]:
    """Every run (or ``run_ids``, each once) as :class:`RunInfo`; ``AuditError`` if unknown."""
    runs = {run.run_id: run for run in db.runs()}
    wanted = list(runs) if run_ids is None else list(dict.fromkeys(run_ids))
    for run_id in wanted:
        if run_id not in runs:
            raise AuditError(f"unknown run: {run_id}")
    return {
        run_id: RunInfo(
            run_id=run_id,
            model=runs[run_id].model,
            track=runs[run_id].track,
            protocol_version=runs[run_id].protocol_version,
            status=runs[run_id].status,
        )
        for run_id in wanted
    }


#: What the rescore loop keeps per run: track, protocol version, memo table per n,
#: scorer, track rule, longest memoised response (-1: none).
_Context = tuple[str, int, dict[int, dict["str | None", Extraction]], "RunScorer | None", Rule, int]

#: One verdict as a plain tuple (the hot loop builds no objects):
#: (attempt_id, run_id, question_id, repetition, outcome, correct, recorded_status, agrees)
VerdictTuple = tuple[int, str, str, int, Extraction, bool, "str | None", bool]


def _verdict_batches(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    scorers: dict[str, RunScorer] | None,
    collect: bool,
    progress: Progress | None,
    id_range: tuple[int, int] | None = None,
    exclude_questions: Collection[str] | None = None,
    check: bool = True,
) -> Iterator[list[VerdictTuple]]:
    """The rescore loop: one list of verdict tuples per batch of attempts read.

    With ``collect`` False the lists stay empty and only ``scorers`` are fed:
    that is the benchmarked fast path of ``rescore``. Attempts of the questions
    in ``exclude_questions`` are skipped (neither scored nor collected). With
    ``check`` the attempts' values are checked beside the scan (see
    :meth:`AuditDB.iter_rescore_batches`); a failure the data explains is
    reported as the data's :class:`AuditError`.
    """
    try:
        yield from _verdict_loop(
            db, runs, run_ids, scorers, collect, progress, id_range, exclude_questions, check
        )
    except (AuditError, RescoreCancelled):
        raise
    except Exception:
        if check:
            db.check_attempts()
        raise


def _verdict_loop(  # noqa: C901 - the per-attempt hot loop stays inline (no call per attempt)
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    scorers: dict[str, RunScorer] | None,
    collect: bool,
    progress: Progress | None,
    id_range: tuple[int, int] | None,
    exclude_questions: Collection[str] | None,
    check: bool,
) -> Iterator[list[VerdictTuple]]:
    skipped = frozenset(exclude_questions or ())
    keys = db.answer_keys()
    total = db.count_attempts(runs) if progress else 0
    # Verdicts of plain answered attempts with a short response, memoised per response
    # text in one table per (track, protocol version, n), shared by every run with that
    # track and version.
    shared: dict[tuple[str, int, int], dict[str | None, Extraction]] = {}
    # Per run: (track, protocol version, n -> memo table, scorer, rule, memo length
    # limit). Attempts of a run mostly come together, so the last run's context is kept
    # at hand.
    contexts: dict[str, _Context] = {}
    memo_size = 0
    done = 0
    answered = STATE_ANSWERED
    cut_off = CUT_OFF_REASONS
    valid = _VALID
    # A NULL ``extracted`` is never in it, so looking None up finds nothing.
    parsed_get = cast("Callable[[str | None, object], object]", PARSED_EXTRACTED.get)
    unseen = object()
    last_run: str | None = None
    track, version, memo_limit = "", 0, 0
    by_n: dict[int, dict[str | None, Extraction]] = {}
    scorer: RunScorer | None = None
    rule: Rule  # set with the first attempt's run
    wanted = None if run_ids is None else list(runs)
    for rows in db.iter_rescore_batches(wanted, 10000, id_range, check=check):
        out: list[VerdictTuple] = []
        for (attempt_id, run_id, question_id, repetition, state, raw, finish,
             rec_status, rec_extracted, rec_strict, rec_correct) in rows:  # fmt: skip
            if skipped and question_id in skipped:
                continue
            if run_id != last_run:
                context = contexts.get(run_id)
                if context is None:
                    context = contexts[run_id] = _context(runs, run_id, attempt_id, scorers)
                track, version, by_n, scorer, rule, memo_limit = context
                last_run = run_id
            key = keys.get(question_id)
            if not key:
                raise AuditError(
                    f"attempt {attempt_id} refers to question {question_id!r}, "
                    "which is missing or has no options"
                )
            n = len(key)
            if state != answered or finish in cut_off:
                outcome = derive(
                    track, raw, n, protocol_version=version, state=state, finish_reason=finish
                )
            elif raw is None or len(raw) <= memo_limit:
                table = by_n.get(n)
                if table is None:
                    table = by_n[n] = shared.setdefault((track, version, n), {})
                memoised = table.get(raw)
                if memoised is None:
                    memoised = rule("" if raw is None else raw, n, version)
                    if memo_size >= MEMO_MAX_ENTRIES:
                        for stale in shared.values():
                            stale.clear()
                        memo_size = 0
                    table[raw] = memoised
                    memo_size += 1
                outcome = memoised
            else:
                outcome = rule(raw, n, version)
            status = outcome.status
            selection = outcome.selection
            strict = outcome.strict_format
            correct = status is valid and selection == key
            # disagrees(), with the common case (all four recorded and equal) inline.
            if (
                rec_status == status
                and rec_strict == strict
                and rec_correct == correct
                and (
                    rec_extracted is None
                    if selection is None
                    else parsed_get(rec_extracted, unseen) == selection
                )
            ):
                differs = False
            else:
                differs = disagrees(
                    status, selection, strict, correct,
                    rec_status, rec_extracted, rec_strict, rec_correct,
                )  # fmt: skip
            if scorer is not None:
                scorer.add(question_id, repetition, status, selection, strict, key, differs)
            if collect:
                out.append(
                    (attempt_id, run_id, question_id, repetition, outcome, correct,
                     rec_status, not differs)
                )  # fmt: skip
        done += len(rows)
        if progress is not None and not progress(done, total):
            raise RescoreCancelled
        yield out


def _context(
    runs: dict[str, RunInfo], run_id: str, attempt_id: int, scorers: dict[str, RunScorer] | None
) -> _Context:
    """What the loop keeps per run (see :func:`_verdict_loop`)."""
    info = runs.get(run_id)
    if info is None:
        raise AuditError(f"attempt {attempt_id} refers to unknown run {run_id!r}")
    feed = None if scorers is None else scorers[run_id]
    memo_limit = -1 if info.track == Track.REASONING_ASSISTED.value else MEMO_MAX_TEXT
    return info.track, info.protocol_version, {}, feed, track_rule(info.track), memo_limit


def iter_verdicts(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    progress: Progress | None = None,
    scorers: dict[str, RunScorer] | None = None,
) -> Iterator[AttemptVerdict]:
    """Yield the desk's verdict on every attempt (of ``run_ids``) in attempt_id order.

    When ``scorers`` is given, each attempt is also added to its run's scorer.

    Raises:
        AuditError: an unknown run, or an attempt whose question or run is not
            in the database, or a question without options.
        RescoreCancelled: ``progress`` returned False.
    """
    runs = selected_runs(db, run_ids)
    for batch in _verdict_batches(db, runs, run_ids, scorers, True, progress):
        for verdict in batch:
            yield AttemptVerdict(*verdict)


def iter_verdict_batches(
    db: AuditDB, run_ids: Sequence[str] | None = None, *, progress: Progress | None = None
) -> Iterator[list[VerdictTuple]]:
    """Verdicts as lists of plain tuples (:data:`VerdictTuple`), one list per batch read."""
    return _verdict_batches(db, selected_runs(db, run_ids), run_ids, None, True, progress)


def rescore(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    on_attempt: Callable[[AttemptVerdict], None] | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    exclude_questions: Collection[str] | None = None,
    beside: Callable[[], object] | None = None,
) -> RescoreResult:
    """Re-derive and score every run (or ``run_ids``); runs ordered as cli.md says.

    Without ``on_attempt``, ``progress`` and ``exclude_questions``, a large
    database may be split by attempt id over ``workers`` processes (default:
    two only when the database is large and two cores are idle, see
    :mod:`.parallel`; else one process); the result is the same.
    ``exclude_questions`` leaves those questions' attempts out of every run (an
    exploration, never the official score). ``beside`` (e.g. the file's
    sha256) runs on a thread during the scan and is waited for before the
    result is returned; what it raises is raised here.
    """
    from ai4hse_desk.verdicts.parallel import Beside, score_in_parallel

    runs = selected_runs(db, run_ids)
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    side = Beside(beside)
    try:
        alone = on_attempt is None and progress is None and exclude_questions is None
        if alone and score_in_parallel(db, runs, run_ids, scorers, workers, beside=side):
            side.join()
            return run_results(db, scorers)
        side.start()
        collect = on_attempt is not None
        batches = _verdict_batches(
            db, runs, run_ids, scorers, collect, progress, exclude_questions=exclude_questions
        )
        for batch in batches:
            if on_attempt is not None:
                for verdict in batch:
                    on_attempt(AttemptVerdict(*verdict))
    except BaseException:
        side.join(quiet=True)
        raise
    side.join()
    return run_results(db, scorers)


def score_range(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    id_range: tuple[int, int],
) -> dict[str, RunScorer]:
    """Score only the attempts whose id lies in ``id_range`` (one worker's share).

    The values are not checked here: the parent process checks them while its
    workers score (see :mod:`.parallel`).
    """
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    for _ in _verdict_batches(db, runs, run_ids, scorers, False, None, id_range, check=False):
        pass
    return scorers


def run_results(db: AuditDB, scorers: dict[str, RunScorer]) -> RescoreResult:
    """The filled ``scorers`` as cli.md's ordered run objects (labels and facet from ``db``)."""
    labels = db.labels()
    facet = db.meta.get("consistency_facet", "topic")
    return RescoreResult(
        runs=order_runs(
            scorer.result(labels, consistency_facet=facet) for scorer in scorers.values()
        ),
        attempts=sum(scorer.attempts for scorer in scorers.values()),
    )


__all__ = [
    "AttemptVerdict",
    "Progress",
    "RescoreCancelled",
    "RescoreResult",
    "VerdictTuple",
    "iter_verdict_batches",
    "iter_verdicts",
    "rescore",
    "run_results",
    "score_range",
    "selected_runs",
]
