"""The independent expert review of one audit file, kept in its notes store.

``ReviewBook(store)`` holds the plans, the verdicts and what a viewer may see
(:meth:`ReviewBook.visibility`); decisions are :mod:`.adjudication`'s. Every value is
checked against the audit file (the question exists, a list has one value per option)
before anything is written; a refused call writes nothing. The rules are kept in the
store's transactions (:mod:`.rules`), so that no client can break them:
:meth:`ReviewBook.others_verdicts` refuses a reviewer the other reviewers' verdicts on
a question until their own is submitted (and on a question outside their queue), a
blind answer is fixed once recorded, and an adjudicator never reviews. Names are one
person's (:mod:`ai4hse_desk.notes.people`). :meth:`ReviewBook.all_verdicts` is the
coordinator's read (status, report, exports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.audit import AuditError
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import clean_note, usable_text
from ai4hse_desk.notes.people import clean_reviewer, distinct_people, resolve_person
from ai4hse_desk.notes.schema import review_verdicts
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.effort import record_shown
from ai4hse_desk.review.operator import operator_name
from ai4hse_desk.review.plan import ORDERS, plan_review
from ai4hse_desk.review.records import dump_list, verdict_values
from ai4hse_desk.review.rules import (
    blind_draft,
    blind_fields,
    check_not_adjudicator,
    others_submitted,
)
from ai4hse_desk.review.status import review_status
from ai4hse_desk.review.values import (
    CONFIDENCES,
    DRAFT,
    KEY_WRONG,
    PROPOSED_IS_OFFICIAL,
    SUBMITTED,
    VERDICTS,
    check_answer,
    check_seed,
    choice,
    clean_source,
    proposes_the_official_key,
)
from ai4hse_desk.review.visibility import Visibility, read_visibility

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from sqlalchemy.engine import Connection

    from ai4hse_desk.audit import Question
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.records import Decision, PlanHeader, ReviewVerdict, StoredPlan

_V = review_verdicts


class ReviewBook:
    """Plans, verdicts and decisions of one audit file's review."""

    def __init__(self, store: NotesStore) -> None:
        self._store = store
        self._audit = store.audit
        self._sha = store.audit_sha256

    @property
    def store(self) -> NotesStore:
        """The notes store this review is kept in."""
        return self._store

    # -- checks ---------------------------------------------------------------------

    def question(self, question_id: object) -> Question:
        """The audit file's question ``question_id``, else :class:`ReviewError`."""
        if not isinstance(question_id, str) or not usable_text(question_id):
            raise ReviewError(f"unknown question: {question_id!r}")
        try:
            return self._audit.question(question_id)
        except AuditError:
            raise ReviewError(f"unknown question: {question_id}") from None

    def _planned_reviewer(self, name: object) -> str:
        """``name`` as the store spells that person; when a plan exists it must be one of
        the plan's reviewers (one row read, however large the plan)."""
        who = clean_reviewer(name)
        header = self._store.run(review_writes.read_plan_header)
        if header is None:
            return self.person(who)
        spelled = resolve_person(who, header.reviewers)
        if spelled not in header.reviewers:
            known = ", ".join(header.reviewers)
            raise ReviewError(f"unknown reviewer: {who} (the plan's reviewers are {known})")
        return spelled

    def person(self, name: object) -> str:
        """``name`` cleaned, as the review already spells that person (one person, one
        name: :func:`~ai4hse_desk.notes.people.resolve_person`).

        Raises:
            ReviewError: not a usable name (a control, bidi or zero-width character …).
        """
        who = clean_reviewer(name)
        return resolve_person(who, self._store.run(review_writes.known_people))

    # -- the plan -------------------------------------------------------------------

    def make_plan(
        self,
        *,
        reviewers: Sequence[str],
        per_question: int,
        order: str = "corpus",
        seed: int | None = None,
        questions: Sequence[str] | None = None,
        ranking: Sequence[str] | None = None,
        replace: bool = False,
        created_by: str = "",
    ) -> StoredPlan:
        """Assign each selected question (default all) to ``per_question`` reviewers.

        Raises:
            ReviewError: a bad reviewer name, K out of range, an unknown question or
                order, or a plan already exists and ``replace`` is False.
        """
        names = distinct_people(reviewers)
        check_seed(seed)
        if order not in ORDERS:
            raise ReviewError(f"unknown plan order {order!r} (one of {', '.join(ORDERS)})")
        corpus = [q.question_id for q in self._audit.questions()]
        selected = corpus if questions is None else list(questions)
        for qid in selected:
            self.question(qid)
        plan = plan_review(selected, names, per_question, order=order, seed=seed, ranking=ranking)
        author = self.person(created_by) if created_by.strip() else operator_name()
        stored = self._store.run(
            write=True,
            work=lambda c: review_writes.write_plan(c, plan, author, self._sha, replace=replace),
        )
        if stored is None:
            raise ReviewError("a review plan already exists; --replace makes a new one")
        return stored

    def plan(self) -> StoredPlan | None:
        """The plan in force, or ``None``."""
        return self._store.run(review_writes.read_plan)

    def plan_header(self) -> PlanHeader | None:
        """The plan in force without its assignments (one row), or ``None``."""
        return self._store.run(review_writes.read_plan_header)

    def queue(self, reviewer: str) -> list[str]:
        """``reviewer``'s questions in plan order (empty without a plan)."""
        who = clean_reviewer(reviewer)

        def read(conn: Connection) -> list[str]:
            header = review_writes.read_plan_header(conn)
            if header is None:
                return []
            return review_writes.queue_of(
                conn, header.plan_id, resolve_person(who, header.reviewers)
            )

        return self._store.run(read)

    # -- what the person at the desk may see -----------------------------------------

    def visibility(self, viewer: str | None) -> Visibility:
        """The visibility policy for ``viewer`` (``None``: not known yet), now."""
        who = None if viewer is None else clean_reviewer(viewer)
        return self._store.run(lambda c: read_visibility(c, who))

    def leave_blind(self, viewer: str) -> int:
        """Record "not blind" on every question of ``viewer``'s queue they have recorded
        nothing on yet (the store keeps it: these questions' blind answers are given up
        for good); the number of questions. Nothing is written when there are none."""
        who = self._planned_reviewer(viewer)
        blind = sorted(self.visibility(who).blind)

        def write(conn: Connection) -> int:
            for question_id in blind:
                check_not_adjudicator(conn, question_id, who)
                review_writes.change_verdict(
                    conn, question_id, who, self._sha, lambda old: blind_draft(old, None, who)
                )
            return len(blind)

        return self._store.run(write, write=True) if blind else 0

    # -- verdicts -------------------------------------------------------------------

    def record_blind(
        self, question_id: str, reviewer: str, answer: Sequence[str] | None
    ) -> ReviewVerdict:
        """Record the blind answer (``None``: "skip blind", recorded as not blind) as a
        draft without a verdict; after this the key may be shown.

        Raises:
            BlindRuleError: the reviewer already has a verdict on this question.
        """
        question = self.question(question_id)
        who = self._planned_reviewer(reviewer)
        blind = (
            None
            if answer is None
            else check_answer(answer, question.n_options, unsure=True, what="the blind answer")
        )

        return self._change(question_id, who, lambda old: blind_draft(old, blind, who))

    def save_verdict(
        self,
        question_id: str,
        reviewer: str,
        *,
        verdict: str | None,
        blind_answer: Sequence[str] | None = None,
        not_blind: bool = False,
        proposed_key: Sequence[str] | None = None,
        confidence: str | None = None,
        source: str = "",
        note: str = "",
        submit: bool = True,
    ) -> ReviewVerdict:
        """Record or revise ``reviewer``'s verdict on ``question_id`` (cli.md ``review verdict``).

        A new verdict needs ``blind_answer`` or ``not_blind``. On an existing one a
        ``blind_answer`` must equal the one recorded (it is never changed, nor added
        to a verdict recorded as not blind); ``not_blind`` keeps what was recorded.

        Raises:
            ReviewError: an unknown question, reviewer, verdict or confidence; a list of
                the wrong length; ``key_wrong`` without a proposed key, or proposing
                the official key.
            BlindRuleError: a blind answer after the reveal.
        """
        question = self.question(question_id)
        who = self._planned_reviewer(reviewer)
        n = question.n_options
        blind = (
            None
            if blind_answer is None
            else check_answer(blind_answer, n, unsure=True, what="the blind answer")
        )
        key = (
            None
            if proposed_key is None
            else check_answer(proposed_key, n, unsure=False, what="the proposed key")
        )
        choice(verdict, VERDICTS, "verdict")
        choice(confidence, CONFIDENCES, "confidence")
        if verdict == KEY_WRONG and key is None:
            raise ReviewError("key_wrong needs a proposed key (--proposed-key [TRUE, FALSE, ...])")
        if proposes_the_official_key(verdict, key, question.key):
            raise ReviewError(PROPOSED_IS_OFFICIAL)
        if submit and verdict is None:
            raise ReviewError("a verdict is needed to submit")
        values = {
            "verdict": verdict,
            "proposed_key": dump_list(key),
            "confidence": confidence,
            "source": clean_source(source),
            "note": clean_note(note, required=False),
            "state": SUBMITTED if submit else DRAFT,
        }

        def update(old: ReviewVerdict | None) -> dict[str, object]:
            return {**blind_fields(old, blind, not_blind, question_id, who), **values}

        return self._change(question_id, who, update)

    def _change(
        self,
        question_id: str,
        who: str,
        update: Callable[[ReviewVerdict | None], dict[str, object]],
    ) -> ReviewVerdict:
        def write(conn: Connection) -> ReviewVerdict:
            check_not_adjudicator(conn, question_id, who)
            return review_writes.change_verdict(conn, question_id, who, self._sha, update)

        return self._store.run(write, write=True)

    def restore_verdict(
        self, current: ReviewVerdict, target: ReviewVerdict, *, action: str
    ) -> ReviewVerdict:
        """Undo or redo (``action``) a change the window made: append one revision giving
        the verdict ``target``'s values back, provided it still stands as ``current``.

        The blind answer is never part of it (it is fixed); the first revision — the
        blind answer itself — cannot be undone.

        Raises:
            ReviewError: the verdict changed since ``current`` (nothing is written), or
                ``target`` is another verdict.
        """
        if action not in ("undo", "redo") or target.verdict_id != current.verdict_id:
            raise ReviewError("only a change of the same verdict can be undone or redone")
        values = {field: value for field, value in verdict_values(target).items()
                  if field not in ("blind", "blind_answer", "blind_at")}  # fmt: skip

        def update(old: ReviewVerdict | None) -> dict[str, object]:
            if old is None or old.updated_at != current.updated_at:
                raise ReviewError(
                    f"{current.reviewer}'s verdict on {current.question_id} changed since "
                    "(another window or process); nothing was undone"
                )
            return {**blind_fields(old, None, True, old.question_id, old.reviewer), **values}

        who, question_id = current.reviewer, current.question_id

        def write(conn: Connection) -> ReviewVerdict:
            return review_writes.change_verdict(
                conn, question_id, who, self._sha, update, action=action
            )

        return self._store.run(write, write=True)

    def own_verdict(self, question_id: str, reviewer: str) -> ReviewVerdict | None:
        """``reviewer``'s own verdict on ``question_id`` (any state), or ``None``."""
        who = self.person(reviewer)
        found = self._store.run(
            lambda c: review_writes.read_verdicts(
                c, _V.c.question_id == question_id, _V.c.reviewer == who
            ),
        )
        return found[0] if found else None

    def own_verdicts(self, reviewer: str) -> list[ReviewVerdict]:
        """Every verdict of ``reviewer`` (their progress; never anyone else's)."""
        who = self.person(reviewer)
        return self._store.run(lambda c: review_writes.read_verdicts(c, _V.c.reviewer == who))

    def progress(self, reviewer: str) -> dict[str, object]:
        """``reviewer``'s queue and where they are in it: ``{"queue": [question ids],
        "states": {question id: "draft" | "submitted"}, "assigned", "submitted",
        "drafts"}`` (without a plan the queue is every question, corpus order)."""
        who = self.person(reviewer)

        def read(conn: Connection) -> tuple[list[str] | None, dict[str, str]]:
            header = review_writes.read_plan_header(conn)
            queue = None if header is None else review_writes.queue_of(conn, header.plan_id, who)
            return queue, review_writes.read_states(conn, who)

        planned, states = self._store.run(read)
        queue = self.corpus_order() if planned is None else planned
        mine = [states[qid] for qid in queue if qid in states]
        return {
            "queue": queue,
            "states": states,
            "assigned": len(queue),
            "submitted": mine.count(SUBMITTED),
            "drafts": mine.count(DRAFT),
        }

    def others_verdicts(self, question_id: str, viewer: str) -> list[ReviewVerdict]:
        """The other reviewers' *submitted* verdicts on ``question_id``, for ``viewer``.

        Raises:
            BlindRuleError: ``viewer`` has not submitted their own verdict on it, or
                (with a plan) the question is not in their queue.
        """
        who = self.person(viewer)
        return self._store.run(lambda c: others_submitted(c, question_id, who))

    def all_verdicts(self) -> list[ReviewVerdict]:
        """Every verdict (the coordinator's read: status, report, exports)."""
        return self._store.run(review_writes.read_verdicts)

    # -- summaries ------------------------------------------------------------------

    def corpus_order(self) -> list[str]:
        """Every question id of the audit file, in corpus order."""
        return [q.question_id for q in self._audit.questions()]

    def snapshot(self) -> tuple[StoredPlan | None, list[ReviewVerdict], list[Decision]]:
        """The plan, every verdict and every decision, read in one transaction."""
        return self._store.run(
            lambda c: (
                review_writes.read_plan(c),
                review_writes.read_verdicts(c),
                review_writes.read_decisions(c),
            ),
        )

    def status(
        self,
        snapshot: tuple[StoredPlan | None, list[ReviewVerdict], list[Decision]] | None = None,
    ) -> dict[str, object]:
        """cli.md's ``review status`` object (with ``audit``), of ``snapshot`` if given
        (one already read), else of the store now."""
        plan, verdicts, decisions = self.snapshot() if snapshot is None else snapshot
        body = review_status(plan, verdicts, decisions, self.corpus_order())
        audit = {"path": str(self._audit.path), "sha256": self._sha}
        return {"audit": audit, **body}

    def record_shown(self, question_id: str, reviewer: str) -> bool:
        """Record that ``question_id`` is shown to ``reviewer`` now: the start of their
        active time on it (:mod:`.effort`). The Review page is to call it each time it shows a
        question of the reviewer's queue. Nothing is written (False) once their verdict
        on it is submitted.

        Raises:
            ReviewError: an unknown question, or (with a plan) not one of its reviewers.
        """
        self.question(question_id)
        who = self._planned_reviewer(reviewer)
        work = lambda c: record_shown(c, question_id, who, self._sha)  # noqa: E731
        return self._store.run(work, write=True, announce=False)  # (no window shows it)
