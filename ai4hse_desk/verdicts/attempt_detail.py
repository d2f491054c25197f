"""What the detail panels show for one attempt, computed without Qt.

:func:`build_detail` re-derives the desk's verdict on an attempt
(:func:`~ai4hse_desk.protocol.extract.derive`), compares it with the runner's
recorded one (:mod:`~ai4hse_desk.protocol.compare`) and formats every value
the question and verdict panels display. Values stay raw here (option texts,
error messages); :func:`display_text` is what the panels apply before showing
any of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter, setting_text
from ai4hse_desk.protocol.compare import differences, disagrees, parse_extracted
from ai4hse_desk.protocol.extract import derive
from ai4hse_desk.protocol.outcome import Extraction, Selection, Span, Status, Track

if TYPE_CHECKING:
    from ai4hse_desk.audit.records import Attempt, Question, Run
    from ai4hse_desk.verdicts.attempt_verdict import AttemptVerdict

__all__ = [
    "NONE",
    "AttemptDetail",
    "ComparisonRow",
    "OptionRow",
    "build_detail",
]

#: Shown for an absent (NULL) value.
NONE = "—"


@dataclass(frozen=True, slots=True)
class OptionRow:
    """One option against the key and the desk's (possibly would-be) selection."""

    position: int
    letter: str
    text: str
    key: bool
    extracted: bool | None

    @property
    def match(self) -> bool | None:
        """Whether the extracted value equals the key; ``None`` when nothing was extracted."""
        return None if self.extracted is None else self.extracted == self.key

    @property
    def key_text(self) -> str:
        return _bool_text(self.key)

    @property
    def extracted_text(self) -> str:
        return NONE if self.extracted is None else _bool_text(self.extracted)

    @property
    def match_text(self) -> str:
        return {True: "✓", False: "✗", None: NONE}[self.match]


@dataclass(frozen=True, slots=True)
class ComparisonRow:
    """One recorded-verdict field, the runner's value beside the desk's."""

    field: str
    runner: str
    desk: str
    differs: bool


@dataclass(frozen=True)
class AttemptDetail:
    """Everything the detail panels show for one attempt (immutable)."""

    attempt_id: int
    run_id: str
    question_id: str
    question_ordinal: int
    repetition: int
    track: Track
    heading: str
    labels_line: str
    question_text: str
    outcome: Extraction
    correct: bool
    option_rows: tuple[OptionRow, ...]
    verdict_text: str
    comparison_rows: tuple[ComparisonRow, ...]
    disagrees: bool
    raw_response: str | None
    differences: list[str] = field(hash=False)
    facts: list[tuple[str, str]] = field(hash=False)
    settings: list[tuple[str, str]] = field(hash=False)

    @property
    def status(self) -> Status:
        return self.outcome.status

    @property
    def spans(self) -> tuple[Span, ...]:
        """The response ranges the desk's verdict rests on (for the response viewer)."""
        return self.outcome.spans


def build_detail(
    attempt: Attempt, question: Question, run: Run, verdict: AttemptVerdict | None = None
) -> AttemptDetail:
    """The detail of ``attempt``, a try at ``question`` in ``run``.

    Args:
        verdict: the desk's verdict as the review index stores it. Its status,
            selection, strict flag, correctness and disagreement are shown as they
            are; only the character spans it rests on are derived here (they are
            not stored). Without it the attempt is derived in full.

    Raises:
        ValueError: when the records do not belong together, or from
            :func:`~ai4hse_desk.protocol.extract.derive` (a question without
            options, an unknown state).
    """
    if attempt.question_id != question.question_id or attempt.run_id != run.run_id:
        raise ValueError(
            f"attempt {attempt.attempt_id} is for {attempt.run_id}/{attempt.question_id}, "
            f"not {run.run_id}/{question.question_id}"
        )
    if verdict is not None and verdict.attempt_id != attempt.attempt_id:
        raise ValueError(f"the verdict of attempt {verdict.attempt_id} is not attempt "
                         f"{attempt.attempt_id}'s")  # fmt: skip
    derived = derive(
        run.track,
        attempt.raw_response,
        question.n_options,
        protocol_version=run.protocol_version,
        state=attempt.state,
        finish_reason=attempt.finish_reason,
    )
    if verdict is None:
        outcome, correct = derived, derived.is_correct(question.key)
    else:
        outcome, correct = replace(verdict.outcome, spans=derived.spans), verdict.correct
    desk = (outcome.status, outcome.selection, outcome.strict_format, correct)
    recorded = (attempt.parse_status, attempt.extracted, attempt.strict_format, attempt.correct)
    differs = disagrees(*desk, *recorded) if verdict is None else not verdict.agrees
    rows = _option_rows(question, outcome.selection)
    labels = " · ".join(f"{facet}: {value}" for facet, value in question.labels.items())
    return AttemptDetail(
        attempt_id=attempt.attempt_id,
        run_id=run.run_id,
        question_id=question.question_id,
        question_ordinal=question.ordinal,
        repetition=attempt.repetition,
        track=run.track,
        heading=f"{question.question_id} · question {question.ordinal:,}",
        labels_line=labels or "no labels",
        question_text=question.text,
        outcome=outcome,
        correct=correct,
        option_rows=rows,
        verdict_text=_verdict(outcome, correct, rows),
        comparison_rows=_comparison(attempt, outcome, correct),
        disagrees=differs,
        raw_response=attempt.raw_response,
        differences=differences(*desk, *recorded) if differs else [],
        facts=_facts(attempt, run),
        settings=_settings(run),
    )


