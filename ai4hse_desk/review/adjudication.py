"""Adjudication: the final decision on a question, by someone who did not review it.

:class:`Adjudication` records decisions (every change a revision, nothing
overwritten) and lists the questions that need one. Its rules
(:func:`~.rules.decide`): the adjudicator is not one of the question's reviewers —
assigned by the plan or with a verdict on it, names compared as one person's —
and a reviewer cannot later give a verdict on a question they decided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import clean_note
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.rules import decide
from ai4hse_desk.review.status import adjudication_list
from ai4hse_desk.review.values import DECISIONS, KEY_CORRECTED, check_answer, choice

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sqlalchemy.engine import Connection

    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.records import Decision


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
            ReviewError: an unknown question or decision, ``key_corrected`` without a
                key (or a key with another decision), a key of the wrong length, or an
                adjudicator who is one of the question's reviewers.
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
        text = clean_note(note, required=False)

        return self._store.run(
            write=True,
            work=lambda c: decide(c, question_id, who, decision, corrected, text, self._sha),
        )

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
        """Questions needing adjudication, in corpus order."""
        return adjudication_list(self._book.all_verdicts(), self._book.corpus_order())
