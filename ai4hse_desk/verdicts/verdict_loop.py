"""The rescore loop: every attempt read, derived, compared and counted, batch by batch.

It streams attempts through the driver-level cursor (never the ORM, never all
rows at once), applies the run's track rule as a verdict rule (no character
spans, which no consumer of the loop keeps:
:func:`~ai4hse_desk.protocol.extract.verdict_rule`) (or
:func:`ai4hse_desk.protocol.extract.derive` for attempts that are not plain
answered replies), compares with the runner's recorded verdict and counts each
attempt into its run's :class:`~.tally.RunTally` (one tuple appended; the
tallies are counted into the scorers once per batch).

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

from typing import TYPE_CHECKING, TypeAlias, cast

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.protocol.compare import PARSED_EXTRACTED, disagrees
from ai4hse_desk.protocol.extract import Rule, derive, verdict_rule
from ai4hse_desk.protocol.outcome import (
    CUT_OFF_REASONS,
    STATE_ANSWERED,
    Extraction,
    Status,
    Track,
)
from ai4hse_desk.verdicts.checked_scan import checked_batches
from ai4hse_desk.verdicts.machine import idle_cores
from ai4hse_desk.verdicts.tally import RunTally

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.metrics import RunInfo, RunScorer
    from ai4hse_desk.protocol.outcome import Selection
    from ai4hse_desk.verdicts.attempt_verdict import VerdictTuple
    from ai4hse_desk.verdicts.tally import Event

#: Longest response whose verdict is memoised (characters).
MEMO_MAX_TEXT = 200
#: Most verdicts memoised at once, over all tracks.
MEMO_MAX_ENTRIES = 65_536
#: Idle cores (usable CPUs minus the 1-minute load) below which a whole-file rescore
#: checks the values inside its own scan (:mod:`.checked_scan`): about 12% less CPU
#: for the scan and the check together on the realistic 1M file (4.5 s against 5.2 s),
#: but all of it on the scanning thread, so with a core idle the check runs beside it.
FOLD_BELOW_IDLE_CORES = 1.0
#: Attempts read (and tallies flushed) at a time.
BATCH = 10_000
_VALID = Status.VALID


class RescoreCancelled(Exception):
    """The progress callback asked to stop."""


_Memo = dict["str | None", Extraction]
#: What the loop keeps per run: track, protocol version, memo table per n, the
#: tally's two appends (None and a no-op without a scorer), track rule, longest
#: memoised response (-1: none).
_Context: TypeAlias = (
    "tuple[str, int, dict[int, _Memo], Callable[[Event], None] | None, "
    "Callable[[tuple[str, Selection | None]], None], Rule, int]"
)


def _ignore(_: object) -> None:
    """Where a run without a scorer sends its valid but incorrect selections."""


def verdict_loop(  # noqa: C901 - the per-attempt hot loop stays inline
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
    """One list of verdict tuples per batch read (see ``run_scores.verdict_batches``)."""
    skipped = frozenset(exclude_questions or ())
    keys = db.answer_keys()
    # question id -> (answer key, number of options): one look-up per attempt.
    keyed = {question_id: (key, len(key)) for question_id, key in keys.items() if key}
    total = db.count_attempts(runs) if progress else 0
    # Verdicts of plain answered attempts with a short response, memoised per response
    # text in one table per (track, protocol version, n), shared by every run with that
    # track and version.
    shared: dict[tuple[str, int, int], _Memo] = {}
    # Attempts of a run mostly come together, so the last run's context is kept at hand.
    contexts: dict[str, _Context] = {}
    tallies: list[RunTally] = []
    memo_size = 0
    done = 0
    answered = STATE_ANSWERED
    cut_off = CUT_OFF_REASONS
    valid = _VALID
    # A NULL ``extracted`` is never in it, so looking None up finds nothing.
    parsed_get = cast("Callable[[str | None, object], object]", PARSED_EXTRACTED.get)
    unseen = object()
    missing = (None, 0)
    last_run: str | None = None
    track, version, memo_limit = "", 0, 0
    by_n: dict[int, _Memo] = {}
    tally: Callable[[Event], None] | None = None
    wrong: Callable[[tuple[str, Selection | None]], None] = _ignore
    rule: Rule  # set with the first attempt's run
    wanted = None if run_ids is None else list(runs)
    whole = check and wanted is None and id_range is None
    if whole and idle_cores(sample=False) < FOLD_BELOW_IDLE_CORES:  # no core for two scans
        scan = checked_batches(db, BATCH)
    elif check and id_range is not None:
        # A worker's share of every run: its own rows checked inside its scan; the
        # uniqueness checks are its parent's (run_scores.score_range).
        if wanted is not None:
            raise ValueError("a checked share of attempt ids is read for every run")
        scan = checked_batches(db, BATCH, id_range)
    else:  # checked on a thread beside the scan (or, for a worker's share, by the parent)
        scan = db.iter_rescore_batches(wanted, BATCH, id_range, check=check)
    for rows in scan:
        out: list[VerdictTuple] = []
        for (attempt_id, run_id, question_id, repetition, state, raw, finish,
             rec_status, rec_extracted, rec_strict, rec_correct) in rows:  # fmt: skip
            if skipped and question_id in skipped:
                continue
            if run_id != last_run:
                context = contexts.get(run_id)
                if context is None:
                    context, fresh = _context(runs, run_id, attempt_id, scorers)
                    contexts[run_id] = context
                    if fresh is not None:
                        tallies.append(fresh)
                track, version, by_n, tally, wrong, rule, memo_limit = context
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
            if status is valid:
                correct = selection == key
                if not correct:
                    wrong((question_id, selection))
            else:
                correct = False
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
            if tally is not None:
                tally((question_id, repetition, status, strict, correct, differs))
            if collect:
                out.append(
                    (attempt_id, run_id, question_id, repetition, outcome, correct,
                     rec_status, not differs)
                )  # fmt: skip
        for pending in tallies:
            pending.flush(keys)
        done += len(rows)
        if progress is not None and not progress(done, total):
            raise RescoreCancelled
        yield out


def _context(
    runs: dict[str, RunInfo], run_id: str, attempt_id: int, scorers: dict[str, RunScorer] | None
) -> tuple[_Context, RunTally | None]:
    """What the loop keeps per run (see :func:`verdict_loop`), and the run's tally if scored."""
    info = runs.get(run_id)
    if info is None:
        raise AuditError(f"attempt {attempt_id} refers to unknown run {run_id!r}")
    memo_limit = -1 if info.track == Track.REASONING_ASSISTED.value else MEMO_MAX_TEXT
    rule = verdict_rule(info.track)  # the loop keeps no character spans
    if scorers is None:
        return (info.track, info.protocol_version, {}, None, _ignore, rule, memo_limit), None
    tally = RunTally(scorers[run_id])
    context: _Context = (
        info.track, info.protocol_version, {}, tally.append, tally.append_wrong, rule, memo_limit
    )  # fmt: skip
    return context, tally
