"""Text search over raw responses, question texts and option texts, with or without FTS.

What a search means, in every mode: the user's text is split on whitespace into
terms; an attempt matches when, among the places its *scope* names
(:data:`~.filters.SEARCH_SCOPES`: ``responses``, ``questions``, ``options``,
any combination), its raw response contains *every* term, or its question's
side (the question text and/or its option texts, as the scope says, read
together) contains every term. "Contains" is a case-insensitive (ASCII
letters) substring test with ``%``, ``_`` and ``\\`` taken literally: SQLite
``LIKE … ESCAPE '\\'`` with the term as a bound parameter. The plain ``LIKE``
mode scans every response of the attached audit file; the full-text mode asks
the trigram index (:mod:`.fts`) for candidates first and applies the same
``LIKE`` to those only, so both modes give identical results and the index only
makes it faster.

The scope is in the SQL, one statement per place: responses are searched only
when ``responses`` is in scope (the expensive part on a million attempts; the
FTS5 table holds responses alone), and the question side reads the audit
file's ``questions.text`` and/or ``options.text`` (a few thousand short rows at
most, read whole by ``LIKE`` in well under a millisecond) only when
``questions`` or ``options`` is. A search that is exactly a question's id
(ignoring ASCII case) finds that question's attempts in every scope.

A term of three or more characters becomes an AND of trigrams that cover it,
each quoted as an FTS5 string (``"…"`` with quotes doubled), so user input is
never FTS5 syntax (``NEAR``, ``OR``, ``*``, ``-``, ``"`` are plain characters).
The tokenizer folds letter case (beyond ASCII too), so candidates are a
superset of the ``LIKE`` matches. Terms shorter than three characters have no
trigram and are checked by ``LIKE`` only; a search made only of such terms
scans every response.

The first page of a search is found as datasette finds a table's first page: by an
index-driven ``LIMIT`` (:meth:`TextSearch.first_conditions`: the search tested row by
row in the listing's order, so SQLite stops at the page's last key; each place it may
match has its own ``LIMIT``, and the pages are merged), without counting every match
first. The count (and every later page) comes from the search resolved
once into the matching attempt ids (one JSON array, built by SQLite, in attempt
order) and the matching question ordinals, which the window finds in the background;
:class:`TextSearch` keeps the last few, so the count, the status counts and every page
of the same search reuse them instead of searching again. With the full-text index the
statement is driven by the index (its candidates in rowid order, each attempt
looked up by its id and checked), not a list of candidates built first. A page in
attempt order is a slice of those ids, merged with the next attempts of the questions
whose text matched (:meth:`TextSearch.id_page`), without handing the whole list to
SQLite again.
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_left, bisect_right
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from ai4hse_desk.index.filters import SEARCH_SCOPES, in_values

#: At most this many trigrams per search go to FTS5 (fewer still give a superset).
MAX_TRIGRAMS = 24
#: Searches remembered per index (each holds one JSON array of attempt ids).
MEMO_SIZE = 4


def escape_like(text: str) -> str:
    """Escape ``text`` for ``LIKE … ESCAPE '\\'`` so it matches literally."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


Run = Callable[[str, Sequence[Any]], list[Any]]
Scope = tuple[str, ...]
RESPONSES, QUESTIONS, OPTIONS = SEARCH_SCOPES
_OPTION_TEXTS = (
    "(SELECT group_concat(o.text, char(10)) FROM audit.options AS o "
    "WHERE o.question_id = q.question_id)"
)
#: The question side's text per scope: question text, option texts or both.
_QUESTION_SIDE = {
    (QUESTIONS,): "q.text",
    (OPTIONS,): f"coalesce({_OPTION_TEXTS}, '')",
    (QUESTIONS, OPTIONS): f"q.text || char(10) || coalesce({_OPTION_TEXTS}, '')",
}


def search_terms(text: str | None) -> list[str]:
    """The terms of a search: ``text`` split on whitespace, duplicates dropped.

    NUL characters count as whitespace and unpaired surrogates (which SQLite
    cannot be given) become ``?``.
    """
    if not text:
        return []
    clean = text.encode("utf-8", "replace").decode("utf-8").replace("\x00", " ")
    return list(dict.fromkeys(clean.split()))


