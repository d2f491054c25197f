"""The verdict stream: the one place where the desk derives every attempt of a file.

:func:`verdict_stream` reads the attempts through the driver-level cursor in
``attempt_id`` order (never the ORM, never all rows at once:
:meth:`~ai4hse_desk.audit.queries.AuditDB.iter_rescore_batches`, with the value
check beside the scan), applies the protocol (protocol.md section 2) and compares
each verdict with the runner's recorded one. It yields one list of
:data:`~.attempt_verdict.VerdictTuple` per batch read. Everything that needs the
desk's verdict on every attempt consumes it: ``rescore`` (:mod:`.rescore`, scored
by :mod:`.scoring`), the review index build (:mod:`ai4hse_desk.index.build`), the
review report's sensitivity (:mod:`.key_sensitivity`) and the key audit.

Plain answered attempts are judged by the run's track rule without character spans
(:func:`~ai4hse_desk.protocol.extract.verdict_rule`: no consumer of the stream keeps
them); every other attempt (not answered, or cut off) by
:func:`~ai4hse_desk.protocol.extract.derive`. Short responses recur (answer-only runs
mostly return the same few strict lists, structured runs the same few JSON objects),
so the verdicts of plain answered responses of at most :data:`MEMO_MAX_TEXT`
characters are memoised per (track, protocol version, number of options, text), for
every track but reasoning-assisted (explanations almost never recur). The memo holds
at most :data:`MEMO_MAX_ENTRIES` verdicts and is emptied when full.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext
from typing import TYPE_CHECKING, cast

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.protocol.compare import PARSED_EXTRACTED, disagrees
from ai4hse_desk.protocol.extract import derive, verdict_rule
from ai4hse_desk.protocol.outcome import CUT_OFF_REASONS, STATE_ANSWERED, Status, Track

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.audit.records import Run
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.extract import Rule
    from ai4hse_desk.protocol.outcome import Extraction
    from ai4hse_desk.verdicts.attempt_verdict import VerdictTuple

#: Longest response whose verdict is memoised (characters).
MEMO_MAX_TEXT = 200
#: Most verdicts memoised at once, over all tracks.
MEMO_MAX_ENTRIES = 65_536
#: Attempts read at a time.
BATCH = 10_000


class RescoreCancelled(Exception):
    """The progress callback asked to stop."""


_Memo = dict["str | None", "Extraction"]
#: What the stream keeps per run: track, protocol version, memo tables per number of
#: options, the track rule, the longest memoised response (-1: none).
_Context = tuple[str, int, dict[int, _Memo], "Rule", int]


def verdict_stream(  # noqa: C901 - the per-attempt hot loop stays inline
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    progress: Progress | None = None,
    id_range: tuple[int, int] | None = None,
    record: bool = False,
) -> Iterator[list[VerdictTuple]]:
    """The desk's verdict on every attempt (of ``run_ids``), one list per batch read.

    The values are checked beside the scan and the file must be unchanged before the
    last batch is handed over (see ``AuditDB.iter_rescore_batches``): a consumer that
    reaches the end has read valid values of one committed state. A failure the data
    explains is reported as the data's :class:`AuditError`. With ``id_range`` only
    that slice of attempt ids is read, unchecked (one worker's share:
    :mod:`.workers`, whose parent checks the file). With ``record`` a passed check
    is recorded in the cache (:meth:`~ai4hse_desk.audit.queries.AuditDB.record_attempts_check`).

    Raises:
        AuditError: an unknown run, an attempt of a run or question not in the file
            or of a question without options, a value that breaks the schema, or a
            file that changed while it was read.
        RescoreCancelled: ``progress`` returned False.
    """
    runs = {run.run_id: run for run in db.runs()}
    wanted = None if run_ids is None else list(dict.fromkeys(run_ids))
    for run_id in wanted or ():
        if run_id not in runs:
            raise AuditError(f"unknown run: {run_id}")
    keys = db.answer_keys()
    # question id -> (answer key, number of options): one look-up per attempt.
    keyed = {question_id: (key, len(key)) for question_id, key in keys.items() if key}
    total = db.count_attempts(wanted) if progress is not None else 0
    shared: dict[tuple[str, int, int], _Memo] = {}  # one memo table per (track, version, n)
    contexts: dict[str, _Context] = {}
    memo_size = done = 0
    answered, cut_off, valid = STATE_ANSWERED, CUT_OFF_REASONS, Status.VALID
    # A NULL ``extracted`` is never in it, so looking None up finds nothing.
    parsed_get = cast("Callable[[str | None, object], object]", PARSED_EXTRACTED.get)
    unseen, missing = object(), (None, 0)
    last_run: str | None = None
    track, version, memo_limit = "", 0, 0
    by_n: dict[int, _Memo] = {}
    rule: Rule  # set with the first attempt's run
    # (a slice's parent checks the whole file: see .workers)
    with values_explain_failures(db) if id_range is None else nullcontext():
        for rows in db.iter_rescore_batches(wanted, BATCH, id_range, record=record):
            out: list[VerdictTuple] = []
            append = out.append
            for (attempt_id, run_id, question_id, repetition, state, raw, finish,
                 rec_status, rec_extracted, rec_strict, rec_correct) in rows:  # fmt: skip
                if run_id != last_run:
                    context = contexts.get(run_id)
                    if context is None:
                        context = contexts[run_id] = _context(runs, run_id, attempt_id)
                    track, version, by_n, rule, memo_limit = context
                    last_run = run_id
                key, n = keyed.get(question_id, missing)
                if key is None:
                    raise AuditError(
                        f"attempt {attempt_id} refers to question {question_id!r}, "
                        "which is missing or has no options"
                    )
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
                agrees = (
                    rec_status == status
                    and rec_strict == strict
                    and rec_correct == correct
                    and (
                        rec_extracted is None
                        if selection is None
                        else parsed_get(rec_extracted, unseen) == selection
                    )
                ) or not disagrees(
                    status, selection, strict, correct,
                    rec_status, rec_extracted, rec_strict, rec_correct,
                )  # fmt: skip
                append((attempt_id, run_id, question_id, repetition, outcome, correct,
                        rec_status, agrees))  # fmt: skip
            done += len(rows)
            if progress is not None and not progress(done, total):
                raise RescoreCancelled
            yield out


@contextmanager
def values_explain_failures(db: AuditDB) -> Iterator[None]:
    """A failure in the block that a value breaking the schema explains is reported as
    that value (:meth:`~ai4hse_desk.audit.queries.AuditDB.check_attempts` raises its
    :class:`AuditError`); the data's own errors and a cancel pass as they are."""
    try:
        yield
    except (AuditError, RescoreCancelled):
        raise
    except Exception:
        db.check_attempts()
        raise


def _context(runs: dict[str, Run], run_id: str, attempt_id: int) -> _Context:
    """What the stream keeps per run (see :func:`verdict_stream`)."""
    run = runs.get(run_id)
    if run is None:
        raise AuditError(f"attempt {attempt_id} refers to unknown run {run_id!r}")
    track = run.track.value
    memo_limit = -1 if track == Track.REASONING_ASSISTED.value else MEMO_MAX_TEXT
    return track, run.protocol_version, {}, verdict_rule(track), memo_limit


__all__ = [
    "BATCH",
    "MEMO_MAX_ENTRIES",
    "MEMO_MAX_TEXT",
    "RescoreCancelled",
    "values_explain_failures",
    "verdict_stream",
]
