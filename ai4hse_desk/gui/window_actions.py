"""Every menu entry and shortcut of the main window, in one table.

The keys J/K (next and previous attempt), N/P (question), E (parse error),
``/`` and Ctrl+F (search), Esc (clear), Ctrl+1…5 (views) and the Notes menu are
all here; :class:`~ai4hse_desk.gui.actions.ActionRegistry` turns the table into
menus. Handlers are the controllers' methods; the window passes them in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.gui.actions import ActionRegistry, ActionSpec, Entry, Placed, SubMenu

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from PySide6.QtGui import QAction

    from ai4hse_desk.gui.controllers.attempt_list import AttemptList
    from ai4hse_desk.gui.controllers.navigation import Navigator
    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.notes_changes import NoteChanges
    from ai4hse_desk.gui.controllers.opening import OpeningController
    from ai4hse_desk.gui.controllers.views import ViewSwitcher
    from ai4hse_desk.gui.panels.filters import FilterPanel
    from ai4hse_desk.gui.widgets.search_bar import SearchBar

MENUS = ("&File", "&Navigate", "&View", "&Notes", "Re&view", "&Help")
RECENT = "&File/Open &recent"
SCORES_EXPORTS = "&View/Scores &exports"
#: The scores view's toolbar actions offered in View ▸ Scores exports, in order.
SCORES_MENU = ("csv", "xlsx", "png", "svg", "html", "private", "recompute")
EXPLORE_TIP = (
    "Scores ▸ Sensitivity: the metrics with the review's decisions, as the review report "
    "has them (excluded questions left out, corrected keys applied) — before any decision, "
    "without the questions that have an open key_incorrect flag — beside the official ones "
    "(which never change)"
)

ADJUDICATE_TIP = (
    "The questions whose reviewers disagree, with every verdict side by side and the "
    "evidence; record the final decision (never on a question you review yourself)"
)
REVIEW_TIP = (
    "One question of your review queue at a time: answer it blind (1–9, 0, Enter), "
    "then see the key and the evidence and submit your verdict (Ctrl+Enter)"
)


class WindowParts(NamedTuple):
    """What the window's actions act on."""

    opening: OpeningController
    navigator: Navigator
    attempt_list: AttemptList
    switcher: ViewSwitcher
    changes: NoteChanges
    search: SearchBar
    filters: FilterPanel
    filters_toggle: QAction
    notes_toggle: QAction
    scores_actions: Mapping[str, QAction]
    quit: Callable[[], object]
    about: Callable[[], object]
    review_report: Callable[[], object]
    notes_export: Callable[[], object]
    leave_blind: Callable[[], object]
    plan: Callable[[], object]
    adjudicate: Callable[[], object]