def fts_string(token: str) -> str:
    """``token`` as an FTS5 string literal: it can only ever mean itself."""
    return '"' + token.replace('"', '""') + '"'


def covering_trigrams(term: str) -> list[str]:
    """Trigrams of ``term`` that together cover every character: one every three
    characters, plus the last. Fewer trigrams than all of them make a cheaper
    FTS5 query whose few extra candidates the ``LIKE`` check drops. (Never case
    folded here: ``str.lower`` can change a string's length, and a quoted
    string of more than three characters would be an FTS5 phrase.)"""
    if len(term) < 3:
        return []
    starts = [*range(0, len(term) - 2, 3), len(term) - 3]
    return list(dict.fromkeys(term[i : i + 3] for i in starts))


def match_expression(terms: Sequence[str]) -> str | None:
    """FTS5 query (an AND of quoted trigrams) for ``terms``, or ``None`` when no
    term has three characters."""
    trigrams = dict.fromkeys(trigram for term in terms for trigram in covering_trigrams(term))
    if not trigrams:
        return None
    return " ".join(fts_string(trigram) for trigram in list(trigrams)[:MAX_TRIGRAMS])


class _Resolved:
    """One resolved search: its attempt ids (JSON, ascending), their number, the
    question ordinals whose question side matched, and how many of those attempts are
    of such a question (``shared``: counted once in the union)."""

    __slots__ = ("_ids", "count", "ids_json", "ordinals", "shared")

    def __init__(
        self, ids_json: str, count: int, ordinals: tuple[int, ...], shared: int = 0
    ) -> None:
        self.ids_json = ids_json
        self.count = count
        self.ordinals = ordinals
        self.shared = shared
        self._ids: list[int] | None = None

    def head(self, n: int) -> list[int]:
        """The first ``n`` attempt ids (ascending), parsing only the part of the JSON
        they are in: a search's first page needs no parse of its other 300,000 ids
        (about 40 ms). The array is built in attempt order, so the first ids of the
        text are the smallest."""
        if n <= 0:
            return []
        if self._ids is not None:
            return self._ids[:n]
        text, end = self.ids_json, 0
        for _ in range(n):
            end = text.find(",", end + 1)
            if end < 0:  # n or fewer ids in all
                return self.ids()[:n]
        first: list[int] = json.loads(text[:end] + "]")
        return first

    def ids(self) -> list[int]:
        """The attempt ids in ascending order (parsed from the JSON once)."""
        if self._ids is None:
            # SQLite built the array from INTEGER ids: json gives ints (converting each
            # again took longer than the parse), ascending; sorting keeps that certain.
            ids: list[int] = json.loads(self.ids_json)
            ids.sort()
            self._ids = ids
        return self._ids


