"""Reviewer effort: active time from a question shown to the verdict submitted.

The window records each time it shows a question to a reviewer of it
(:meth:`~.book.ReviewBook.record_shown` → :func:`record_shown`, table
``review_shown``, append-only) until their verdict on it is submitted. A verdict's
**active time** is the sum over its *sessions*: each showing starts one, which lasts
until the reviewer's last change of the verdict (blind answer, edit, submission)
before the next showing — so time spent looking elsewhere between two showings is
not counted, nor time after the submission. A session in which nothing was changed
counts nothing; one longer than :data:`SESSION_CAP_SECONDS` counts that long (a
reviewer who left the question open over lunch), and the report says how many were
capped.

A verdict with no showing before its submission (recorded by the CLI, imported, or
made before the desk recorded showings) is **untimed**. The report's
``confirmed_key_errors_per_reviewer_hour`` divides the ``key_corrected`` decisions by
the reviewer hours: measured when every submitted verdict is timed; estimated from
the timed verdicts' mean when only some are (``basis`` says which); ``null`` with a
reason when none is.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sqlalchemy import insert, select

from ai4hse_desk.notes import backend
from ai4hse_desk.notes.model import new_id, parse_time
from ai4hse_desk.notes.schema import REVIEW_TABLES, review_shown
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.values import KEY_CORRECTED, SUBMITTED

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from datetime import datetime

    from sqlalchemy.engine import Connection

    from ai4hse_desk.review.records import Decision

_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES
#: The longest one session counts (seconds).
SESSION_CAP_SECONDS: Final = 3600
DEFINITION: Final = (
    "active time: for each submitted verdict, from each time the desk showed the question to "
    "the reviewer until their last change of the verdict before the next showing, up to the "
    f"submission; a session counts at most {SESSION_CAP_SECONDS // 60} minutes. Verdicts "
    "recorded without the desk showing the question first (the command line, imports) are "
    "untimed."
)


def record_shown(conn: Connection, question_id: str, reviewer: str, audit_sha256: str) -> bool:
    """Append a showing of ``question_id`` to ``reviewer`` now, unless their verdict on it
    is already submitted (then nothing is written and the answer is False)."""
    found = review_writes.read_verdicts(
        conn, _V.c.question_id == question_id, _V.c.reviewer == reviewer
    )
    if found and found[0].state == SUBMITTED:
        return False
    conn.execute(
        insert(review_shown),
        [
            {
                "shown_id": new_id(),
                "question_id": question_id,
                "reviewer": reviewer,
                "at": backend.clock(conn),
                "audit_sha256": audit_sha256,
            }
        ],
    )
    return True


#: (question, reviewer) → times.
Times = dict[tuple[str, str], list[str]]


@dataclass(frozen=True, slots=True)
class Activity:
    """What effort is computed from: the showings and every verdict change, by
    (question, reviewer), each list oldest first."""

    shown: Times
    changes: dict[tuple[str, str], list[tuple[str, str]]]


def read_activity(conn: Connection) -> Activity:
    """Every showing and every verdict revision's time and state, in one transaction."""
    shown: Times = defaultdict(list)
    rows = conn.execute(
        select(review_shown.c.question_id, review_shown.c.reviewer, review_shown.c.at).order_by(
            review_shown.c.at
        )
    )
    for qid, who, at in rows:
        shown[(str(qid), str(who))].append(str(at))
    changes: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    query = (
        select(_V.c.question_id, _V.c.reviewer, _VR.c.at, _VR.c.state)
        .join(_VR, _VR.c.verdict_id == _V.c.verdict_id)
        .order_by(_VR.c.at, _VR.c.revision_id)
    )
    for qid, who, at, state in conn.execute(query):
        changes[(str(qid), str(who))].append((str(at), str(state)))
    return Activity(dict(shown), dict(changes))


@dataclass(frozen=True, slots=True)
class VerdictTime:
    """One submitted verdict's active time (``seconds`` ``None``: untimed)."""

    question_id: str
    reviewer: str
    seconds: float | None
    sessions: int = 0
    capped: int = 0


