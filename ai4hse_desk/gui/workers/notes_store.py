"""The notes store as the window's ``"notes"`` lane uses it: opened on first use, read whole.

Everything here runs on the lane's worker thread (the window's task runner
keeps the lane's tasks in order), never on the GUI thread.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.workers.task import failure_text
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import category_name

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from pathlib import Path
    from typing import TypeVar

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.notes import AttemptNote, Flag
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.final_state import Exploration, FinalState
    from ai4hse_desk.review.records import ReviewVerdict
    from ai4hse_desk.review.visibility import Visibility

    #: Something written on a question by someone: a flag, an attempt note, a verdict.
    _Item = TypeVar("_Item", Flag, AttemptNote, ReviewVerdict)

LANE = "notes"
#: How the sensitivity exploration's reason starts when it takes the review's decisions.
DECIDED = "the review's decisions, as in the review report"


def store_errors() -> tuple[type[BaseException], ...]:
    """What a store may raise: a reviewer's problem, a database refusing, a file system
    refusing. (SQLAlchemy is imported here, once a store is used: the window's start-up
    does not load it.)"""
    from sqlalchemy.exc import SQLAlchemyError

    return (ReviewError, SQLAlchemyError, OSError)


def store_problem(exc: BaseException) -> str:
    """The line a store's refusal is told in: the database's own first line."""
    return first_line(exc) if isinstance(exc, store_errors()) else failure_text(exc)


def default_store_path(audit: Path) -> Callable[[object], Path | None]:
    """What finds the default store's file for the audit file ``audit``, run on the lane
    (``None``: not a file; it may not exist yet); it raises :class:`ReviewError` when
    there is no usable place."""

    def find(_progress: object) -> Path | None:
        from ai4hse_desk.notes.location import resolve_location  # SQLAlchemy's URL

        return resolve_location(audit, None).path

    return find


def store_line(
    has_session: bool,
    unavailable: str | None,
    prepared: bool,
    store: NotesStore | None,
    store_path: Path | None,
) -> str:
    """The notes panel's line about where the notes are kept."""
    if not has_session:
        return "Open an audit database to see its reviewer notes."
    if unavailable is not None:
        return f"Reviewer notes unavailable (read-only): {unavailable}"
    if not prepared:
        return "Reviewer notes open once the review index is ready."
    if store is not None:
        return f"Notes kept in {store.location.path or store.url}"
    where = store_path or "the notes store"
    return f"No notes yet; the first flag or note creates {where}"


class StoreHolder:
    """The store of one audit file, opened on first use; used on the notes lane only."""

    def __init__(self, db: AuditDB) -> None:
        self.db = db
        self.store: NotesStore | None = None
        self.open_error: str | None = None  # why it could not be opened

    def opened(self) -> NotesStore:
        """The store, opened (created and migrated if need be) now if not yet open."""
        if self.store is None:
            from ai4hse_desk.notes.store import NotesStore  # SQLAlchemy, on the notes lane

            try:
                self.store = NotesStore.open(self.db)
            except store_errors() as exc:
                self.open_error = store_problem(exc)
                raise
        return self.store

    def close(self) -> None:
        """Release the store's connections (once the lane is idle)."""
        if self.store is not None:
            self.store.close()
            self.store = None


@dataclass(frozen=True)
class NotesSnapshot:
    """What one read of the store shows: the marks, the panel's items, the list — only
    what the visibility policy read with them lets the viewer see."""

    flagged: frozenset[str]
    flags: list[Flag]
    notes: list[AttemptNote]
    every_flag: list[Flag] | None  # for the notes list, when it is shown
    every_note: list[AttemptNote] | None
    #: The submitted review concerns (verdicts other than key_ok), for the notes list.
    every_concern: list[ReviewVerdict] | None = None
    #: The policy these were read under (``None``: no store yet, nothing limited).
    visibility: Visibility | None = None
    #: Question → how many flags, notes and concerns of others the policy hides on it.
    hidden: Mapping[str, int] = field(default_factory=dict)
    #: Each question's final state (for the notes list), of the questions whose key and
    #: others' verdicts the policy lets the viewer see (:func:`decided_in_sight`).
    states: Mapping[str, FinalState] | None = None


