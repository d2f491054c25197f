"""What the person at the desk may see now: the window's one holder of the visibility policy.

The rule is the core's (:mod:`ai4hse_desk.review.visibility`): a question of the
reviewer's queue they have recorded nothing on yet is *blind* (nothing that reveals
its key may show), and other people's notes on a question stay *sealed* until the
reviewer has submitted their own verdict on it. :class:`Sight` holds the current
:class:`~ai4hse_desk.review.visibility.Visibility` — read with every read of the notes
store (:mod:`ai4hse_desk.gui.workers.notes_store`), so it follows the store, the
reviewer's name and every verdict or plan recorded — and every view and model asks
it, never deciding on its own:

* the attempt list masks the cells that tell correctness, and leaves blind questions
  out of a listing filtered or sorted by it (:meth:`Sight.blind_questions`);
* the selected attempt's panels and the compare grid get the attempt only when its
  question's key may show (:attr:`Sight.detail_shown`); else the window shows a cover
  saying why (:attr:`Sight.detail_hidden`) with a way to the Review view;
* the key audit and the sensitivity exploration leave blind questions out.

Until the notes store of a file just opened has been read, the policy is not known:
every question counts as blind (:attr:`Sight.pending`), so nothing of a key flashes on
screen before the store says whether a plan is in force. Qt-only imports here: the
policy's module (SQLAlchemy) is loaded on the notes lane, never for the first rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.review.visibility import Visibility
    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail

#: A list cell whose value would tell the key of a blind question.
HIDDEN_CELL: Final = "hidden"
PENDING_TEXT: Final = "Reading the review plan of this file…"
NO_NAME: Final = (
    "A review plan is in force and the desk does not know your reviewer name, so every "
    "planned question is hidden: give your name (Notes ▸ Reviewer name…)."
)


def blind_text(question_id: str) -> str:
    """What a blind question's cover and masked cells say: what is hidden, until when."""
    return (
        f"The key of {question_id}, its runs' selections and responses, the compare grid, the "
        "key-audit evidence and other people's notes on it show once you have recorded your "
        "blind answer in the Review view (or left blind mode: Review ▸ Leave blind mode…)."
    )


class Sight(QObject):
    """The current visibility policy, and the gate of the selected attempt's detail.

    Signals:
        changed: the policy changed (or became known); views ask again.
        detail_shown: an :class:`AttemptDetail` whose question may be shown whole.
        detail_hidden: (question id, why) for the selected attempt of a blind question.
    """

    changed = Signal()
    detail_shown = Signal(object)
    detail_hidden = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._questions: frozenset[str] = frozenset()
        self._visibility: Visibility | None = None  # None: no limit (no store, no plan)
        self._pending = False
        self._detail: AttemptDetail | None = None
        self._gated: str | None = None  # what the detail got: "" shown, else why hidden

    # -- what is known -------------------------------------------------------------------

    @property
    def pending(self) -> bool:
        """The open file's notes store has not been read yet: every question is hidden."""
        return self._pending

    @property
    def visibility(self) -> Visibility | None:
        """The policy as last read (``None``: nothing limits the viewer)."""
        return self._visibility

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none): hidden until its notes store has been read."""
        self._questions = frozenset() if session is None else frozenset(session.questions)
        self._visibility = None
        self._pending = session is not None
        self._detail, self._gated = None, None
        self.changed.emit()

    def take(self, visibility: Visibility | None) -> None:
        """The policy read with the notes store (``None``: no store, or no limit)."""
        if visibility is not None and not visibility.limited:
            visibility = None
        if not self._pending and visibility == self._visibility:
            return
        self._visibility, self._pending = visibility, False
        self.changed.emit()
        self._gate()

    # -- what views ask ------------------------------------------------------------------

    def shows_key(self, question_id: str) -> bool:
        """May ``question_id``'s key, its runs' selections and their statuses be shown?"""
        if self._pending:
            return False
        return self._visibility is None or self._visibility.shows_key(question_id)

    def blind_questions(self) -> frozenset[str]:
        """The questions whose key may not be shown (every one while pending)."""
        if self._pending:
            return self._questions
        return frozenset() if self._visibility is None else self._visibility.blind

    def hidden_reason(self, question_id: str) -> str:
        """Why ``question_id`` is hidden ("" when it is not)."""
        if self.shows_key(question_id):
            return ""
        if self._pending:
            return PENDING_TEXT
        if self._visibility is not None and self._visibility.viewer is None:
            return NO_NAME
        return blind_text(question_id)

    # -- the selected attempt ------------------------------------------------------------

    def show_detail(self, detail: AttemptDetail) -> None:
        """The selected attempt changed: hand it on, or hide it."""
        self._detail, self._gated = detail, None
        self._gate()

    def clear_detail(self) -> None:
        """Nothing is selected."""
        self._detail, self._gated = None, None

    def _gate(self) -> None:
        detail = self._detail
        if detail is None:
            return
        why = self.hidden_reason(detail.question_id)
        if why == self._gated:
            return  # the same answer as before: the panels hold what they should
        self._gated = why
        if why:
            self.detail_hidden.emit(detail.question_id, why)
        else:
            self.detail_shown.emit(detail)


__all__ = ["HIDDEN_CELL", "NO_NAME", "PENDING_TEXT", "Sight", "blind_text"]
