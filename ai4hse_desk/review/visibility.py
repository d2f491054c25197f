"""The one visibility policy: what the person at the desk may see of each question now.

Every view and export of the window asks a :class:`Visibility` (read by
:func:`read_visibility`) instead of deciding for itself. With a review plan in
force, for a reviewer of the plan:

* a question of their queue on which they have recorded nothing yet is **blind**:
  nothing that reveals or hints at the key may be shown — the key, the runs'
  selections and the statuses that follow from them (correct, incorrect), the
  compare grid, the key audit's evidence, scores explorations naming it, and
  everyone else's flags, notes and concerns on it. The Review view asks their
  blind answer first; recording it (or "not blind") lifts the blindness;
* the other people's flags, notes, verdicts and concerns on a question stay
  **sealed** until the reviewer has submitted their own verdict on it — on every
  question, in their queue or not (cli.md's blind rule).

Nobody else is limited: without a plan there is no queue (the Review view alone
asks the blind answer first), and a person who is not one of the plan's reviewers
— the coordinator, an adjudicator — sees everything. While a plan is in force and
the desk does not know who is at it, every planned question is blind and sealed.

Leaving blind mode is recording "not blind" on the blind questions
(:meth:`~.book.ReviewBook.leave_blind`), which the store keeps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.notes.people import person_key
from ai4hse_desk.review import writes as review_writes

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sqlalchemy.engine import Connection

#: What a view shows instead of what a blind question's reviewer may not see yet.
HIDDEN_TEXT: Final = "hidden until your blind answer"
#: What a view shows instead of other people's notes on a sealed question.
SEALED_TEXT: Final = "others' notes hidden until you submit your verdict"


@dataclass(frozen=True, slots=True)
class Visibility:
    """What one person may see now.

    Attributes:
        viewer: the person at the desk as the store spells them; ``None`` when unknown.
        planned: a review plan is in force.
        reviewer: the viewer is one of the plan's reviewers (or unknown under a plan).
        blind: questions nothing key-revealing of may be shown.
        opened: questions whose other people's notes the viewer may see (only
            meaningful when :attr:`reviewer`; everyone else sees every question's).
        planned_questions: how many questions the plan holds (for messages).
    """

    viewer: str | None
    planned: bool
    reviewer: bool
    blind: frozenset[str]
    opened: frozenset[str]
    planned_questions: int = 0

    @classmethod
    def everything(cls, viewer: str | None = None) -> Visibility:
        """No limit: no plan, or a person who is not one of its reviewers."""
        return cls(viewer, False, False, frozenset(), frozenset())

    @property
    def limited(self) -> bool:
        """True when anything at all is hidden from the viewer."""
        return self.reviewer

    def shows_key(self, question_id: str) -> bool:
        """May the key, the runs' selections and what follows from them be shown?"""
        return question_id not in self.blind

    def shows_others(self, question_id: str) -> bool:
        """May other people's flags, notes, verdicts and concerns on it be shown?"""
        return not self.reviewer or question_id in self.opened

    def shows_item(self, question_id: str, author: str) -> bool:
        """May a note by ``author`` on ``question_id`` be shown? The viewer's own always;
        another's per :meth:`shows_others` (and never on a blind question)."""
        mine = self.viewer is not None and person_key(author) == person_key(self.viewer)
        return (mine and self.shows_key(question_id)) or self.shows_others(question_id)

    def visible(self, question_ids: Iterable[str]) -> list[str]:
        """``question_ids`` whose key may be shown, in order."""
        return [qid for qid in question_ids if qid not in self.blind]


def read_visibility(conn: Connection, viewer: str | None) -> Visibility:
    """The policy for ``viewer`` (as the store spells them, or ``None``), read in one
    transaction: the plan's header, the viewer's queue and the states of their own
    verdicts — never anyone else's rows, so it costs the same however large the plan."""
    header = review_writes.read_plan_header(conn)
    if header is None:
        return Visibility.everything(viewer)
    if viewer is None:
        every = frozenset(review_writes.plan_questions(conn, header.plan_id))
        return Visibility(None, True, True, every, frozenset(), header.questions)
    me = person_key(viewer)
    spelled = next((name for name in header.reviewers if person_key(name) == me), None)
    if spelled is None:
        return Visibility.everything(viewer)
    queue = review_writes.queue_of(conn, header.plan_id, spelled)
    states = review_writes.read_states(conn, spelled)
    blind = frozenset(qid for qid in queue if qid not in states)
    opened = frozenset(qid for qid, state in states.items() if state == "submitted")
    return Visibility(spelled, True, True, blind, opened, header.questions)
