"""The review report's appendix: the evidence per question, readable without the desk.

One block per question with a submitted concern or a decision (the report's
``evidence``): why it entered adjudication, its key-audit rank and final state, then
an option grid — the official key, each reviewer's blind answer and proposed key,
and the corrected key — in which every value that differs from the official key is
bold on a shaded, underlined cell (readable in black and white too), then each
reviewer's verdict, confidence, source and note, and the decision with its note.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.html_table import Html, grid
from ai4hse_desk.review.names import CONFIDENCE_NAMES, decision_name, reason_words, verdict_name
from ai4hse_desk.review.report_markup import facts, private_block, text, when

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

TITLE: Final = "Appendix: evidence per question"
LEGEND: Final = (
    "For each question with a reviewer's concern or an adjudicator's decision: the official "
    "key beside every reviewer's blind answer (given before the key was shown) and proposed "
    "key, and the corrected key. A value that differs from the official key is bold, "
    "underlined and shaded. UNSURE is a blind answer's “don't know”; — means not given."
)


def _values(values: Sequence[Any] | None, n: int) -> list[str | None]:
    if values is None:
        return [None] * n
    shown: list[str | None] = []
    for value in values:
        if isinstance(value, bool):
            shown.append("TRUE" if value else "FALSE")
        else:
            shown.append(str(value).upper())
    return shown


def _row(label: str, values: Sequence[Any] | None, key: Sequence[str | None]) -> list[object]:
    cells: list[object] = [label]
    for value, official in zip(_values(values, len(key)), key, strict=True):
        if value is None:
            cells.append(Html('<td class="c">—</td>'))
        else:
            differs = value != official
            kind = "c d" if differs else "c"
            cells.append(Html(f'<td class="{kind}">{text(value)}</td>'))
    return cells


def _grid(item: Mapping[str, Any]) -> str:
    key = _values(item.get("official_key"), 0)
    header = ["", *(option_letter(i) for i in range(len(key)))]
    lines = [_row("Official key", item.get("official_key"), key)]
    for v in item.get("verdicts") or ():
        who = str(v.get("reviewer"))
        blind = v.get("blind_answer")
        label = f"{who}: blind answer" if blind is not None else f"{who}: not blind"
        lines.append(_row(label, blind, key))
        if v.get("proposed_key") is not None:
            lines.append(_row(f"{who}: proposed key", v.get("proposed_key"), key))
    decision = item.get("decision") or {}
    if decision.get("key") is not None:
        lines.append(_row("Corrected key (decision)", decision.get("key"), key))
    return grid(header, lines)


def _verdicts(item: Mapping[str, Any]) -> str:
    lines = [
        [
            v.get("reviewer"),
            verdict_name(v.get("verdict")),
            CONFIDENCE_NAMES.get(str(v.get("confidence")), "—"),
            v.get("source") or "—",
            v.get("note") or "—",
        ]
        for v in item.get("verdicts") or ()
    ]
    header = ("reviewer", "verdict", "confidence", "source checked", "note")
    return grid(header, lines, wide=True, empty="No submitted verdict.")


def _decision(decision: Mapping[str, Any] | None) -> str:
    if not decision:
        return "not decided yet"
    parts = [decision_name(decision.get("decision"))]
    parts.append(f"by {decision.get('adjudicator')}")
    if decision.get("at"):
        parts.append(f"on {when(decision['at'])}")
    note = decision.get("note")
    return " ".join(parts) + (f" — “{note}”" if note else "")


def _rank(rank: object, ranked: int | None) -> str:
    if rank is None:
        return "not ranked"
    shown = f"{rank:,}" if isinstance(rank, int) else str(rank)
    return f"{shown} of {ranked:,} (1 = most suspect)" if ranked else f"{shown} (1 = most suspect)"


def _block(item: Mapping[str, Any], ranked: int | None) -> str:
    qid = item.get("question_id")
    state = (item.get("final_state") or {}).get("text") or ""
    reasons = reason_words(item.get("reasons") or ())
    rank = item.get("key_audit_rank")
    pairs: list[tuple[str, object]] = [
        ("In adjudication because", reasons or "not in adjudication"),
        ("Key audit rank", _rank(rank, ranked)),
        ("Decision", _decision(item.get("decision"))),
    ]
    if item.get("question_text") or item.get("options"):
        pairs.insert(0, ("Question", private_block(item)))
    badge = f' <span class="badge">{text(state)}</span>' if state else ""
    return (
        f'<section class="evidence"><h3>{text(qid)}{badge}</h3>'
        f"{facts(pairs)}{_grid(item)}{_verdicts(item)}</section>"
    )


def appendix(evidence: Sequence[Mapping[str, Any]], ranked: int | None = None) -> list[str]:
    """The appendix's parts (nothing when no question has a concern or a decision);
    ``ranked``: how many questions the key audit ranked."""
    if not evidence:
        return []
    return [f'<h2 class="appendix">{text(TITLE)}</h2>', f'<p class="note">{text(LEGEND)}</p>',
            *(_block(item, ranked) for item in evidence)]  # fmt: skip
