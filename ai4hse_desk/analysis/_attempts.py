"""The attempts frame's columns: ``rescore --per-attempt`` beside the run and the question."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.frames import DType, FrameColumn

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ai4hse_desk.audit import Question, Run


@dataclass(frozen=True, slots=True)
class AttemptRow:
    """One attempt: its ``rescore --per-attempt`` object, its run and its question."""

    verdict: Mapping[str, object]
    run: Run
    question: Question
    raw_response: str | None


def _verdict(key: str) -> Callable[[AttemptRow], object]:
    return lambda row: row.verdict[key]


def _col(
    name: str, dtype: DType, doc: str, get: Callable[[AttemptRow], object], private: bool = False
) -> FrameColumn[AttemptRow]:
    return FrameColumn(name, dtype, doc, get, private)


#: One row per attempt, in attempt_id order: the desk's verdict (exactly
#: ``rescore --per-attempt``), the runner's recorded status and whether they agree.
ATTEMPT_COLUMNS: Final[tuple[FrameColumn[AttemptRow], ...]] = (
    _col("attempt_id", "Int64", "the attempt", _verdict("attempt_id")),
    _col("run_id", "string", "its run", _verdict("run_id")),
    _col("model", "string", "the run's model", lambda row: row.run.model),
    _col("track", "string", "the run's track", lambda row: row.run.track.value),
    _col("question_id", "string", "its question", _verdict("question_id")),
    _col(
        "ordinal", "Int64", "the question's place in the corpus", lambda row: row.question.ordinal
    ),
    _col("repetition", "Int64", "its repetition (1, 2, …)", _verdict("repetition")),
    _col("status", "string", "the desk's status (protocol.md section 2)", _verdict("status")),
    _col(
        "selection",
        "object",
        "the desk's selection: a list of booleans, or None",
        _verdict("selection"),
    ),
    _col("strict_format", "boolean", "the desk's strict_format", _verdict("strict_format")),
    _col(
        "correct", "boolean", "the desk's verdict: valid and equal to the key", _verdict("correct")
    ),
    _col(
        "recorded_status",
        "string",
        "the runner's recorded parse_status",
        _verdict("recorded_status"),
    ),
    _col("agrees", "boolean", "no recorded verdict differs from the desk's", _verdict("agrees")),
    _col("raw_response", "string", "the response", lambda row: row.raw_response, True),
    _col("question_text", "string", "the question's text", lambda row: row.question.text, True),
)
