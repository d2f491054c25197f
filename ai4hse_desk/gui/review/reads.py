"""The Review view's reads, as the window's ``"notes"`` lane runs them (no Qt here).

:func:`read_queue` reads the reviewer's queue and progress; :func:`read_page` one
question of it. The blind rule shapes what comes back: a question this reviewer
has not answered yet reads as a :class:`QuestionRead` without a :class:`Reveal`,
so nothing of the key, the responses, the flags or the other reviewers' verdicts
even reaches the GUI thread; the other reviewers' verdicts come only from
:meth:`~ai4hse_desk.review.book.ReviewBook.others_verdicts`, which refuses
them until the reviewer's own verdict is submitted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ai4hse_desk.errors import first_line
from ai4hse_desk.review.values import SUBMITTED

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.index import ListRow, ReviewIndex
    from ai4hse_desk.notes import Flag
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.records import ReviewVerdict


@dataclass(frozen=True)
class BlindQuestion:
    """What the view may show before the blind answer: the text and the option texts.

    Built from a :class:`~ai4hse_desk.audit.records.Question` without its key, so a
    view holding it cannot show the key by mistake.
    """

    question_id: str
    text: str
    options: tuple[str, ...]


def blind_question(question: Question) -> BlindQuestion:
    """``question`` without its key and labels."""
    options = tuple(option.text for option in question.options)
    return BlindQuestion(question.question_id, question.text, options)


def place_words(question_id: str, number: int, total: int) -> str:
    """``"Q007 · question 3 of 100 in your queue"``: the words of both Review pages, the
    window's and the server window's."""
    return f"{question_id} · question {number:,} of {total:,} in your queue"


@dataclass(frozen=True)
class ReviewQueue:
    """The reviewer's queue and what they recorded on it.

    Attributes:
        questions: the queue, in plan order (without a plan: every question, corpus order).
        planned: a review plan is in force.
        plan_reviewers: the plan's reviewers (empty without a plan).
        states: question → the reviewer's verdict state (``draft``/``submitted``), queue only.
    """

    reviewer: str | None
    questions: tuple[str, ...]
    planned: bool
    plan_reviewers: tuple[str, ...] = ()
    states: Mapping[str, str] = field(default_factory=dict)

    @property
    def submitted(self) -> int:
        return sum(state == SUBMITTED for state in self.states.values())

    @property
    def drafts(self) -> int:
        return sum(state != SUBMITTED for state in self.states.values())

    def progress_text(self) -> str:
        """``"37 of 50 submitted · 2 drafts"``."""
        drafts = self.drafts
        return (
            f"{self.submitted:,} of {len(self.questions):,} submitted · "
            f"{drafts:,} draft{'' if drafts == 1 else 's'}"
        )

    def empty_reason(self) -> str:
        """Why there is no question to show ("" when there is one)."""
        if self.planned and self.reviewer is None:
            return (
                "A review plan is in force: give your reviewer name (Reviewer name…) "
                "to see your queue."
            )
        if not self.questions:
            return (
                f"The review plan has no question for {self.reviewer} (its reviewers: "
                f"{', '.join(self.plan_reviewers)}). Change the name with Reviewer name…"
            )
        return ""

    def header(self, question_id: str) -> tuple[str, str, str]:
        """The view's header on ``question_id``: position, progress, what the queue is."""
        position = self.questions.index(question_id) + 1
        name = self.reviewer or "not given yet (asked when you record an answer)"
        where = (
            "your queue in the review plan"
            if self.planned
            else "no review plan: the queue is every question in corpus order"
        )
        return (
            place_words(question_id, position, len(self.questions)),
            self.progress_text(),
            f"Reviewer {name} · {where}",
        )

    def next_open(self, after: str | None) -> str | None:
        """The first question after ``after`` (wrapping round) not yet submitted, or ``None``.

        ``after`` itself comes last (it is the answer only when nothing else is open).
        """
        order = list(self.questions)
        if after in order:
            start = order.index(after) + 1
            order = order[start:] + order[:start]
        return next((q for q in order if self.states.get(q) != SUBMITTED), None)

    def previous(self, before: str) -> str | None:
        """The question before ``before`` in the queue, or ``None``."""
        order = list(self.questions)
        if before not in order or order.index(before) == 0:
            return None
        return order[order.index(before) - 1]


