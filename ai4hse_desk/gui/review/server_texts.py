"""What the server window writes as plain text: the reveal, the others' verdicts, a queue item.

No Qt here: each function turns one of the server's JSON objects (cli.md's shapes) into
lines a read-only text panel shows, or (:func:`response_rows`) into the rows of the
responses table the local Review page shows too. Every text that came from the server (a
question, an option, a response, a note, a name) has its invisible and bidi characters
made visible (:func:`~ai4hse_desk.display.text_sanitize.display_text`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ai4hse_desk.display.format import option_letter, plural
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.protocol.outcome import Selection, Status, Track
from ai4hse_desk.review.names import decision_name, reason_words, verdict_name
from ai4hse_desk.review.values import FALSE, TRUE

if TYPE_CHECKING:
    from collections.abc import Sequence

#: Characters of a raw response shown in the reveal (the rest is cut, with a count).
RESPONSE_SHOWN = 400


def _flag(value: object) -> str:
    return "TRUE" if value is True else "FALSE" if value is False else str(value)


def key_values(values: Sequence[object] | None) -> tuple[str, ...]:
    """A key or an answer the server sent (Booleans or ``"TRUE"``/``"FALSE"``) as one
    TRUE or FALSE per option."""
    return tuple(TRUE if value is True or value == TRUE else FALSE for value in values or ())


def _listed(values: Sequence[object] | None) -> str:
    if values is None:
        return "—"
    return ", ".join(f"{option_letter(i)} {_flag(v)}" for i, v in enumerate(values))


def progress_line(progress: dict[str, Any], role: str) -> str:
    """``"ann · 37 of 50 submitted · 2 drafts · 13 remaining"`` (``1 draft``)."""
    return (
        f"{display_text(role)} · {progress.get('submitted', 0):,} of "
        f"{progress.get('assigned', 0):,} submitted · {plural(progress.get('drafts', 0), 'draft')}"
        f" · {progress.get('remaining', 0):,} remaining"
    )


def verdict_line(verdict: dict[str, Any]) -> str:
    """One verdict: who, what, the proposed key, the confidence, the source and note."""
    parts = [
        f"{display_text(str(verdict.get('reviewer')))}: "
        f"{display_text(verdict_name(str(verdict.get('verdict'))))}"
    ]
    if verdict.get("proposed_key"):
        parts.append(f"proposed key {_listed(verdict['proposed_key'])}")
    if verdict.get("blind_answer"):
        parts.append(f"blind answer {_listed(verdict['blind_answer'])}")
    if verdict.get("confidence"):
        parts.append(f"confidence {display_text(str(verdict['confidence']))}")
    if verdict.get("source"):
        parts.append(f"source: {display_text(str(verdict['source']))}")
    if verdict.get("note"):
        parts.append(f"note: {display_text(str(verdict['note']))}")
    return " · ".join(parts)


def _runs(runs: Sequence[dict[str, Any]], options: int) -> list[str]:
    lines = []
    chosen = [0] * options
    attempts = 0  # with a selection: what the counts are out of, as in the local window
    for run in runs:
        lines.append(
            f"{display_text(str(run['run_id']))} ({display_text(str(run['model']))}, "
            f"{display_text(str(run['track']))})"
        )
        for attempt in run.get("attempts") or ():
            selection = attempt.get("selection")
            mark = "✓" if attempt.get("correct") else "✗"
            line = (
                f"  rep {display_text(str(attempt.get('repetition')))}: "
                f"{display_text(str(attempt.get('status')))} {mark} "
            )
            line += _listed(selection) if selection is not None else "no selection"
            if attempt.get("response") is not None:
                shown = display_text(str(attempt["response"]), RESPONSE_SHOWN)
                line += f" — response: {shown.replace(chr(10), ' ⏎ ')}"
            lines.append(line)
            attempts += selection is not None
            for i, value in enumerate(selection or ()):
                if value is True and i < options:
                    chosen[i] += 1
    counts = ", ".join(f"{option_letter(i)} {n}" for i, n in enumerate(chosen))
    head = (
        [f"Attempts selecting each option: {counts} (of {plural(attempts, 'attempt')} with "
         "a selection)"]
        if attempts else []
    )  # fmt: skip
    return [*head, *lines]


@dataclass(frozen=True)
class ServerAttempt:
    """An attempt a review server released, as the responses table reads it
    (:class:`~.texts.ResponseRow`)."""

    attempt_id: int
    run_id: str
    model: str
    track: Track
    repetition: int
    status: Status
    correct: bool
    selection: Selection | None


def response_rows(shown: dict[str, Any]) -> list[ServerAttempt]:
    """Every attempt ``shown`` released, run by run; none at all when a value is not one
    the desk knows (a status or track of another version): the text says everything."""
    rows = []
    try:
        for run in shown.get("runs") or ():
            track = Track(str(run["track"]))
            for attempt in run.get("attempts") or ():
                picked = attempt.get("selection")
                rows.append(ServerAttempt(
                    int(attempt["attempt_id"]), str(run["run_id"]), str(run["model"]), track,
                    int(attempt["repetition"]), Status(str(attempt["status"])),
                    attempt.get("correct") is True,
                    None if picked is None else tuple(value is True for value in picked),
                ))  # fmt: skip
    except (KeyError, TypeError, ValueError):
        return []
    return rows


def reveal_text(shown: dict[str, Any]) -> str:
    """What the server released of a question after the blind answer (empty before it)."""
    if shown.get("key") is None:
        return ""
    options = len(shown.get("options") or ())
    mine = shown.get("verdict") or {}
    lines = [f"Official key: {_listed(shown['key'])}"]
    if mine.get("blind_answer") is not None:
        lines.append(f"Your blind answer: {_listed(mine['blind_answer'])}")
    elif mine:
        lines.append("Your answer: recorded as not blind")
    others = shown.get("others")
    if others is None:
        lines.append("Other reviewers' verdicts: hidden until you submit your verdict.")
    else:  # before the runs, which are long: what one reopens a submitted question for
        mine_too = shown.get("role") == "reviewer"  # an adjudicator's are all "other"
        heading = "Other reviewers' submitted verdicts:" if mine_too else "Submitted verdicts:"
        lines.append(heading if others else "No other verdict yet.")
        lines += [f"  {verdict_line(v)}" for v in others]
    if shown.get("decision"):
        decision = shown["decision"]
        lines.append(
            f"Decision: {display_text(decision_name(str(decision['decision'])))} by "
            f"{display_text(str(decision['adjudicator']))}"
        )
    runs = shown.get("runs") or []
    lines += ["", *(_runs(runs, options) or ["No run's attempts were published."])]
    return "\n".join(lines)


def queue_item_text(item: dict[str, Any]) -> str:
    """The list entry of an adjudication queue item."""
    decision = item.get("decision")
    state = f" · {display_text(decision_name(str(decision['decision'])))}" if decision else ""
    reasons = display_text(reason_words(item["reasons"]))
    return f"{display_text(str(item['question_id']))} — {reasons}{state}"


def detail_text(shown: dict[str, Any]) -> str:
    """A question of the adjudication queue: its text, options, key, runs and verdicts."""
    options = shown.get("options") or []
    lines = [display_text(str(shown.get("text", ""))), ""]
    lines += [f"{option_letter(i)}  {display_text(str(t))}" for i, t in enumerate(options)]
    lines += ["", reveal_text(shown)]
    return "\n".join(lines)
