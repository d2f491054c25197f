"""What the attempt list runs: its query as listed, and the first page of it.

A blind question's correctness must not leak through the list's order or its
filters (:mod:`ai4hse_desk.gui.controllers.sight`): a listing that filters by
correctness (correct or incorrect, runner ≠ desk), searches the responses (which
spell the selections) or sorts by Correct, Strict or Runner ≠ desk leaves the
blind questions' attempts out, in SQL (:func:`listed_query`). Any other listing
keeps them, their revealing cells masked — a search for a blind question's own id
("Q001") too: it lists that question's attempts, whatever their responses.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Set

    from ai4hse_desk.index import AttemptQuery, ReviewIndex, SortKey

#: Sort columns whose order tells which attempts are correct.
REVEALING_SORTS: Final = frozenset({"correct", "strict", "disagrees"})


def reveals_correctness(query: AttemptQuery, sort: str, *, id_search: bool = False) -> bool:
    """Would listing ``query`` in ``sort`` order tell a question's correct attempts?
    (``id_search``: the text is a question's id, found whatever the responses say.)"""
    text = (query.text or "").strip()
    searched = bool(text) and "responses" in query.text_scope and not id_search
    return (
        query.correct is not None or query.disagreements_only or searched or sort in REVEALING_SORTS
    )


def listed_query(query: AttemptQuery, sort: str, blind: Set[str]) -> AttemptQuery:
    """``query`` as the list runs it in ``sort`` order: without the ``blind`` questions'
    attempts when it would tell their correctness (idempotent)."""
    text = (query.text or "").strip().casefold()
    id_search = bool(text) and any(text == question.casefold() for question in blind)
    reveals = reveals_correctness(query, sort, id_search=id_search)
    excluded = tuple(sorted(blind)) if blind and reveals else None
    if query.excluded_question_ids == excluded:
        return query
    return replace(query, excluded_question_ids=excluded)


class FirstPage(NamedTuple):
    """What a model shows first for a query in one order: the count and the first keys."""

    query: AttemptQuery
    sort: str
    descending: bool
    matching: int
    keys: list[SortKey]


def first_page(index: ReviewIndex, query: AttemptQuery, sort: str, descending: bool) -> FirstPage:
    """Count ``query``'s attempts and find its first page (on any thread)."""
    from ai4hse_desk.index.positions import PAGE

    matching = index.count(query)
    keys = index.page_keys(query, sort, descending, None, PAGE)
    return FirstPage(query, sort, descending, matching, keys)


__all__ = ["REVEALING_SORTS", "FirstPage", "first_page", "listed_query", "reveals_correctness"]
