"""A review panel's work on the demo database, for the adjudication and final-state tests.

Ann and bob review (no plan: every question is everyone's), cy adjudicates. What they
submitted (the demo's keys: Q001 A C, Q002 B C D, Q004 C D):

* Q001 — ann ``key_ok``; bob ``key_wrong``, proposing A only (a note with markup);
* Q002 — both ``key_wrong``, proposing different keys (B C and B D);
* Q003 — both ``key_ok`` (never in the adjudication queue);
* Q004 — ann ``unclear_question``, bob ``key_ok``.

Everything is written through the store's own API on a second connection, as another
desk would.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.controllers.reviewer import SETTINGS_KEY
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.settings import app_settings
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.values import FALSE, TRUE
from tests.gui.gui_fixtures import HOSTILE

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.review.records import Decision

T = TypeVar("T")
T_, F_ = TRUE, FALSE
BOB_NOTE = f"bob's reason {HOSTILE}"
#: The official keys of the questions the panel reviewed.
KEYS = {
    "Q001": (T_, F_, T_, F_),
    "Q002": (F_, T_, T_, T_),
    "Q003": (T_, F_, T_, F_),
    "Q004": (F_, F_, T_, T_),
}
#: (question, reviewer, verdict, proposed key, note) of one submitted verdict.
Verdict = tuple[str, str, str, "tuple[str, ...] | None", str]
VERDICTS: tuple[Verdict, ...] = (
    ("Q001", "ann", "key_ok", None, ""),
    ("Q001", "bob", "key_wrong", (T_, F_, F_, F_), BOB_NOTE),
    ("Q002", "ann", "key_wrong", (F_, T_, T_, F_), "D is wrong"),
    ("Q002", "bob", "key_wrong", (F_, T_, F_, T_), "C is wrong"),
    ("Q003", "ann", "key_ok", None, ""),
    ("Q003", "bob", "key_ok", None, ""),
    ("Q004", "ann", "unclear_question", None, "which regulation?"),
    ("Q004", "bob", "key_ok", None, ""),
)


def copy_demo(pristine: Path, tmp_path: Path) -> Path:
    """A private copy of the demo database, whose notes store starts empty."""
    folder = tmp_path / "audit"
    folder.mkdir()
    return Path(shutil.copyfile(pristine, folder / "audit.sqlite"))


def in_store(audit: Path, work: Callable[[NotesStore], T]) -> T:
    """Run ``work(store)`` on a second connection to the audit's notes store."""
    with open_audit(audit) as db:
        store = NotesStore.open(db)
        try:
            return work(store)
        finally:
            store.close()


def submit(audit: Path, verdicts: Sequence[Verdict]) -> None:
    """Submit ``verdicts`` (their blind answers: the proposed key, else the official key)."""

    def work(store: NotesStore) -> None:
        book = ReviewBook(store)
        for qid, who, verdict, proposed, note in verdicts:
            book.save_verdict(
                qid, who, verdict=verdict, blind_answer=list(proposed or KEYS[qid]),
                proposed_key=None if proposed is None else list(proposed), confidence="high",
                source="ISO 45001", note=note,
            )  # fmt: skip

    in_store(audit, work)


def decisions(audit: Path) -> dict[str, Decision]:
    """Every question's decision in the store now."""
    return {d.question_id: d for d in in_store(audit, lambda s: Adjudication(s).decisions())}


def name_the_desk(name: str) -> None:
    """The name the next window reviews (and adjudicates) under."""
    settings = app_settings()
    settings.setValue(SETTINGS_KEY, name)
    settings.sync()


def open_window(qtbot: QtBot, audit: Path, name: str | None) -> MainWindow:
    """A window at 1366×768 on ``audit``, the desk named ``name``."""
    if name is not None:
        name_the_desk(name)
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    assert win.open_path(audit, wait=True)
    settle(win)
    return win


def settle(win: MainWindow) -> None:
    """Let every background read and write of the window deliver."""
    assert win.tasks.wait_idle()


__all__ = [
    "BOB_NOTE",
    "KEYS",
    "VERDICTS",
    "copy_demo",
    "decisions",
    "in_store",
    "name_the_desk",
    "open_window",
    "settle",
    "submit",
]
