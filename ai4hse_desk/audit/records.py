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
    from collections.abc import Iterable, Mapping, Sequence

#: ``SELECT`` list (table ``runs``) for :meth:`Run.from_row`.
RUN_COLUMNS: tuple[str, ...] = (
    "run_id",
    "model",
    "provider",
    "provider_routing",
    "track",
    "protocol_version",
    "repetitions",
    "max_tokens",
    "temperature",
    "reasoning_effort",
    "concurrency",
    "status",
    "prompt_template",
    "started_at",
    "finished_at",
)

#: ``SELECT`` list for :meth:`Attempt.from_row`: ``attempts AS a`` joined with
#: ``runs AS r`` and ``questions AS q``.
ATTEMPT_COLUMNS: tuple[str, ...] = (
    "a.attempt_id",
    "a.run_id",
    "a.question_id",
    "a.repetition",
    "a.state",
    "a.raw_response",
    "a.finish_reason",
    "a.error",
    "a.parse_status",
    "a.extracted",
    "a.strict_format",
    "a.correct",
    "a.prompt_tokens",
    "a.completion_tokens",
    "a.reasoning_tokens",
    "a.latency_ms",
    "a.created_at",
    "r.model",
    "r.track",
    "q.ordinal",
)

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
            run_id=str(row[0]),
            model=str(row[1]),
            provider=_opt_str(row[2]),
            provider_routing=_opt_str(row[3]),
            track=to_track(row[4]),
            protocol_version=int(row[5]),
            repetitions=int(row[6]),
            max_tokens=_opt_int(row[7]),
            temperature=_opt_float(row[8]),
            reasoning_effort=_opt_str(row[9]),
            concurrency=_opt_int(row[10]),
            status=str(row[11]),
            prompt_template=_opt_str(row[12]),
            started_at=_opt_str(row[13]),
            finished_at=_opt_str(row[14]),
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
        return cls(
            attempt_id=int(row[0]),
            run_id=str(row[1]),
            question_id=str(row[2]),
            repetition=int(row[3]),
            state=str(row[4]),
            raw_response=_opt_str(row[5]),
            finish_reason=_opt_str(row[6]),
            error=_opt_str(row[7]),
            parse_status=_opt_str(row[8]),
            extracted=_opt_str(row[9]),
            strict_format=_opt_bool(row[10]),
            correct=_opt_bool(row[11]),
            prompt_tokens=_opt_int(row[12]),
            completion_tokens=_opt_int(row[13]),
            reasoning_tokens=_opt_int(row[14]),
            latency_ms=_opt_int(row[15]),
            created_at=_opt_str(row[16]),
            model=str(row[17]),
            track=to_track(row[18]),
            question_ordinal=int(row[19]),
        )
