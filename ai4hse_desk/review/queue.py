"""The adjudication queue (cli.md, "Reviewer identity, adjudication queue, report evidence").

A question **enters adjudication** when its submitted verdicts differ in concern vs
``key_ok``, in the verdict or in the proposed key, or when any says ``key_wrong``
(:func:`reasons` names which). It **needs a decision** while it has none, or while
its latest decision is ``unresolved``: such a question stays in the queue and is
not counted as decided. A question decided ``key_confirmed``, ``key_corrected`` or
``question_excluded`` leaves the queue (its decision can still be revised).

Everything here is pure (no store, no Qt): :class:`~.adjudication.Adjudication`
reads the store and calls :func:`adjudication_queue`; the window, the CLI and the
report's evidence appendix all show the same :class:`QueueItem`.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.review.values import KEY_OK, KEY_WRONG

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from ai4hse_desk.review.records import Decision, ReviewVerdict

#: A reviewer says ``key_wrong``.
REASON_KEY_WRONG: Final = "key_wrong"
#: Some reviewers raise a concern, others say ``key_ok``.
REASON_CONCERN: Final = "concern_vs_key_ok"
#: The reviewers' concerns are not the same verdict.
REASON_VERDICTS: Final = "verdicts_differ"
#: The reviewers' proposed keys differ (one proposing none counts as a difference).
REASON_PROPOSED: Final = "proposed_keys_differ"
#: Every reason, in the order they are listed, with its words.
REASONS: Final = {
    REASON_KEY_WRONG: "a reviewer says the key is wrong",
    REASON_CONCERN: "reviewers differ on whether there is a concern",
    REASON_VERDICTS: "the reviewers' concerns differ",
    REASON_PROPOSED: "the proposed keys differ",
}
#: The latest decision that keeps a question in the queue.
UNRESOLVED: Final = "unresolved"


def submitted_by_question(verdicts: Iterable[ReviewVerdict]) -> dict[str, list[ReviewVerdict]]:
    """Submitted verdicts grouped by question (reviewers in name order)."""
    grouped: dict[str, list[ReviewVerdict]] = defaultdict(list)
    for verdict in sorted(verdicts, key=lambda v: v.reviewer):
        if verdict.submitted:
            grouped[verdict.question_id].append(verdict)
    return dict(grouped)


def reasons(submitted: Sequence[ReviewVerdict]) -> list[str]:
    """Why these submitted verdicts on one question enter adjudication (empty: they do not)."""
    return reasons_of([v.verdict for v in submitted], [v.proposed_key for v in submitted])


def reasons_of(
    verdicts: Sequence[str | None], proposed: Sequence[tuple[str, ...] | None]
) -> list[str]:
    """:func:`reasons` of one question's submitted verdicts given as their values (the
    review server's rows come as such): each verdict, and each proposed key."""
    concerns = {v for v in verdicts if v != KEY_OK}
    found = []
    if KEY_WRONG in verdicts:
        found.append(REASON_KEY_WRONG)
    if concerns and KEY_OK in verdicts:
        found.append(REASON_CONCERN)
    if len(concerns) > 1:
        found.append(REASON_VERDICTS)
    if len(set(proposed)) > 1:
        found.append(REASON_PROPOSED)
    return found


def needs_adjudication(submitted: Sequence[ReviewVerdict]) -> bool:
    """True when these submitted verdicts on one question enter adjudication."""
    return bool(reasons(submitted))


def is_open(decision: Decision | None) -> bool:
    """True while a question needs a decision: none yet, or the latest is ``unresolved``."""
    return decision is None or decision.decision == UNRESOLVED


def _answer(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)


@dataclass(frozen=True, slots=True)
class QueueItem:
    """One question of the adjudication queue, with everything an adjudicator weighs.

    Attributes:
        reasons: why it entered adjudication (:data:`REASONS` codes, in that order).
        official_key: the audit file's key, one Boolean per option.
        verdicts: the submitted verdicts, reviewers in name order.
        decision: the latest decision (``None``: none yet).
    """

    question_id: str
    reasons: tuple[str, ...]
    official_key: tuple[bool, ...]
    verdicts: tuple[ReviewVerdict, ...]
    decision: Decision | None

    @property
    def open(self) -> bool:
        """True while the question needs a decision (:func:`is_open`)."""
        return is_open(self.decision)

    def to_json(self) -> dict[str, object]:
        """cli.md's queue object: ``question_id``, ``reasons``, ``official_key``,
        ``verdicts`` [{``reviewer``, ``verdict``, ``blind_answer``, ``proposed_key``,
        ``confidence``, ``source``, ``note``}], ``decision`` (``null`` or the decision
        as ``review adjudicate`` prints it)."""
        return {
            "question_id": self.question_id,
            "reasons": list(self.reasons),
            "official_key": list(self.official_key),
            "verdicts": [
                {
                    "reviewer": v.reviewer,
                    "verdict": v.verdict,
                    "blind_answer": _answer(v.blind_answer),
                    "proposed_key": _answer(v.proposed_key),
                    "confidence": v.confidence,
                    "source": v.source,
                    "note": v.note,
                }
                for v in self.verdicts
            ],
            "decision": None if self.decision is None else self.decision.to_json(),
        }


def queue_item(
    question_id: str,
    submitted: Sequence[ReviewVerdict],
    official_key: Sequence[bool],
    decision: Decision | None,
) -> QueueItem:
    """The queue object of one question (whether or not it entered adjudication)."""
    return QueueItem(
        question_id,
        tuple(reasons(submitted)),
        tuple(official_key),
        tuple(sorted(submitted, key=lambda v: v.reviewer)),
        decision,
    )


def adjudication_queue(
    verdicts: Iterable[ReviewVerdict],
    decisions: Iterable[Decision],
    keys: Mapping[str, Sequence[bool]],
    order: Sequence[str],
    *,
    include_decided: bool = False,
) -> list[QueueItem]:
    """The questions that need a decision, in ``order`` (the corpus order); with
    ``include_decided`` also those that entered adjudication and were decided.

    Args:
        keys: the official key of every question (``AuditDB.answer_keys()``).
    """
    grouped = submitted_by_question(verdicts)
    decided = {d.question_id: d for d in decisions}
    items = []
    for qid in order:
        submitted = grouped.get(qid, [])
        if not needs_adjudication(submitted):
            continue
        item = queue_item(qid, submitted, keys[qid], decided.get(qid))
        if include_decided or item.open:
            items.append(item)
    return items


__all__ = [
    "REASONS",
    "QueueItem",
    "adjudication_queue",
    "is_open",
    "needs_adjudication",
    "queue_item",
    "reasons",
    "reasons_of",
    "submitted_by_question",
]