def _times(values: Iterable[str]) -> list[datetime]:
    return sorted(t for t in (parse_time(v) for v in values) if t is not None)


def verdict_time(
    question_id: str, reviewer: str, shown: Sequence[str], changes: Sequence[tuple[str, str]]
) -> VerdictTime | None:
    """The active time of one verdict (module docstring); ``None`` if never submitted."""
    submit_at = next((at for at, state in changes if state == SUBMITTED), None)
    submitted = None if submit_at is None else parse_time(submit_at)
    if submitted is None:
        return None
    acts = [t for t in _times(at for at, _ in changes) if t <= submitted]
    starts = [t for t in _times(shown) if t <= submitted]
    total, sessions, capped = 0.0, 0, 0
    for n, start in enumerate(starts):
        ends = starts[n + 1] if n + 1 < len(starts) else None
        inside = [t for t in acts if t >= start and (ends is None or t < ends)]
        if not inside:
            continue
        span = (max(inside) - start).total_seconds()
        sessions += 1
        if span > SESSION_CAP_SECONDS:
            span, capped = float(SESSION_CAP_SECONDS), capped + 1
        total += span
    return VerdictTime(question_id, reviewer, total if sessions else None, sessions, capped)


def verdict_times(activity: Activity) -> list[VerdictTime]:
    """Every submitted verdict's active time, by question then reviewer."""
    found = []
    for (qid, who), changes in sorted(activity.changes.items()):
        time = verdict_time(qid, who, activity.shown.get((qid, who), ()), changes)
        if time is not None:
            found.append(time)
    return found


def _round(value: float | None, places: int = 1) -> float | None:
    return None if value is None else round(value, places)


def _reviewer(name: str, times: list[VerdictTime]) -> dict[str, object]:
    timed = [t.seconds for t in times if t.seconds is not None]
    return {
        "reviewer": name,
        "submitted": len(times),
        "timed": len(timed),
        "active_seconds": _round(sum(timed)),
        "median_seconds_per_verdict": _round(statistics.median(timed)) if timed else None,
        "sessions_capped": sum(t.capped for t in times),
    }


def review_effort(times: Sequence[VerdictTime], decisions: Iterable[Decision]) -> dict[str, object]:
    """The report's ``effort`` object: per reviewer (name order) the submitted verdicts,
    how many are timed and their ``active_seconds`` summed; overall the reviewer hours
    and ``confirmed_key_errors_per_reviewer_hour`` (module docstring)."""
    by_reviewer: dict[str, list[VerdictTime]] = defaultdict(list)
    for time in times:
        by_reviewer[time.reviewer].append(time)
    timed = [t.seconds for t in times if t.seconds is not None]
    errors = sum(d.decision == KEY_CORRECTED for d in decisions)
    seconds = sum(timed)
    rate: float | None = None
    hours: float | None = None
    basis: str | None = None
    reason: str | None = None
    if not times:
        reason = "no verdict has been submitted"
    elif not timed:
        reason = (
            "no submitted verdict is timed: the desk did not show these questions before the "
            "verdicts were submitted (command line or imported verdicts)"
        )
    elif seconds <= 0:
        reason = "the timed verdicts took no measurable time"
    else:
        hours = seconds / 3600
        basis = "measured"
        if len(timed) < len(times):
            hours *= len(times) / len(timed)
            basis = "estimated"
        rate = errors / hours
    return {
        "definition": DEFINITION,
        "session_cap_seconds": SESSION_CAP_SECONDS,
        "reviewers": [_reviewer(name, by_reviewer[name]) for name in sorted(by_reviewer)],
        "submitted": len(times),
        "timed": len(timed),
        "active_seconds": _round(seconds),
        "reviewer_hours": _round(hours, 3),
        "confirmed_key_errors": errors,
        "confirmed_key_errors_per_reviewer_hour": _round(rate, 3),
        "basis": basis,
        "undefined_reason": reason,
    }


__all__ = [
    "SESSION_CAP_SECONDS",
    "Activity",
    "VerdictTime",
    "read_activity",
    "record_shown",
    "review_effort",
    "verdict_time",
    "verdict_times",
]
