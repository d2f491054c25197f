"""The server's JSON answers in cli.md's shapes, keys in a fixed order.

The functions answer in ``jsonb``, whose keys PostgreSQL sorts its own way; these put
them back in the order the local commands print, and add what the desk derives rather
than stores (an adjudication queue item's ``reasons``).
"""

from __future__ import annotations

from typing import Any, Final

from ai4hse_desk.review.queue import reasons_of
from ai4hse_desk.review.server.client import decision_of, verdict_of

#: The fields of a queue object's verdicts (cli.md, "adjudication queue").
QUEUE_VERDICT: Final = (
    "reviewer",
    "verdict",
    "blind_answer",
    "proposed_key",
    "confidence",
    "source",
    "note",
)
_STATUS: Final = ("plan", "reviewers", "coverage", "adjudication")
_PLAN: Final = ("per_question", "questions", "order", "seed")
_REVIEWER: Final = ("reviewer", "assigned", "submitted", "drafts", "remaining")
_COVERAGE: Final = ("questions", "fully_reviewed", "partly_reviewed", "unreviewed")
_ADJUDICATION: Final = ("needed", "decided")
_PROGRESS: Final = ("assigned", "submitted", "drafts", "remaining")
_SHOW: Final = (
    "question_id",
    "ordinal",
    "role",
    "text",
    "options",
    "verdict",
    "key",
    "runs",
    "others",
    "decision",
    "hidden",
)
_RUN: Final = ("run_id", "model", "track", "attempts")
_ATTEMPT: Final = (
    "attempt_id",
    "repetition",
    "status",
    "selection",
    "correct",
    "strict_format",
    "response",
)


def _pick(data: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """``data``'s ``keys`` in that order (those it has), then any others it has."""
    if not isinstance(data, dict):
        return data  # type: ignore[no-any-return]
    out = {key: data[key] for key in keys if key in data}
    out.update((key, value) for key, value in data.items() if key not in out)
    return out


def status(body: dict[str, Any]) -> dict[str, Any]:
    """A ``review status`` object (with or without ``audit``)."""
    out = _pick(body, ("audit", *_STATUS))
    out["plan"] = None if out.get("plan") is None else _pick(out["plan"], _PLAN)
    reviewers = sorted(out.get("reviewers") or [], key=lambda r: str(r["reviewer"]))
    out["reviewers"] = [_pick(row, _REVIEWER) for row in reviewers]
    out["coverage"] = _pick(out.get("coverage") or {}, _COVERAGE)
    out["adjudication"] = _pick(out.get("adjudication") or {}, _ADJUDICATION)
    return out


def progress(data: dict[str, Any]) -> dict[str, Any]:
    """A login's progress object."""
    return _pick(data, _PROGRESS)


def shown(data: dict[str, Any]) -> dict[str, Any]:
    """A ``review show`` object: the question, the login's own verdict and what is
    released to it now (``null`` where it is hidden, ``hidden`` saying until when)."""
    out = _pick(data, _SHOW)
    if out.get("verdict") is not None:
        out["verdict"] = verdict_of(out["verdict"]).to_json()
    if out.get("others") is not None:
        out["others"] = [verdict_of(v).to_json() for v in out["others"]]
    if out.get("decision") is not None:
        out["decision"] = decision_of(out["decision"]).to_json()
    if out.get("runs") is not None:
        out["runs"] = [
            {
                **_pick(run, _RUN),
                "attempts": [_pick(a, _ATTEMPT) for a in run.get("attempts") or []],
            }
            for run in out["runs"]
        ]
    return out


def next_answer(data: dict[str, Any]) -> dict[str, Any]:
    """``review next``: ``{"reviewer", "question", "progress"}``."""
    return {
        "reviewer": data.get("reviewer"),
        "question": None if data.get("question") is None else shown(data["question"]),
        "progress": progress(data.get("progress") or {}),
    }


def reasons(verdicts: list[dict[str, Any]]) -> list[str]:
    """Why a question is in the adjudication queue: the local review's rule
    (:func:`~ai4hse_desk.review.queue.reasons_of`) on the server's rows."""
    keys = [tuple(v["proposed_key"]) if v.get("proposed_key") else None for v in verdicts]
    return reasons_of([v.get("verdict") for v in verdicts], keys)


def queue_item(item: dict[str, Any]) -> dict[str, Any]:
    """One adjudication queue object (cli.md): ``question_id``, ``reasons``,
    ``official_key``, ``verdicts`` (their fields, reviewers in name order), ``decision``."""
    verdicts = sorted(item.get("verdicts") or [], key=lambda v: str(v["reviewer"]))
    decision = item.get("decision")
    return {
        "question_id": item["question_id"],
        "reasons": reasons(verdicts),
        "official_key": item.get("official_key"),
        "verdicts": [{key: v.get(key) for key in QUEUE_VERDICT} for v in verdicts],
        "decision": None if decision is None else decision_of(decision).to_json(),
    }