def window_actions(p: WindowParts) -> tuple[Entry, ...]:
    """The main window's menus, in order."""
    from PySide6.QtGui import QKeySequence

    nav, view, notes = "&Navigate", "&View", "&Notes"
    n, c = p.navigator, p.changes
    return (
        ActionSpec("open", "&File", "&Open audit database…", p.opening.choose_file,
                   (QKeySequence.StandardKey.Open,)),
        SubMenu(RECENT),
        ActionSpec("quit", "&File", "&Quit", p.quit, (QKeySequence.StandardKey.Quit,),
                   separator=True),
        ActionSpec("next_attempt", nav, "Next attempt", lambda: n.move_row(1), ("J", "Down")),
        ActionSpec("previous_attempt", nav, "Previous attempt", lambda: n.move_row(-1),
                   ("K", "Up")),
        ActionSpec("next_question", nav, "Next question", lambda: n.move_question(1), ("N",)),
        ActionSpec("previous_question", nav, "Previous question", lambda: n.move_question(-1),
                   ("P",)),
        ActionSpec("next_parse_error", nav, "Next parse error", n.next_parse_error, ("E",)),
        ActionSpec("go_to", nav, "&Go to…", lambda: p.attempt_list.ask_go_to(n.select_row),
                   ("Ctrl+G",), tip="A question id (Q060), an attempt id (#123) or a row"),
        ActionSpec("search", nav, "Search", p.search.focus, ("/", QKeySequence.StandardKey.Find),
                   separator=True),
        ActionSpec("clear", nav, "Clear search and filters", p.attempt_list.clear_all, ("Esc",)),
        ActionSpec("parse_errors", view, "Show all parse errors", p.filters.show_parse_errors,
                   ("Ctrl+E",)),
        ActionSpec("attempt_tab", view, "Attempt side by side", p.switcher.show_attempt_tab,
                   ("Ctrl+1",)),
        ActionSpec("compare", view, "Compare runs × repetitions", p.switcher.show_compare,
                   ("Ctrl+2",)),
        ActionSpec("scores", view, "Scores dashboard", p.switcher.show_scores, ("Ctrl+3",)),
        ActionSpec("keyaudit", view, "Key audit", p.switcher.show_keyaudit, ("Ctrl+4",)),
        ActionSpec("review", view, "Review, blind first", p.switcher.show_review, ("Ctrl+5",),
                   tip=REVIEW_TIP),
        Placed("filters_dock", view, p.filters_toggle),
        SubMenu(SCORES_EXPORTS),
        *(Placed("", SCORES_EXPORTS, p.scores_actions[key]) for key in SCORES_MENU),
        ActionSpec("flagged_only", view, "Flagged questions only", p.attempt_list.set_flagged_only,
                   ("Ctrl+Shift+G",), checkable=True,
                   tip="Only attempts of questions with an open flag"),
        ActionSpec("add_flag", notes, "Add &flag to this question…", lambda: c.add_flag(),
                   ("Ctrl+Shift+F",)),
        ActionSpec("add_note", notes, "Add &note on this attempt…", c.add_note,
                   ("Ctrl+Shift+N",)),
        ActionSpec("undo", notes, "&Undo last change", c.undo, ("Ctrl+Z",), separator=True,
                   tip="Flags, notes and verdicts: one more revision gives the old values back"),
        ActionSpec("redo", notes, "&Redo last undone change", c.redo, ("Ctrl+Shift+Z",)),
        Placed("notes_list", notes, p.notes_toggle, "Show notes &list", ("Ctrl+Shift+L",),
               separator=True),
        ActionSpec("notes_export", notes, "&Export notes (CSV, JSON, XLSX)…", p.notes_export,
                   ("Ctrl+Shift+E",), tip="Flags, attempt notes and review verdicts; private "
                   "text only if you say so"),
        ActionSpec("reviewer", notes, "&Reviewer name…", c.change_reviewer),
        ActionSpec("explore", notes,
                   "Explore scores without key-flagged questions (not official)…", c.explore,
                   tip=EXPLORE_TIP, separator=True),
        ActionSpec("review_queue", "Re&view", "Review, &blind first", p.switcher.show_review),
        ActionSpec("adjudicate", "Re&view", "&Adjudicate…", p.adjudicate, ("Ctrl+6",),
                   tip=ADJUDICATE_TIP),
        ActionSpec("leave_blind", "Re&view", "&Leave blind mode…", p.leave_blind,
                   tip="Record \"not blind\" on the questions of your queue not answered yet "
                   "(asks first): their keys show, their blind answers are given up for good"),
        ActionSpec("plan", "Re&view", "&Plan…", p.plan, separator=True,
                   tip="Assign every question to K reviewers (you are recorded as its maker)"),
        ActionSpec("review_report", "Re&view", "&Report…", p.review_report,
                   tip="The review report (printable HTML or JSON): progress, agreement, "
                   "decisions and the sensitivity table, which is not official"),
        ActionSpec("about", "&Help", "&About AI4HSE Desk", p.about),
    )  # fmt: skip


def keep_in_step(
    actions: ActionRegistry, attempt_list: AttemptList, notes: NotesController
) -> None:
    """The actions whose state follows a controller: the flagged-only toggle, the notes'."""
    attempt_list.flagged_only_changed.connect(actions["flagged_only"].setChecked)

    def notes_available(flag: bool, note: bool, undo: bool) -> None:
        for key, enabled in (
            ("add_flag", flag),
            ("add_note", note),
            ("undo", undo),
            ("redo", undo),
        ):
            actions[key].setEnabled(enabled)

    notes.availability_changed.connect(notes_available)


__all__ = ["MENUS", "RECENT", "WindowParts", "keep_in_step", "window_actions"]
