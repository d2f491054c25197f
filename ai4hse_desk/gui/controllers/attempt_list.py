"""The attempt list's query: filters and search in, the model's rows and the counts line out.

The filter panel and the search bar describe one
:class:`~ai4hse_desk.index.AttemptQuery`; this controller hands it to the
attempt table model; a search's rows are found by :class:`~.list_search.ListSearch`
(the first page at once, the count off the GUI thread). The counts line's per-status
part is counted off the GUI thread too, for the latest query only.

After every reset of the list the model's page ends (where each page of keys
begins: :mod:`ai4hse_desk.index.positions`) are found on the ``rows`` lane, so a
scroll-bar drag or Go to can land on any row. Go to… (:meth:`AttemptList.go_to`,
found by :class:`~ai4hse_desk.gui.controllers.go_to.GoTo`) takes a question id, an
attempt id or a row number and announces the row through ``row_chosen``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.status_style import status_label
from ai4hse_desk.gui.controllers.go_to import GoTo
from ai4hse_desk.gui.controllers.list_search import ListSearch
from ai4hse_desk.gui.workers.task import QueryOp, Task
from ai4hse_desk.index import PARSE_ERROR_STATUSES, AttemptQuery, ReviewIndex
from ai4hse_desk.protocol.outcome import Status

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.controllers.opening import FilterChoices
    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
    from ai4hse_desk.gui.panels.filters import FilterPanel
    from ai4hse_desk.gui.widgets.search_bar import SearchBar
    from ai4hse_desk.gui.workers.runner import TaskRunner

LANE = "list"
STATUS_COUNTS = "status counts"
#: The lane where the list's page ends are found (apart from the counts).
ROWS_LANE = "rows"
ROW_POSITIONS = "row positions"
NO_ATTEMPTS = (
    "This database holds questions but no attempts yet: its questions and keys can be "
    "reviewed now (Review, Ctrl+5); a run is added with ai4hse-desk import responses "
    "AUDIT_DB …"
)


class AttemptList(QObject):
    """Keeps the attempt table model on the query the filters and the search describe.

    Signals:
        counts_changed: the counts line under the list.
        flagged_only_changed: whether View ▸ Flagged questions only is on.
        searching: True while a search is found (or counted) in the background.
        message: a line for the status bar.
        row_chosen: Go to found this row of the list (select it and scroll there).
        search_submitted: Enter in the search box (the list takes the keyboard back).
    """

    counts_changed = Signal(str)
    flagged_only_changed = Signal(bool)
    searching = Signal(bool)
    message = Signal(str)
    row_chosen = Signal(int)
    search_submitted = Signal()

    def __init__(
        self,
        filters: FilterPanel | None,
        search: SearchBar,
        model: AttemptTableModel,
        tasks: TaskRunner,
        parent: QObject | None = None,
    ) -> None:
        """Keep ``model`` on the query of ``filters`` and ``search``.

        Args:
            filters: the filter panel, or ``None`` until :meth:`attach_filters` (a
                starting window draws its list before it makes the panel): until then
                the list shows every attempt of the file, and its choices are kept.
        """
        super().__init__(parent)
        self._filters: FilterPanel | None = None
        self._choices: FilterChoices | None = None  # kept for a panel attached later
        self._search = search
        self._model = model
        self._tasks = tasks
        self._flagged: frozenset[str] = frozenset()
        self._searches = ListSearch(model, tasks, LANE)
        self._searches.searching.connect(self.searching)
        self._searches.failed.connect(self._search_failed)
        self._head = ""  # the counts line before its per-status part
        self._going = GoTo(model, self.clear_all, self)
        self._going.row_chosen.connect(self.row_chosen)
        self._going.message.connect(self.message)
        self._select: Callable[[int], object] | None = None
        search.text_changed.connect(self._search_text)
        search.scope_changed.connect(self._scope_changed)
        search.submitted.connect(self.search_submitted)
        model.modelReset.connect(self._update_counts)
        model.modelReset.connect(self._find_positions)
        if filters is not None:
            self.attach_filters(filters)

    def attach_filters(self, filters: FilterPanel) -> None:
        """The filter panel, made now: it offers the open file's values (kept since it
        opened) and takes over the search box's text, if any was typed meanwhile."""
        self._filters = filters
        filters.query_changed.connect(self._query_changed)
        if self._choices is not None:
            self._offer(filters, self._choices)
        if self._search.text():
            filters.set_text(self._search.text())

    def _panel(self) -> FilterPanel:
        """The filter panel (what asks for it comes with the rest of the window)."""
        if self._filters is None:
            raise RuntimeError("the filter panel is not made yet")
        return self._filters

    @staticmethod
    def _offer(filters: FilterPanel, choices: FilterChoices) -> None:
        filters.set_choices(
            runs=choices.runs,
            models=choices.models,
            tracks=choices.tracks,
            repetitions=choices.repetitions,
            facets=choices.facets,
        )

    def _search_text(self, text: str) -> None:
        if self._filters is not None:  # (else the panel takes it when attached)
            self._filters.set_text(text)

    # -- what the list shows ------------------------------------------------------------

    def set_choices(self, choices: FilterChoices) -> None:
        """Offer the values of the file now open (every filter and the search cleared)."""
        self._choices = choices
        self._search.clear_quietly()
        if self._filters is None:
            return
        self._offer(self._filters, choices)
        self._filters.set_text(None)
        self._filters.set_flagged_only(None)

    def set_session(self, _session: object) -> None:
        """Another file is open (or none): nothing is listed until its index is ready."""
        self.set_index(None)

    def set_index(self, index: ReviewIndex | None) -> None:
        """Show the attempts of ``index`` (``None``: nothing) under the current filters."""
        self._searches.forget()
        self._model.set_index(index)

    def clear_all(self) -> None:
        """Esc: clear the search box and every filter."""
        self._search.clear_quietly()
        self._panel().set_text(None)
        self._panel().clear()

    def apply_query(self, query: AttemptQuery) -> None:
        """Show exactly ``query``'s attempts (a click on a plotted bar); the search box empties."""
        self._search.clear_quietly()
        self._panel().apply_query(query)

    def _scope_changed(self, _scope: object) -> None:
        if self._filters is not None and (query := self._filters.query()).text:
            self._query_changed(query)

    def _query_changed(self, query: AttemptQuery) -> None:
        if query.text:  # the search bar's scope goes with its text
            query = replace(query, text_scope=self._search.scope())
        on = query.flagged_question_ids is not None
        self.flagged_only_changed.emit(on)
        index = self._model.review_index
        # Reads queued for an older query never start; one already running (a plain
        # search scanning every response) ends on its own and its answer is dropped:
        # ReviewIndex.interrupt() would stop every reader of the index, the scores too.
        self._tasks.cancel(LANE)
        self._searches.forget()
        mode = None if index is None else index.search_mode(query)
        if index is None or mode is None:
            self.searching.emit(False)
            self._model.set_query(query)
            return
        query = self._model.listed(query)  # as the model lists it (blind questions left out)
        if mode == "like":
            self.counts_changed.emit("Searching every response (plain search, slower)…")
        self._searches.show(index, query, full_text=mode == "fts")

    def _search_failed(self, message: str) -> None:
        self.message.emit(f"The search failed: {message}")
        self._update_counts()

    # -- every row reachable: the page ends ------------------------------------------------

    def _find_positions(self) -> None:
        """The list was reset: find its page ends on the rows lane (older ones are dropped)."""
        for older in self._tasks.pending(ROWS_LANE):
            older.cancel()
        job = self._model.positions_job()
        if job is None:
            return
        task = self._tasks.run(QueryOp(job, lane=ROWS_LANE, name=ROW_POSITIONS))
        task.succeeded.connect(self._model.set_positions)
        task.failed.connect(
            lambda reason: self.message.emit(f"Rows far down the list cannot be placed: {reason}")
        )

    # -- Go to ------------------------------------------------------------------------------

    def ask_go_to(self, select: Callable[[int], object] | None = None) -> None:
        """Ctrl+G: ask for a question, an attempt or a row (:class:`GoToDialog`) and go there.

        Args:
            select: selects and shows a row of the list (the navigator's
                ``select_row``); from now on it gets every ``row_chosen``.
        """
        if select is not None and select != self._select:
            if self._select is not None:
                self.row_chosen.disconnect(self._select)
            self.row_chosen.connect(select)
            self._select = select
        if self._model.review_index is None:
            self.message.emit("Open an audit database first.")
            return
        from ai4hse_desk.gui.dialogs.go_to import GoToDialog  # made on first use

        text = GoToDialog.ask(self._search.window(), self._model.rowCount())
        if text is not None:
            self.go_to(text)

    def go_to(self, text: str) -> bool:
        """Go to a question id (its first attempt in the list's order), an attempt id
        or a row number (see :func:`~ai4hse_desk.gui.dialogs.go_to.parse_go_to`).

        The row is announced through ``row_chosen``: at once, or, when it can only be
        placed once the list's page ends are found (a filtered list just changed), as
        they arrive. A question or attempt the filters hide clears them (as a jump
        from the notes list does).

        Returns:
            False (and a one-line ``message``) when there is nothing to go to.
        """
        return self._going.go_to(text)

    # -- flagged questions ----------------------------------------------------------------

    def set_flagged(self, question_ids: frozenset[str]) -> None:
        """The questions with an open flag now; a flagged-only list follows them."""
        self._flagged = question_ids
        wanted = tuple(sorted(question_ids))
        current = self._panel().query().flagged_question_ids
        if current is not None and current != wanted:
            self._panel().set_flagged_only(wanted)

    def set_flagged_only(self, on: bool) -> None:
        """View ▸ Flagged questions only (questions with an open flag)."""
        self._panel().set_flagged_only(sorted(self._flagged) if on else None)
        if on and not self._flagged:
            self.message.emit("No question has an open flag.")

    # -- the counts line ------------------------------------------------------------------

    def _update_counts(self) -> None:
        index, query = self._model.review_index, self._model.query
        if index is None or index.total() == 0:
            self.counts_changed.emit("" if index is None else NO_ATTEMPTS)
            return
        shown = f"{self._model.matching:,} of {index.total():,} attempts"
        if self._searches.wanted is not None and self._searches.wanted == query:  # counting
            self.counts_changed.emit(f"Showing the first {shown} · counting…")
            return
        parts = [f"Showing {shown}"]
        if index.search_mode(query) == "like":
            parts.append("plain search (slower)")
        if left_out := len(query.excluded_question_ids or ()):
            parts.append(f"{left_out:,} blind question{'s' * (left_out > 1)} left out "
                         "(their correctness is hidden until your blind answer)")  # fmt: skip
        self._head = " · ".join(parts)
        self.counts_changed.emit(f"{self._head} · counting statuses…")
        for older in self._tasks.pending(LANE):
            if older.name == STATUS_COUNTS:
                older.cancel()
        task: Task[dict[str, int]] = self._tasks.run(
            QueryOp(lambda _p: index.count_by_status(query), lane=LANE, name=STATUS_COUNTS)
        )
        task.succeeded.connect(lambda counts: self._statuses_counted(query, counts))

    def _statuses_counted(self, query: AttemptQuery, by_status: dict[str, int]) -> None:
        if query != self._model.query or self._searches.wanted is not None:
            return
        parse_errors = sum(by_status.get(s, 0) for s in PARSE_ERROR_STATUSES)
        parts = [self._head, f"parse errors {parse_errors:,}"]
        parts += [
            f"{status_label(Status(name))} {count:,}" for name, count in by_status.items() if count
        ]
        self.counts_changed.emit(" · ".join(parts))


__all__ = ["NO_ATTEMPTS", "ROWS_LANE", "AttemptList"]
