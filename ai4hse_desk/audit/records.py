"""Typed, immutable records read from an audit database.

Each record mirrors one table of ``audit-db-v1.sql`` (extra columns in the file
are ignored). Conversions from raw SQLite values happen here and only here; the
``*_COLUMNS`` constants give the exact ``SELECT`` lists the ``from_row``
constructors expect, so the SQL and the conversion cannot drift apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ai4hse_desk.protocol.outcome import Selection, Track

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

_EMPTY: Mapping[str, str] = MappingProxyType({})


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _opt_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def to_track(value: Any) -> Track:
    """The :class:`Track` named by a stored value (``ValueError`` if unknown)."""
    return Track(str(value))


#: Each column of ``runs`` a :class:`Run` is built from, with its conversion.
_RUN_FIELDS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("run_id", str),
    ("model", str),
    ("provider", _opt_str),
    ("provider_routing", _opt_str),
    ("track", to_track),
    ("protocol_version", int),
    ("repetitions", int),
    ("max_tokens", _opt_int),
    ("temperature", _opt_float),
    ("reasoning_effort", _opt_str),
    ("concurrency", _opt_int),
    ("status", str),
    ("prompt_template", _opt_str),
    ("started_at", _opt_str),
    ("finished_at", _opt_str),
)

#: ``SELECT`` list (table ``runs``) for :meth:`Run.from_row`.
RUN_COLUMNS: tuple[str, ...] = tuple(column for column, _ in _RUN_FIELDS)

#: Each column an :class:`Attempt` is built from (``attempts AS a`` joined with
#: ``runs AS r`` and ``questions AS q``): its field and its conversion.
_ATTEMPT_FIELDS: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("a.attempt_id", "attempt_id", int),
    ("a.run_id", "run_id", str),
    ("a.question_id", "question_id", str),
    ("a.repetition", "repetition", int),
    ("a.state", "state", str),
    ("a.raw_response", "raw_response", _opt_str),
    ("a.finish_reason", "finish_reason", _opt_str),
    ("a.error", "error", _opt_str),
    ("a.parse_status", "parse_status", _opt_str),
    ("a.extracted", "extracted", _opt_str),
    ("a.strict_format", "strict_format", _opt_bool),
    ("a.correct", "correct", _opt_bool),
    ("a.prompt_tokens", "prompt_tokens", _opt_int),
    ("a.completion_tokens", "completion_tokens", _opt_int),
    ("a.reasoning_tokens", "reasoning_tokens", _opt_int),
    ("a.latency_ms", "latency_ms", _opt_int),
    ("a.created_at", "created_at", _opt_str),
    ("r.model", "model", str),
    ("r.track", "track", to_track),
    ("q.ordinal", "question_ordinal", int),
)

#: ``SELECT`` list for :meth:`Attempt.from_row`.
ATTEMPT_COLUMNS: tuple[str, ...] = tuple(column for column, _, _ in _ATTEMPT_FIELDS)


@dataclass(frozen=True, slots=True)
class Option:
    """One answer option of a question, at its original 0-based position."""

    position: int
    text: str
    key: bool


@dataclass(frozen=True, slots=True)
class Question:
    """A question with its options in original order and its descriptive labels.

    Attributes:
        labels: facet → value (e.g. ``{"topic": "PPE"}``); read-only.
    """

    question_id: str
    ordinal: int
    text: str
    options: tuple[Option, ...]
    labels: Mapping[str, str] = field(default_factory=lambda: _EMPTY, hash=False)

    @property
    def key(self) -> Selection:
        """The answer key: one Boolean per option, in option order."""
        return tuple(option.key for option in self.options)

    @property
    def n_options(self) -> int:
        """Number of options (usually 4, not always)."""
        return len(self.options)


def build_questions(
    questions: Iterable[Sequence[Any]],
    options: Iterable[Sequence[Any]],
    labels: Iterable[Sequence[Any]],
) -> tuple[Question, ...]:
    """Assemble questions from raw rows.

    Args:
        questions: ``(question_id, ordinal, text)`` rows, in the order wanted.
        options: ``(question_id, position, text, key)`` rows, ordered by position.
        labels: ``(question_id, facet, value)`` rows.
    """
    by_question: dict[str, list[Option]] = {}
    for qid, position, text, key in options:
        by_question.setdefault(str(qid), []).append(Option(int(position), str(text), bool(key)))
    facets: dict[str, dict[str, str]] = {}
    for qid, facet, value in labels:
        facets.setdefault(str(qid), {})[str(facet)] = str(value)
    return tuple(
        Question(
            question_id=str(qid),
            ordinal=int(ordinal),
            text=str(text),
            options=tuple(by_question.get(str(qid), ())),
            labels=MappingProxyType(dict(sorted(facets.get(str(qid), {}).items()))),
        )
        for qid, ordinal, text in questions
    )


#: ``(question_id, position, key)`` of every option, questions in corpus order, options
#: by position; a question without options once, with NULL position and key. Ids match
#: exactly (``COLLATE BINARY``), as :func:`build_questions` matches them, whatever
#: collation a file declares for its columns.
KEY_ROWS_SQL = (
    "SELECT q.question_id, o.position, o.key FROM questions AS q "
    "LEFT JOIN options AS o ON o.question_id = q.question_id COLLATE BINARY "
    "ORDER BY q.ordinal, o.position"
)
#: ``(question_id, facet, value)`` of every label, questions in corpus order; a question
#: without labels once, with NULLs. Ids match exactly, as for :data:`KEY_ROWS_SQL`.
LABEL_ROWS_SQL = (
    "SELECT q.question_id, l.facet, l.value FROM questions AS q "
    "LEFT JOIN question_labels AS l ON l.question_id = q.question_id COLLATE BINARY "
    "ORDER BY q.ordinal"
)


def build_answer_keys(rows: Iterable[Sequence[Any]]) -> dict[str, Selection]:
    """The answer key of every question from :data:`KEY_ROWS_SQL` rows: the same keys
    as :attr:`Question.key` of :func:`build_questions`, without building the questions
    and their texts (a headless rescore needs only the keys). Equal keys share one tuple."""
    bits: dict[str, list[bool]] = {}
    for qid, position, key in rows:
        mine = bits.setdefault(str(qid), [])
        if position is not None:
            mine.append(bool(key))
    shared: dict[Selection, Selection] = {}
    keys: dict[str, Selection] = {}
    for qid, found in bits.items():
        key = tuple(found)
        keys[qid] = shared.setdefault(key, key)
    return keys


def build_labels(rows: Iterable[Sequence[Any]]) -> dict[str, dict[str, str]]:
    """Labels (facet → value) of every question from :data:`LABEL_ROWS_SQL` rows, as
    :func:`build_questions` gives them (facets sorted by Python)."""
    labels: dict[str, dict[str, str]] = {}
    for qid, facet, value in rows:
        mine = labels.setdefault(str(qid), {})
        if facet is not None:
            mine[str(facet)] = str(value)
    return {qid: dict(sorted(facets.items())) for qid, facets in labels.items()}


@dataclass(frozen=True, slots=True)
class Run:
    """One run: one model on one track, with its settings (table ``runs``)."""

    run_id: str
    model: str
    provider: str | None
    provider_routing: str | None
    track: Track
    protocol_version: int
    repetitions: int
    max_tokens: int | None
    temperature: float | None
    reasoning_effort: str | None
    concurrency: int | None
    status: str
    prompt_template: str | None
    started_at: str | None
    finished_at: str | None

    @property
    def complete(self) -> bool:
        """True when the runner marked the run ``complete``."""
        return self.status == "complete"

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Run:
        """Build from a row selected with :data:`RUN_COLUMNS`."""
        return cls(
            **{
                name: convert(value)
                for (name, convert), value in zip(_RUN_FIELDS, row, strict=True)
            }
        )


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt with the runner's recorded verdict, its run's model/track and
    its question's ordinal.

    ``parse_status``, ``extracted``, ``strict_format`` and ``correct`` are what
    the runner *recorded*; the desk re-derives its own verdict elsewhere.
    """

    attempt_id: int
    run_id: str
    question_id: str
    repetition: int
    state: str
    raw_response: str | None
    finish_reason: str | None
    error: str | None
    parse_status: str | None
    extracted: str | None
    strict_format: bool | None
    correct: bool | None
    prompt_tokens: int | None
    completion_tokens: int | None
    reasoning_tokens: int | None
    latency_ms: int | None
    created_at: str | None
    model: str
    track: Track
    question_ordinal: int

    @property
    def recorded_selection(self) -> Selection | None:
        """``extracted`` decoded as Booleans; ``None`` when absent or not a JSON
        array of Booleans."""
        if self.extracted is None:
            return None
        try:
            value = json.loads(self.extracted)
        except ValueError:
            return None
        if isinstance(value, list) and all(isinstance(item, bool) for item in value):
            return tuple(value)
        return None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Attempt:
        """Build from a row selected with :data:`ATTEMPT_COLUMNS`."""
        fields = zip(_ATTEMPT_FIELDS, row, strict=True)
        return cls(**{name: convert(value) for (_, name, convert), value in fields})