def _option_rows(question: Question, selection: Selection | None) -> tuple[OptionRow, ...]:
    def extracted(index: int) -> bool | None:
        if selection is None or index >= len(selection):
            return None
        return selection[index]

    return tuple(
        OptionRow(option.position, option_letter(index), option.text, option.key, extracted(index))
        for index, option in enumerate(question.options)
    )


def _verdict(outcome: Extraction, correct: bool, rows: tuple[OptionRow, ...]) -> str:
    if correct:
        return "Correct — every option matches the key"
    if outcome.status is Status.VALID:
        differ = sum(row.match is not True for row in rows)
        verb = "differs" if differ == 1 else "differ"
        return f"Incorrect — {differ} of {len(rows)} options {verb}"
    text = f"Not scored as correct — status {outcome.status.value}"
    if outcome.status is Status.INCOMPLETE and outcome.selection is not None:
        text += " (the would-be selection is shown but not scored)"
    return text


def _comparison(attempt: Attempt, outcome: Extraction, correct: bool) -> tuple[ComparisonRow, ...]:
    desk = (outcome.status, outcome.selection, outcome.strict_format, correct)
    if attempt.extracted is None:
        runner_extracted = NONE
    else:
        parsed = parse_extracted(attempt.extracted)
        runner_extracted = attempt.extracted if parsed is None else _selection_text(parsed)
    return (
        ComparisonRow(
            "Parse status",
            attempt.parse_status or NONE,
            outcome.status.value,
            disagrees(*desk, attempt.parse_status, None, None, None),
        ),
        ComparisonRow(
            "Extracted",
            runner_extracted,
            NONE if outcome.selection is None else _selection_text(outcome.selection),
            disagrees(*desk, None, attempt.extracted, None, None),
        ),
        ComparisonRow(
            "Strict format",
            _flag_text(attempt.strict_format),
            _flag_text(outcome.strict_format),
            disagrees(*desk, None, None, attempt.strict_format, None),
        ),
        ComparisonRow(
            "Correct",
            _flag_text(attempt.correct),
            _flag_text(correct),
            disagrees(*desk, None, None, None, attempt.correct),
        ),
    )


def _facts(attempt: Attempt, run: Run) -> list[tuple[str, str]]:
    response = attempt.raw_response
    return [
        ("Attempt", f"#{attempt.attempt_id}"),
        ("Repetition", f"{attempt.repetition:,} of {run.repetitions:,}"),
        ("State", attempt.state),
        ("Finish reason", _text(attempt.finish_reason)),
        ("Provider error", _text(attempt.error)),
        ("Response length", NONE if response is None else f"{len(response):,} characters"),
        ("Prompt tokens", _count(attempt.prompt_tokens)),
        ("Completion tokens", _count(attempt.completion_tokens)),
        ("Reasoning tokens", _count(attempt.reasoning_tokens)),
        ("Latency", NONE if attempt.latency_ms is None else f"{attempt.latency_ms:,} ms"),
        ("Created at", _text(attempt.created_at)),
    ]


def _settings(run: Run) -> list[tuple[str, str]]:
    return [
        ("Run", run.run_id),
        ("Model", run.model),
        ("Provider", setting_text("provider", run.provider)),
        ("Routing", setting_text("provider_routing", run.provider_routing)),
        ("Track", run.track.value),
        ("Temperature", setting_text("temperature", run.temperature)),
        ("Token cap", setting_text("max_tokens", run.max_tokens)),
        ("Reasoning effort", setting_text("reasoning_effort", run.reasoning_effort)),
        ("Concurrency", setting_text("concurrency", run.concurrency)),
        ("Protocol version", setting_text("protocol_version", run.protocol_version)),
        ("Repetitions", setting_text("repetitions", run.repetitions)),
        ("Run status", run.status),
    ]


def _bool_text(value: bool) -> str:
    return "TRUE" if value else "FALSE"


def _selection_text(selection: Selection) -> str:
    return "[" + ", ".join(_bool_text(value) for value in selection) + "]"


def _flag_text(value: bool | None) -> str:
    return NONE if value is None else json.dumps(value)


def _text(value: str | None) -> str:
    return NONE if value is None or value == "" else value


def _count(value: int | None) -> str:
    return NONE if value is None else f"{value:,}"