def read_queue(
    store: NotesStore | None, reviewer: str | None, corpus: Sequence[str]
) -> ReviewQueue:
    """``reviewer``'s queue (``None``: the name is not known yet; nothing recorded)."""
    from ai4hse_desk.review.book import ReviewBook

    plan = None if store is None else ReviewBook(store).plan()
    reviewers = () if plan is None else plan.plan.reviewers
    if store is None or not reviewer:
        return ReviewQueue(reviewer, tuple(corpus) if plan is None else (), plan is not None,
                           reviewers)  # fmt: skip
    progress = ReviewBook(store).progress(reviewer)  # {"queue": [ids], "states": {id: state}, …}
    questions = tuple(cast("list[str]", progress["queue"]))
    queued = set(questions)
    states = cast("dict[str, str]", progress["states"])
    mine = {qid: state for qid, state in states.items() if qid in queued}
    return ReviewQueue(reviewer, questions, plan is not None, reviewers, mine)


@dataclass(frozen=True)
class Reveal:
    """What the view shows once the reviewer answered blind (or skipped it).

    Attributes:
        rows: every attempt of the question (the compare grid's rows).
        flags: the question's flags as they stand now (other people's only once the
            reviewer's own verdict is submitted: the visibility policy).
        others: the other reviewers' submitted verdicts; ``None`` while the store
            refuses them (``withheld`` says why).
        final: where the review of the question stands (the adjudicator's decision),
            given with the other reviewers' verdicts only (``None`` while they are
            withheld: a decision would tell what they said).
    """

    rows: tuple[ListRow, ...]
    flags: tuple[Flag, ...]
    others: tuple[ReviewVerdict, ...] | None
    withheld: str = ""
    sealed_flags: int = 0  # other people's flags the policy hides still
    final: FinalState | None = None


@dataclass(frozen=True)
class QuestionRead:
    """One question of the queue as the reviewer may see it now (``reveal`` ``None``: blind)."""

    question_id: str
    own: ReviewVerdict | None
    reveal: Reveal | None


def read_page(
    store: NotesStore | None, index: ReviewIndex | None, question_id: str, reviewer: str | None
) -> QuestionRead:
    """Question ``question_id`` for ``reviewer``: blind until they have a verdict on it."""
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.rules import BlindRuleError  # SQLAlchemy, as the store has

    own = (
        None
        if store is None or not reviewer
        else ReviewBook(store).own_verdict(question_id, reviewer)
    )
    if store is None or reviewer is None or own is None:
        return QuestionRead(question_id, None, None)
    try:
        others: tuple[ReviewVerdict, ...] | None = tuple(
            ReviewBook(store).others_verdicts(question_id, reviewer)
        )
        withheld = ""
    except BlindRuleError as exc:
        others, withheld = None, first_line(exc)
    final = None
    if others is not None:
        from ai4hse_desk.review.final_state import read_question_state

        final = store.run(lambda conn: read_question_state(conn, question_id))
    rows = () if index is None else tuple(index.compare_grid(question_id))
    sight = ReviewBook(store).visibility(reviewer)  # others' flags once theirs is submitted
    every = store.flags(question_id=question_id)
    flags = tuple(f for f in every if sight.shows_item(f.question_id, f.reviewer))
    reveal = Reveal(rows, flags, others, withheld, len(every) - len(flags), final)
    return QuestionRead(question_id, own, reveal)


__all__ = [
    "BlindQuestion",
    "QuestionRead",
    "Reveal",
    "ReviewQueue",
    "blind_question",
    "place_words",
    "read_page",
    "read_queue",
]
