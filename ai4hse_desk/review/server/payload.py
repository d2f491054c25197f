"""What a publish copies from the audit file: only what the review needs.

For the selected questions: the question text and ordinal, each option's text, the
official key; and per ``--responses``: nothing more (``none``), each run's attempts on
those questions with the desk's extracted selection, status and strict-format flag
(``selections``), plus each attempt's raw response (``full``, the default). Runs are
named by id, model, track and protocol version. Nothing else of the audit file — other
questions, labels, prompts, settings, tokens, timings, the runner's recorded verdicts —
leaves the coordinator's machine. The selections are re-derived with the published
protocol (:func:`~ai4hse_desk.verdicts.rescore.iter_verdicts`), as the window shows them.

PostgreSQL text cannot hold a NUL character: a raw response holding one is published
with it spelled ``\\x00`` (question and option texts never hold one: the audit file's
checks refuse them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.audit import AuditDB

#: What ``--responses`` may copy, least first.
RESPONSES: Final = ("none", "selections", "full")
_CHUNK: Final = 2_000

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Payload:
    """The rows a publish inserts, per table of the review schema."""

    questions: list[Row] = field(default_factory=list)
    options: list[Row] = field(default_factory=list)
    keys: list[Row] = field(default_factory=list)
    runs: list[Row] = field(default_factory=list)
    attempts: list[Row] = field(default_factory=list)

    def only(self, question_ids: set[str]) -> Payload:
        """The rows of ``question_ids`` only (and the runs their attempts name)."""
        attempts = [row for row in self.attempts if row["question_id"] in question_ids]
        used = {row["run_id"] for row in attempts}
        return Payload(
            [row for row in self.questions if row["question_id"] in question_ids],
            [row for row in self.options if row["question_id"] in question_ids],
            [row for row in self.keys if row["question_id"] in question_ids],
            [row for row in self.runs if row["run_id"] in used],
            attempts,
        )


def _visible_nul(text: str | None) -> str | None:
    return None if text is None else text.replace("\x00", "\\x00")


def read_payload(audit: AuditDB, question_ids: Sequence[str], responses: str) -> Payload:
    """The rows of ``question_ids`` (ids of ``audit``, checked by the caller)."""
    wanted = set(question_ids)
    payload = Payload()
    for question in audit.questions():
        if question.question_id not in wanted:
            continue
        qid = question.question_id
        payload.questions.append(
            {"question_id": qid, "ordinal": question.ordinal, "text": question.text}
        )
        payload.options.extend(
            {"question_id": qid, "position": option.position, "text": option.text}
            for option in question.options
        )
        payload.keys.append({"question_id": qid, "key": list(question.key)})
    if responses == "none":
        return payload
    from ai4hse_desk.verdicts.rescore import iter_verdicts  # the rescore loop: only here

    for verdict in iter_verdicts(audit):
        if verdict.question_id not in wanted:
            continue
        outcome = verdict.outcome
        payload.attempts.append(
            {
                "attempt_id": verdict.attempt_id,
                "run_id": verdict.run_id,
                "question_id": verdict.question_id,
                "repetition": verdict.repetition,
                "status": outcome.status.value,
                "selection": None if outcome.selection is None else list(outcome.selection),
                "strict_format": outcome.strict_format,
                "response": None,
            }
        )
    if responses == "full":
        by_id = {row["attempt_id"]: row for row in payload.attempts}
        ids = list(by_id)
        for start in range(0, len(ids), _CHUNK):
            for attempt in audit.attempts_by_ids(ids[start : start + _CHUNK]):
                by_id[attempt.attempt_id]["response"] = _visible_nul(attempt.raw_response)
    used = {row["run_id"] for row in payload.attempts}
    payload.runs.extend(
        {
            "run_id": run.run_id,
            "model": run.model,
            "track": run.track.value,
            "protocol_version": run.protocol_version,
        }
        for run in audit.runs()
        if run.run_id in used
    )
    return payload


#: The column definitions ``jsonb_to_recordset`` reads each table's rows with.
COLUMNS: Final = {
    "questions": "question_id text, ordinal integer, text text",
    "options": "question_id text, position integer, text text",
    "keys": "question_id text, key boolean[]",
    "runs": "run_id text, model text, track text, protocol_version integer",
    "attempts": "attempt_id bigint, run_id text, question_id text, repetition integer, "
    "status text, selection boolean[], strict_format boolean, response text",
}
