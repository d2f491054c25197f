"""Adjudication: the final decision on a question, by someone who did not review it.

:class:`Adjudication` records decisions (every change a revision, nothing
overwritten) and gives the adjudication queue (:mod:`.queue`). Its rules, checked in
the write's own transaction (cli.md, "Reviewer identity, adjudication queue, report
evidence"):

* the question entered adjudication (its submitted verdicts disagree, or one says
  ``key_wrong``) or already has a decision, which may be revised;
* ``key_corrected`` gives a key other than the official one;
* the adjudicator is not one of the question's reviewers — assigned by the plan or
  with a verdict on it, names compared as one person's — and a reviewer cannot
  later give a verdict on a question they decided (:func:`~.rules.decide`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import clean_note
from ai4hse_desk.notes.people import person_key
from ai4hse_desk.notes.schema import review_verdicts
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.queue import adjudication_queue, needs_adjudication
from ai4hse_desk.review.rules import decide, question_reviewers
from ai4hse_desk.review.status import adjudication_list
from ai4hse_desk.review.values import (
    CORRECTED_IS_OFFICIAL,
    DECISIONS,
    KEY_CORRECTED,
    check_answer,
    choice,
    corrects_to_the_official_key,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sqlalchemy.engine import Connection

    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.queue import QueueItem
    from ai4hse_desk.review.records import Decision, ReviewVerdict, StoredPlan


def check_in_queue(conn: Connection, question_id: str) -> None:
    """Refuse a decision on a question that never entered adjudication and has none.

    Raises:
        ReviewError: its submitted verdicts agree (or there are none) and nobody
            decided it yet.
    """
    verdicts = review_writes.read_verdicts(conn, review_verdicts.c.question_id == question_id)
    if needs_adjudication([v for v in verdicts if v.submitted]):
        return
    if review_writes.read_decisions(conn, review_writes.decision_of(question_id)):
        return
    raise ReviewError(
        f"{question_id} is not in the adjudication queue (its submitted verdicts agree, or "
        "there are none); nothing was recorded"
    )


class Adjudication:
    """The decisions on one audit file's questions."""

    def __init__(self, store: NotesStore) -> None:
        self._store = store
        self._book = ReviewBook(store)
        self._sha = store.audit_sha256

    def adjudicate(
        self,
        question_id: str,
        adjudicator: str,
        decision: str,
        *,
        key: Sequence[str] | None = None,
        note: str = "",
    ) -> Decision:
        """Record the final decision on ``question_id`` (revisions keep the history).

        Raises:
            ReviewError: an unknown question or decision, a question not in the
                queue (:func:`check_in_queue`), ``key_corrected`` without a key (or a
                key with another decision), a key of the wrong length or equal to the
                official key, or an adjudicator who is one of the question's reviewers.
        """
        question = self._book.question(question_id)
        who = self._book.person(adjudicator)
        choice(decision, DECISIONS, "decision")
        if decision == KEY_CORRECTED and key is None:
            raise ReviewError("key_corrected needs the corrected key (--key [TRUE, FALSE, ...])")
        if decision != KEY_CORRECTED and key is not None:
            raise ReviewError("--key is given only with key_corrected")
        corrected = (
            None
            if key is None
            else check_answer(key, question.n_options, unsure=False, what="the corrected key")
        )
        official = tuple(option.key for option in question.options)
        if corrects_to_the_official_key(decision, corrected, official):
            raise ReviewError(CORRECTED_IS_OFFICIAL)
        text = clean_note(note, required=False)

        def write(conn: Connection) -> Decision:
            if person_key(who) not in question_reviewers(conn, question_id):
                check_in_queue(conn, question_id)  # (a reviewer of it hears that first)
            return decide(conn, question_id, who, decision, corrected, text, self._sha)

        return self._store.run(write, write=True)

    def restore_decision(self, current: Decision, target: Decision) -> Decision:
        """Undo or redo a decision the window recorded: append one revision giving the
        decision ``target``'s values back, provided it still stands as ``current``; the
        adjudicator is ``current``'s (an undo is theirs).

        Raises:
            ReviewError: the decision changed since ``current`` (nothing is written).
        """
        if target.question_id != current.question_id:
            raise ReviewError("only a decision on the same question can be undone or redone")
        key, qid, who = target.corrected_key, current.question_id, current.adjudicator

        def write(conn: Connection) -> Decision:
            found = review_writes.read_decisions(conn, review_writes.decision_of(qid))
            if not found or found[0].at != current.at:
                raise ReviewError(
                    f"the decision on {qid} changed since (another window or process); "
                    "nothing was undone"
                )
            return decide(conn, qid, who, target.decision, key, target.note, self._sha)

        return self._store.run(write, write=True)

    def decisions(self) -> list[Decision]:
        """Every question's decision as it stands now."""
        return self._store.run(review_writes.read_decisions)

    def adjudication_list(self) -> list[str]:
        """Questions that entered adjudication (decided or not), in corpus order."""
        return adjudication_list(self._book.all_verdicts(), self._book.corpus_order())

    def queue(
        self, *, include_decided: bool = False, adjudicator: str | None = None
    ) -> list[QueueItem]:
        """The adjudication queue, in corpus order (:mod:`.queue`): the questions that
        need a decision (none yet, or ``unresolved``); with ``include_decided`` also the
        decided ones. With ``adjudicator``, only the questions that person may decide
        (not one of their reviewers, by plan or verdict).

        Everything is read in one transaction. The queue shows every submitted
        verdict: it is the coordinator's and the adjudicators' read; a window asks
        the visibility policy (:meth:`ReviewBook.visibility`) before showing it to a
        reviewer of the plan.
        """

        def read(
            conn: Connection,
        ) -> tuple[list[ReviewVerdict], list[Decision], StoredPlan | None]:
            return (
                review_writes.read_verdicts(conn),
                review_writes.read_decisions(conn),
                review_writes.read_plan(conn),
            )

        verdicts, decisions, plan = self._store.run(read)
        items = adjudication_queue(
            verdicts,
            decisions,
            self._store.audit.answer_keys(),
            self._book.corpus_order(),
            include_decided=include_decided,
        )
        if adjudicator is None:
            return items
        me = person_key(self._book.person(adjudicator))
        reviewed = {v.question_id for v in verdicts if person_key(v.reviewer) == me}
        if plan is not None:
            reviewed |= {
                qid
                for qid, who in plan.plan.assignments.items()
                if me in {person_key(n) for n in who}
            }
        return [item for item in items if item.question_id not in reviewed]