def read_snapshot(
    store: NotesStore | None,
    question_id: str | None,
    attempt_id: int | None,
    with_list: bool,
    viewer: str | None = None,
) -> NotesSnapshot:
    """Read what the window shows of ``store`` (``None``: no store yet, nothing to read) to
    ``viewer`` (the reviewer's name; ``None``: not known), with the policy in one go."""
    if store is None:
        return NotesSnapshot(
            frozenset(), [], [], [] if with_list else None, [] if with_list else None
        )
    from ai4hse_desk.review.book import ReviewBook  # SQLAlchemy, as the store has
    from ai4hse_desk.review.final_state import read_verdicts_and_states
    from ai4hse_desk.review.marks import standing

    book = ReviewBook(store)
    sight = book.visibility(viewer)
    verdicts, states = store.run(read_verdicts_and_states)  # the verdicts read once
    hidden: Counter[str] = Counter()

    def seen(items: Iterable[_Item]) -> list[_Item]:
        shown = []
        for item in items:
            if sight.shows_item(item.question_id, item.reviewer):
                shown.append(item)
            else:
                hidden[item.question_id] += 1
        return shown

    flags = seen(store.flags())
    concerns = seen(v for v in verdicts if v.concern)
    if with_list or attempt_id is not None:
        notes = seen(store.attempt_notes(attempt_id=None if with_list else attempt_id))
    else:
        notes = []
    flagged = {f.question_id for f in flags if f.state == "open"}
    # ⚑ on a concern while no decision settled it (.review.marks, as everywhere)
    kept = standing(states)
    return NotesSnapshot(
        frozenset(flagged | {v.question_id for v in concerns if v.question_id in kept}),
        [] if question_id is None else [f for f in flags if f.question_id == question_id],
        [] if attempt_id is None else [n for n in notes if n.attempt_id == attempt_id],
        flags if with_list else None,
        notes if with_list else None,
        concerns if with_list else None,
        sight,
        dict(hidden),
        {q: state for q, state in states.items() if decided_in_sight(sight, q)}
        if with_list
        else None,
    )


def decided_in_sight(sight: Visibility, question_id: str) -> bool:
    """May the review's outcome on ``question_id`` (its decision) be shown? Only where its
    key and other people's verdicts may (a decision tells both)."""
    return sight.shows_key(question_id) and sight.shows_others(question_id)


def sealed_line(question_id: str | None, hidden: Mapping[str, int]) -> str:
    """The flags panel's line on the shown question's items of others the policy hides."""
    count = 0 if question_id is None else hidden.get(question_id, 0)
    if not count:
        return ""
    from ai4hse_desk.review.visibility import SEALED_TEXT  # loaded: it hid them

    return f"{question_id}: {count} {SEALED_TEXT}"


def exploration_for(store: NotesStore, viewer: str | None) -> tuple[Exploration, bool]:
    """The review's decisions as the sensitivity exploration uses them — the excluded
    questions and the corrected keys (:func:`~ai4hse_desk.review.final_state.exploration`,
    the report's own) — but for the questions ``viewer`` may not see decided
    (:func:`decided_in_sight`); and whether ``viewer`` sees any settled decision at all
    (confirmed, corrected or excluded: then the exploration is the decisions', even empty)."""
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.final_state import Exploration, exploration, read_final_states

    sight = ReviewBook(store).visibility(viewer)
    states = {q: s for q, s in read_final_states(store).items() if decided_in_sight(sight, q)}
    found = exploration(states)
    decided = any(state.settled and state.basis == "decision" for state in states.values())
    return Exploration(found.excluded, found.corrected_keys), decided


def _named(ids: list[str], shown: int = 5) -> str:
    """`` (Q002, Q017 and 3 more)`` ("" for none)."""
    if not ids:
        return ""
    from ai4hse_desk.display.text_sanitize import display_text

    more = f" and {len(ids) - shown} more" if len(ids) > shown else ""
    return f" ({', '.join(display_text(qid) for qid in ids[:shown])}{more})"


def to_explore(
    store: NotesStore | None, viewer: str | None, category: str
) -> tuple[Exploration, str]:
    """What the sensitivity exploration takes, and why: the review's decisions
    (:func:`exploration_for`) once there are any, else the questions with an open
    ``category`` flag or standing concern (:func:`flagged_for`); nothing without a store."""
    from ai4hse_desk.display.format import plural
    from ai4hse_desk.review.final_state import Exploration

    if store is not None:
        found, decided = exploration_for(store, viewer)
        if decided:
            excluded, corrected = sorted(found.excluded), sorted(found.corrected_keys)
            return found, (
                f"{DECIDED}: "
                f"{plural(len(excluded), 'question')} excluded{_named(excluded)}, "
                f"{plural(len(corrected), 'corrected key')}{_named(corrected)}"
            )
    flagged = set() if store is None else flagged_for(store, viewer, category)
    named = category_name(category)
    reason = f"{plural(len(flagged), 'question')} with an open “{named}” flag (reviewer notes)"
    return Exploration(frozenset(flagged), {}), reason


def flagged_for(store: NotesStore, viewer: str | None, category: str) -> set[str]:
    """The questions marked ⚑ with ``category`` that ``viewer`` may see
    (:func:`~ai4hse_desk.review.marks.marked_questions`): what the sensitivity exploration
    leaves out before any decision, never a blind question."""
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.marks import marked_questions

    return marked_questions(store, ReviewBook(store).visibility(viewer), category=category)


__all__ = [
    "DECIDED",
    "LANE",
    "NotesSnapshot",
    "StoreHolder",
    "decided_in_sight",
    "default_store_path",
    "exploration_for",
    "flagged_for",
    "read_snapshot",
    "sealed_line",
    "store_errors",
    "store_line",
    "store_problem",
    "to_explore",
]