class TextSearch:
    """Turns search text into a condition over ``rows``, remembering recent searches.

    Args:
        run: executes one read-only statement on the caller's connection (with
            ``audit``, and ``fts`` when used, attached) and returns all rows.
    """

    def __init__(self, run: Run) -> None:
        self._run = run
        self._lock = threading.Lock()
        self._memo: OrderedDict[tuple[tuple[str, ...], bool, Scope], _Resolved] = OrderedDict()

    def clear(self) -> None:
        """Forget remembered searches."""
        with self._lock:
            self._memo.clear()

    def condition(
        self, text: str | None, use_fts: bool, scope: Scope = SEARCH_SCOPES
    ) -> tuple[str, list[Any]]:
        """SQL condition over ``rows`` for ``text`` and its parameters.

        Args:
            text: what the user typed; blank means no condition (``"1"``).
            use_fts: find candidates with the attached full-text index ``fts``.
            scope: where to look, some of :data:`~.filters.SEARCH_SCOPES` in that order.
        """
        terms = search_terms(text)
        if not terms:
            return "1", []
        found = self._resolved(terms, use_fts, scope)
        conds: list[str] = []
        params: list[Any] = []
        if found.count:
            conds.append("attempt_id IN (SELECT value FROM json_each(?))")
            params.append(found.ids_json)
        if found.ordinals:
            conds.append(in_values("ordinal", found.ordinals, params))
        if not conds:
            return "0", []
        return f"({' OR '.join(conds)})", params

    def first_conditions(
        self, text: str | None, use_fts: bool, scope: Scope = SEARCH_SCOPES
    ) -> list[tuple[str, list[Any]]]:
        """Like :meth:`condition`, without resolving the search: the places it may match,
        one condition each (responses, the question side), which SQLite tests row by row
        (a response's terms looked up by its attempt id, after the full-text index's
        candidates when ``use_fts``), so that a ``LIMIT`` ends each at the last row it
        needs. No place: no match. A search resolved already gives :meth:`condition`."""
        terms = search_terms(text)
        if not terms:
            return [("1", [])]
        with self._lock:
            known = (tuple(terms), use_fts, scope) in self._memo
        if known:
            return [self.condition(text, use_fts, scope)]
        patterns = [f"%{escape_like(term)}%" for term in terms]
        places: list[tuple[str, list[Any]]] = []
        if RESPONSES in scope:
            like = " AND ".join("t.raw_response LIKE ? ESCAPE '\\'" for _ in patterns)
            found = (
                "EXISTS (SELECT 1 FROM audit.attempts AS t "
                f"WHERE t.attempt_id = rows.attempt_id AND {like})"
            )
            match = match_expression(terms) if use_fts else None
            if match is None:
                places.append((found, [*patterns]))
            else:
                candidates = (
                    "attempt_id IN (SELECT rowid FROM fts.responses WHERE responses MATCH ?)"
                )
                places.append((f"({candidates} AND {found})", [match, *patterns]))
        ordinals = [ordinal for ordinal, _qid in self._questions(terms, patterns, scope)]
        if ordinals:
            params: list[Any] = []
            places.append((in_values("ordinal", ordinals, params), params))
        return places

    def match_count(
        self, text: str | None, use_fts: bool, scope: Scope = SEARCH_SCOPES
    ) -> int | None:
        """How many attempts match ``text`` (``None`` for a blank search): the responses
        counted when the search was resolved, plus the attempts of the questions whose
        text matched (one index count), less the responses of those questions, which the
        resolution counted too (not a pass over every row with an ``OR``)."""
        terms = search_terms(text)
        if not terms:
            return None
        found = self._resolved(terms, use_fts, scope)
        if not found.ordinals:
            return found.count
        params: list[Any] = []
        side = in_values("ordinal", found.ordinals, params)
        of_questions = int(self._run(f"SELECT count(*) FROM rows WHERE {side}", params)[0][0])
        return found.count + of_questions - found.shared

    def id_page(
        self,
        text: str | None,
        use_fts: bool,
        scope: Scope,
        *,
        after: int | None,
        descending: bool,
        limit: int,
        skip: int,
    ) -> list[int] | None:
        """One page of the matching attempt ids in attempt order (``None`` for a blank
        search): the ids after ``after`` (before it, ``descending``), ``skip`` of them
        passed over, at most ``limit``. Exactly the page ``ORDER BY attempt_id`` over
        :meth:`condition` gives: a slice of the responses' ids, merged, when question
        texts matched too, with the next attempts of those questions (an index seek),
        never the whole id list handed to SQLite again."""
        terms = search_terms(text)
        if not terms:
            return None
        found = self._resolved(terms, use_fts, scope)
        wanted = skip + limit
        if descending:
            ids = found.ids()
            end = len(ids) if after is None else bisect_left(ids, after)
            head = ids[max(end - wanted, 0) : end][::-1]
        elif after is None:  # the first page: no parse of the ids beyond it
            head = found.head(wanted)
        else:
            ids = found.ids()
            start = bisect_right(ids, after)
            head = ids[start : start + wanted]
        if found.ordinals:
            head = sorted({*head, *self._question_ids(found, after, descending, wanted)})
            head = head[::-1][:wanted] if descending else head[:wanted]
        return head[skip:wanted]

    def _question_ids(
        self, found: _Resolved, after: int | None, descending: bool, limit: int
    ) -> list[int]:
        """The next ``limit`` attempts of the questions whose text matched, after
        ``after`` (before it, ``descending``), in that order."""
        params: list[Any] = []
        side = in_values("ordinal", found.ordinals, params)
        op, direction = ("<", "DESC") if descending else (">", "ASC")
        beyond = "" if after is None else f" AND attempt_id {op} ?"
        params.extend([] if after is None else [after])
        sql = f"SELECT attempt_id FROM rows WHERE {side}{beyond} ORDER BY attempt_id {direction}"
        return [int(row[0]) for row in self._run(f"{sql} LIMIT ?", [*params, limit])]

    def _resolved(self, terms: Sequence[str], use_fts: bool, scope: Scope) -> _Resolved:
        """The matches of ``terms``, from the memo or resolved now."""
        key = (tuple(terms), use_fts, scope)
        with self._lock:
            found = self._memo.get(key)
            if found is not None:
                self._memo.move_to_end(key)
        if found is None:
            found = self._resolve(terms, use_fts, scope)
            with self._lock:
                self._memo[key] = found
                while len(self._memo) > MEMO_SIZE:
                    self._memo.popitem(last=False)
        return found

    def _resolve(self, terms: Sequence[str], use_fts: bool, scope: Scope) -> _Resolved:
        patterns = [f"%{escape_like(term)}%" for term in terms]
        questions = self._questions(terms, patterns, scope)
        ordinals = tuple(ordinal for ordinal, _qid in questions)
        if RESPONSES not in scope:
            return _Resolved("[]", 0, ordinals)
        response_like = " AND ".join("t.raw_response LIKE ? ESCAPE '\\'" for _ in patterns)
        match = match_expression(terms) if use_fts else None
        if match is None:
            inner = (
                "SELECT t.attempt_id, t.question_id FROM audit.attempts AS t WHERE "
                f"{response_like} ORDER BY t.attempt_id"
            )
            head: list[Any] = []
        else:
            # The full-text index drives: its candidates come in rowid order and each
            # attempt is found by its id, so no list of candidates is built first.
            inner = (
                "SELECT t.attempt_id, t.question_id FROM fts.responses AS f "
                "JOIN audit.attempts AS t ON t.attempt_id = f.rowid WHERE f.responses "
                f"MATCH ? AND {response_like} ORDER BY f.rowid"
            )
            head = [match]
        # The responses of the questions whose text matched too (counted once in the union).
        shared, matched = "0", []
        if ordinals:
            shared = "total(question_id IN (SELECT value FROM json_each(?)))"
            matched = [json.dumps([qid for _ordinal, qid in questions])]
        ids_json, count, both = self._run(
            f"SELECT json_group_array(attempt_id), count(*), {shared} FROM ({inner})",
            [*matched, *head, *patterns],
        )[0]
        return _Resolved(str(ids_json), int(count), ordinals, int(both))

    def _questions(
        self, terms: Sequence[str], patterns: Sequence[str], scope: Scope
    ) -> list[tuple[int, str]]:
        """(ordinal, id) of the questions whose side in ``scope`` holds every term, or
        whose id the search is, in ordinal order."""
        side = _QUESTION_SIDE.get(tuple(s for s in scope if s != RESPONSES))
        conds: list[str] = []
        params: list[Any] = []
        if side is not None:
            conds.append(" AND ".join("side LIKE ? ESCAPE '\\'" for _ in patterns))
            params.extend(patterns)
        # Id lookup, in every scope: a search that is a question's id ("Q060") finds it.
        conds.append("question_id = ? COLLATE NOCASE")
        params.append(" ".join(terms))
        sql = (
            "SELECT ordinal, question_id FROM (SELECT q.ordinal, q.question_id, "
            f"{side or 'NULL'} AS side FROM audit.questions AS q) "
            f"WHERE ({') OR ('.join(conds)}) ORDER BY ordinal"
        )
        return [(int(row[0]), str(row[1])) for row in self._run(sql, params)]
