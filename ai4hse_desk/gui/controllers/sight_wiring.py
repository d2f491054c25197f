"""Which parts of the window the :class:`~.sight.Sight` feeds: the blind rule's wiring.

The window (:mod:`ai4hse_desk.gui.main_window`) connects these with the rest of its
signals; they are listed here, in one place, so that a reader sees every view the
visibility policy reaches:

* the selected attempt goes to the panels, the compare grid and the notes only
  through the Sight's gate (a blind question's goes nowhere: the cover says why);
* when the policy changes, the key audit and a Review view on screen ask again (the
  attempt list and the sensitivity exploration listen to the Sight themselves);
* the cover's and the notes list's buttons lead to the Review view on the question
  (or to Notes ▸ Reviewer name… when the desk does not know who is reviewing);
* a verdict given back by Notes ▸ Undo is read again by the Review view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtCore import SignalInstance

    from ai4hse_desk.gui.controllers.compare import CompareController
    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.notes_changes import NoteChanges
    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.gui.controllers.views import ViewSwitcher
    from ai4hse_desk.gui.review.page import ReviewPage
    from ai4hse_desk.gui.views.attempts import AttemptsView
    from ai4hse_desk.gui.views.keyaudit import KeyAuditView
    from ai4hse_desk.gui.views.notes_list import NotesList

    Slots = tuple[Callable[..., object], ...]


def sight_connections(
    sight: Sight,
    attempts: AttemptsView,
    compare: CompareController,
    notes: NotesController,
    views: tuple[KeyAuditView, NotesList, ReviewPage, ViewSwitcher],
    changes: NoteChanges,
) -> tuple[tuple[SignalInstance, Slots], ...]:
    """(signal, slots) pairs that keep the blind rule in the window."""
    a, (keyaudit, notes_list, review, switcher) = attempts, views
    to_review: Slots = (review.show_question, lambda _q: switcher.show_review())
    return (
        (sight.detail_shown, (lambda _d: a.show_detail_pages(), a.question_panel.set_detail,
                              a.verdict_panel.set_detail, a.response_view.show_detail,
                              compare.show_detail, notes.show_detail,
                              lambda _d: a.keep_question_readable())),
        (sight.detail_hidden, (a.show_cover, lambda *_: compare.clear(),
                               lambda *_: notes.show_detail(None))),
        (sight.changed, (lambda: keyaudit.hide_questions(sight.blind_questions()),
                         review.refresh)),
        (changes.session.verdict_restored, (lambda _q: review.refresh(keep_input=False),)),
        (a.cover.review_requested, to_review),
        (notes_list.review_requested, to_review),
        (a.cover.name_requested, (changes.change_reviewer,)),
    )  # fmt: skip


__all__ = ["sight_connections"]
