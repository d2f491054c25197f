"""One final state per question: what the review has made of it so far.

Every view and export reads the state from here, so that the ⚑ marks, the notes
list, the sensitivity exploration, the Review view and the report never disagree:

* ``not_reviewed`` — outside the plan, no verdict and no decision;
* ``under_review`` — planned or with verdicts, not settled yet: fewer than K submitted
  verdicts, or in the adjudication queue without a decision;
* ``confirmed`` — the key stands: the adjudicator decided ``key_confirmed``
  (``basis`` ``decision``), or K reviewers submitted verdicts that need no
  adjudication (``basis`` ``agreement``: all ``key_ok``, or one same concern that
  does not dispute the key — cli.md asks no decision then);
* ``corrected`` — the adjudicator decided ``key_corrected`` (``key`` holds the
  corrected key);
* ``excluded`` — the adjudicator decided ``question_excluded``;
* ``unresolved`` — the latest decision is ``unresolved``; the question stays in the
  adjudication queue.

A question **carries ⚑** (:attr:`FinalState.flagged`) while it has a submitted
concern nobody has settled by a decision: under review, unresolved, or confirmed by
agreement on a concern. A decision ``key_confirmed`` takes the ⚑ away; a corrected
or excluded question shows its state instead.

:func:`final_states` is pure (importing this module loads no SQLAlchemy: the window's
notes list uses it at start); :func:`read_final_states` reads a store in one
transaction. No official score ever depends on a state (protocol.md section 7):
:func:`exploration` only feeds the not-official sensitivity figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.review.export_json import lettered
from ai4hse_desk.review.queue import needs_adjudication, submitted_by_question
from ai4hse_desk.review.values import (
    CONCERN_CATEGORY,
    KEY_CORRECTED,
    QUESTION_EXCLUDED,
    Answer,
    key_of,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sqlalchemy.engine import Connection

    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.records import Decision, ReviewVerdict

NOT_REVIEWED: Final = "not_reviewed"
UNDER_REVIEW: Final = "under_review"
CONFIRMED: Final = "confirmed"
CORRECTED: Final = "corrected"
EXCLUDED: Final = "excluded"
UNRESOLVED: Final = "unresolved"
#: Every final state, in the order reports list them, with its words.
FINAL_STATES: Final = {
    NOT_REVIEWED: "Not reviewed",
    UNDER_REVIEW: "Under review",
    CONFIRMED: "Key confirmed",
    CORRECTED: "Key corrected",
    EXCLUDED: "Question excluded",
    UNRESOLVED: "Unresolved",
}
#: The decision that gives each settled state.
_BY_DECISION: Final = {
    "key_confirmed": CONFIRMED,
    KEY_CORRECTED: CORRECTED,
    QUESTION_EXCLUDED: EXCLUDED,
    "unresolved": UNRESOLVED,
}
#: K when there is no plan: a question is fully reviewed with two submitted verdicts.
DEFAULT_K: Final = 2


@dataclass(frozen=True, slots=True)
class FinalState:
    """What the review has made of one question.

    Attributes:
        state: one of :data:`FINAL_STATES`.
        basis: ``decision`` (an adjudicator's), ``agreement`` (K agreeing verdicts) or
            ``""`` (not settled).
        key: the corrected key (state ``corrected``), else ``None``.
        concerns: the submitted concerns' verdicts (one per reviewer, name order).
        in_queue: the question entered adjudication (decided or not).
        decision: the latest decision, if any.
        submitted: how many verdicts were submitted on it.
    """

    question_id: str
    state: str
    basis: str = ""
    key: Answer | None = None
    concerns: tuple[str, ...] = ()
    in_queue: bool = False
    decision: Decision | None = None
    submitted: int = 0

    @property
    def settled(self) -> bool:
        """True once the key's fate is known: confirmed, corrected or excluded."""
        return self.state in (CONFIRMED, CORRECTED, EXCLUDED)

    @property
    def flagged(self) -> bool:
        """True while a submitted concern stands that no decision settled (⚑)."""
        return bool(self.concerns) and self.basis != "decision"

    def flag_categories(self) -> set[str]:
        """The flag categories its standing concerns count as (empty when not flagged)."""
        if not self.flagged:
            return set()
        return {CONCERN_CATEGORY[c] for c in self.concerns if c in CONCERN_CATEGORY}

    @property
    def text(self) -> str:
        """The state in words, with the corrected key or the basis when it helps:
        ``"Key corrected: A TRUE, B FALSE"``, ``"Key confirmed (reviewers agree)"``."""
        words = FINAL_STATES[self.state]
        if self.state == CORRECTED and self.key is not None:
            return f"{words}: {lettered(self.key)}"
        if self.state == CONFIRMED and self.basis == "agreement":
            return f"{words} (reviewers agree)"
        if self.state == UNDER_REVIEW and self.in_queue:
            return "Awaiting adjudication"
        return words

    def to_json(self) -> dict[str, object]:
        """The state as a JSON object (keys as Booleans)."""
        return {
            "question_id": self.question_id,
            "state": self.state,
            "basis": self.basis or None,
            "key": None if self.key is None else list(key_of(self.key)),
            "concerns": list(self.concerns),
            "in_queue": self.in_queue,
            "flagged": self.flagged,
        }


def _state(
    qid: str,
    submitted: list[ReviewVerdict],
    decision: Decision | None,
    per_question: int,
    planned: bool,
    drafted: bool,
) -> FinalState:
    concerns = tuple(str(v.verdict) for v in submitted if v.concern)
    queued, n = needs_adjudication(submitted), len(submitted)
    if decision is not None:
        state = _BY_DECISION.get(decision.decision, UNRESOLVED)
        key = decision.corrected_key if state == CORRECTED else None
        basis = "" if state == UNRESOLVED else "decision"
        return FinalState(qid, state, basis, key, concerns, queued, decision, n)
    if submitted and not queued and n >= per_question:
        return FinalState(qid, CONFIRMED, "agreement", None, concerns, queued, None, n)
    if submitted or planned or drafted:
        return FinalState(qid, UNDER_REVIEW, "", None, concerns, queued, None, n)
    return FinalState(qid, NOT_REVIEWED)


def final_states(
    verdicts: Iterable[ReviewVerdict],
    decisions: Iterable[Decision],
    *,
    per_question: int | None = None,
    planned: Iterable[str] = (),
) -> dict[str, FinalState]:
    """The final state of every question that has a verdict, a decision or a place in
    the plan (any other question is ``not_reviewed``: :func:`state_of`).

    Args:
        per_question: the plan's K (``None``: no plan, two verdicts suffice).
        planned: the plan's questions.
    """
    verdicts = list(verdicts)
    grouped = submitted_by_question(verdicts)
    decided = {d.question_id: d for d in decisions}
    drafted = {v.question_id for v in verdicts}
    in_plan = set(planned)
    k = DEFAULT_K if per_question is None else per_question
    states = {}
    for qid in sorted(drafted | set(decided) | in_plan):
        submitted = grouped.get(qid, [])
        states[qid] = _state(qid, submitted, decided.get(qid), k, qid in in_plan, qid in drafted)
    return states


def state_of(states: Mapping[str, FinalState], question_id: str) -> FinalState:
    """``question_id``'s state in ``states`` (``not_reviewed`` when absent)."""
    return states.get(question_id) or FinalState(question_id, NOT_REVIEWED)


def read_verdicts_and_states(
    conn: Connection,
) -> tuple[list[ReviewVerdict], dict[str, FinalState]]:
    """Every verdict and every final state, read on ``conn`` (one transaction: the plan's
    header and questions, every verdict — read once — and every decision)."""
    from ai4hse_desk.review import writes as review_writes  # SQLAlchemy: only to read

    header = review_writes.read_plan_header(conn)
    planned = () if header is None else review_writes.plan_questions(conn, header.plan_id)
    verdicts = review_writes.read_verdicts(conn)
    states = final_states(
        verdicts,
        review_writes.read_decisions(conn),
        per_question=None if header is None else header.per_question,
        planned=planned,
    )
    return verdicts, states


def read_states(conn: Connection) -> dict[str, FinalState]:
    """Every final state, read on ``conn`` (:func:`read_verdicts_and_states`)."""
    return read_verdicts_and_states(conn)[1]


def read_question_state(conn: Connection, question_id: str) -> FinalState:
    """One question's final state, read on ``conn`` from its own rows only (indexed: the
    same as :func:`read_states` gives it, at a cost independent of the review's size)."""
    from ai4hse_desk.notes.schema import review_verdicts
    from ai4hse_desk.review import writes as review_writes  # SQLAlchemy: only to read

    header = review_writes.read_plan_header(conn)
    planned = header is not None and bool(
        review_writes.assigned_reviewers(conn, header.plan_id, question_id)
    )
    states = final_states(
        review_writes.read_verdicts(conn, review_verdicts.c.question_id == question_id),
        review_writes.read_decisions(conn, review_writes.decision_of(question_id)),
        per_question=None if header is None else header.per_question,
        planned=(question_id,) if planned else (),
    )
    return state_of(states, question_id)


def read_final_states(store: NotesStore) -> dict[str, FinalState]:
    """Every question's final state in ``store`` now (:func:`final_states`)."""
    return store.run(read_states)


@dataclass(frozen=True, slots=True)
class Exploration:
    """What the not-official sensitivity figures change: the questions left out and the
    keys replaced — the report's and the window's exploration alike."""

    excluded: frozenset[str]
    corrected_keys: dict[str, tuple[bool, ...]]

    @property
    def empty(self) -> bool:
        """True when the review has neither excluded a question nor corrected a key."""
        return not self.excluded and not self.corrected_keys


def exploration(states: Mapping[str, FinalState]) -> Exploration:
    """The excluded questions and the corrected keys of ``states`` (decisions only; a
    question under review or unresolved changes nothing)."""
    excluded = frozenset(qid for qid, s in states.items() if s.state == EXCLUDED)
    corrected = {qid: key_of(s.key) for qid, s in states.items() if s.state == CORRECTED and s.key}
    return Exploration(excluded, corrected)


def counts(states: Mapping[str, FinalState], questions: Iterable[str]) -> dict[str, int]:
    """How many of ``questions`` are in each final state (every state listed)."""
    tally = dict.fromkeys(FINAL_STATES, 0)
    for qid in questions:
        tally[state_of(states, qid).state] += 1
    return tally


__all__ = [
    "CONFIRMED",
    "CORRECTED",
    "EXCLUDED",
    "FINAL_STATES",
    "NOT_REVIEWED",
    "UNDER_REVIEW",
    "UNRESOLVED",
    "Exploration",
    "FinalState",
    "counts",
    "exploration",
    "final_states",
    "read_final_states",
    "read_question_state",
    "read_states",
    "read_verdicts_and_states",
    "state_of",
]
