"""The review report (cli.md, "Review") as one self-contained page a panel can publish.

No Qt, no script, no image, no external resource: inline CSS only
(:mod:`.report_markup`), printable on A4. Every value is escaped and every text has
its invisible and bidi characters made visible, so nothing a reviewer or the audit
file wrote is ever markup or hidden.

The page: a header (when, by which desk and protocol, on which file, the plan with its
creator, order and seed), a summary, the method in words, plan and coverage,
reviewers with their effort, verdicts, agreement, final states, decisions, questions
concerned, the key audit's check, the sensitivity table (NOT OFFICIAL, four clearly
named columns; an unscored run says why: :mod:`.report_sensitivity`) and an appendix
with the evidence per question (:mod:`.report_appendix`). Codes (``key_corrected``)
are shown in words; where a code is shown beside its words it never breaks.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk import __version__
from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.html_table import Html, grid
from ai4hse_desk.review.final_state import FINAL_STATES
from ai4hse_desk.review.names import decision_name, verdict_name
from ai4hse_desk.review.report_appendix import appendix
from ai4hse_desk.review.report_markup import (
    CSS,
    duration,
    facts,
    interval,
    pct,
    private_block,
    sentence,
    text,
    when,
)
from ai4hse_desk.review.report_sensitivity import sensitivity
from ai4hse_desk.review.values import VERDICTS

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

TITLE: Final = "AI4HSE-Bench review report"
_STATISTICS: Final = {
    "cohen_kappa": "Cohen's κ",
    "krippendorff_alpha": "Krippendorff's α (nominal)",
    "krippendorff_alpha_nominal": "Krippendorff's α (nominal)",
}
_MEASURES: Final = (
    ("concern", "concern vs key correct"),
    ("category", "verdict category"),
    ("blind_options", "blind answers per option"),
)


def _key_text(key: Sequence[Any] | None) -> str:
    """``[true, false]`` → ``"A TRUE, B FALSE"``; ``"—"`` without a key."""
    if not key:
        return "—"
    flags = (v if isinstance(v, bool) else str(v).upper() == "TRUE" for v in key)
    return ", ".join(f"{option_letter(i)} {'TRUE' if f else 'FALSE'}" for i, f in enumerate(flags))


def _with_private(
    header: Sequence[str],
    items: Sequence[Mapping[str, Any]],
    lines: list[list[object]],
    *,
    appendix: bool,
    empty: str,
) -> str:
    """A table of ``lines``; the private question texts of ``items`` in a last column,
    unless the evidence appendix shows them (``appendix``)."""
    if not appendix and any("question_text" in i or "options" in i for i in items):
        header = (*header, "question text and options")
        lines = [[*line, private_block(item)] for line, item in zip(lines, items, strict=True)]
    return grid(header, lines, wide=True, empty=empty)


def _pick(item: Mapping[str, Any], keys: Iterable[str], missing: object = "—") -> list[object]:
    return [item.get(k, missing) for k in keys]


def plan_text(plan: Mapping[str, Any] | None) -> str:
    """The plan in one sentence: K, order (and seed only for a random order), size."""
    if plan is None:
        return "no plan"
    order = str(plan.get("order"))
    if order == "random":
        ordered = f"random order, seed {plan.get('seed')}"
    elif order == "keyaudit":
        ordered = "key-audit order (most suspect first)"
    else:
        ordered = "corpus order"
    return (
        f"K = {plan.get('per_question')} reviewers per question, {ordered}, "
        f"{plan.get('questions')} questions"
    )


def _header(report: Mapping[str, Any]) -> list[str]:
    audit = report.get("audit") or {}
    name = re.split(r"[\\/]", str(audit.get("path") or ""))[-1]
    plan = report.get("plan") or (report.get("status") or {}).get("plan")
    pairs: list[tuple[str, object]] = []
    if report.get("generated_at"):
        pairs.append(("Generated", when(report["generated_at"])))
    pairs.append(("Made by", f"AI4HSE Desk {report.get('desk_version') or __version__}"))
    if report.get("protocol_version") is not None:
        pairs.append(("Protocol version", report["protocol_version"]))
    pairs += [("Audit file", name),
              ("Audit SHA-256", Html(f'<span class="hash">{text(audit.get("sha256"))}</span>')),
              ("Plan", plan_text(plan))]  # fmt: skip
    if plan and plan.get("created_by"):
        made = f"{plan['created_by']}, {when(plan.get('created_at'))}"
        pairs.append(("Plan made by", made))
    if plan and plan.get("reviewers"):
        pairs.append(("Reviewers", ", ".join(map(str, plan["reviewers"]))))
    return [
        f"<h1>{text(TITLE)}</h1>",
        '<p class="lead">An independent expert review of the questions and their answer keys. '
        "No official score depends on it; the sensitivity section near the end is not "
        "official.</p>",
        facts(pairs),
    ]


def _summary(report: Mapping[str, Any]) -> list[str]:
    states = (report.get("final_states") or {}).copy()
    status = report.get("status") or {}
    cover = status.get("coverage") or {}
    effort = report.get("effort") or {}
    pairs: list[tuple[str, object]] = []
    if cover:
        pairs.append(("Questions in the review", cover.get("questions")))
    if states:
        shown = [f"{FINAL_STATES.get(k, k)}: {n}" for k, n in states.items() if n]
        pairs.append(("Where they stand", "; ".join(shown) or "—"))
    concern = (report.get("agreement") or {}).get("concern")
    if concern:
        measure = _measure("", concern)
        pairs.append(("Agreement on concerns", f"{measure[1]} = {measure[2]}"))
    check = report.get("key_audit_check")
    if check:
        pairs.append(("The key audit's top 10 %", _check_line(check)))
    if effort:
        pairs.append(("Confirmed key errors per reviewer-hour", _rate(effort)))
    return ["<h2>Summary</h2>", facts(pairs)] if pairs else []


def _check_line(check: Mapping[str, Any]) -> str:
    settled, corrected = check.get("settled") or 0, check.get("corrected") or 0
    if not settled:
        return f"none of its {check.get('top')} questions settled by the review yet"
    shown = interval(check.get("wilson_low"), check.get("wilson_high"))
    return (
        f"{corrected:,} of {settled:,} settled keys corrected ({pct(check.get('share'))}, {shown})"
    )


def _rate(effort: Mapping[str, Any]) -> str:
    rate = effort.get("confirmed_key_errors_per_reviewer_hour")
    if rate is None:
        return f"undefined: {effort.get('undefined_reason') or 'no figure'}"
    hours = duration(None if effort.get("reviewer_hours") is None
                     else float(effort["reviewer_hours"]) * 3600)  # fmt: skip
    basis = "estimated" if effort.get("basis") == "estimated" else "measured"
    errors = effort.get("confirmed_key_errors")
    return f"{float(rate):.2f} ({errors} corrected keys over {hours} of reviewer time, {basis})"


def _method(method: Mapping[str, Any] | None) -> list[str]:
    if not method:
        return []
    agreement = method.get("agreement") or {}
    terms: list[tuple[str, object]] = [
        ("Reviewers per question (K)", method.get("per_question") or "no plan: two or more"),
        ("Blind rule", method.get("blind_rule")),
        ("Adjudication", method.get("adjudication_rule")),
        *((f"Agreement: {k.replace('_', ' ')}", v) for k, v in agreement.items()),
        ("Reviewer effort", method.get("effort")),
        ("Key audit check", method.get("key_audit_check")),
    ]
    states = method.get("final_states") or {}
    if states:
        words = "; ".join(f"{v} ({k.replace('_', ' ')})" for k, v in states.items())
        terms.append(("Final states", words))
    return ["<h2>Method</h2>", facts([(k, sentence(v)) for k, v in terms if v], "terms")]


def _status(report: Mapping[str, Any]) -> list[str]:
    status = report.get("status") or {}
    cover = {**(status.get("coverage") or {}), **(status.get("adjudication") or {})}
    keys = ("questions", "fully_reviewed", "partly_reviewed", "unreviewed", "needed", "decided")
    coverage = ("questions", "fully reviewed", "partly reviewed", "no verdict yet",
                "entered adjudication", "decided")  # fmt: skip
    effort = {r.get("reviewer"): r for r in (report.get("effort") or {}).get("reviewers", [])}
    header = ["reviewer", "assigned", "submitted", "drafts", "remaining"]
    if effort:
        header += ["timed verdicts", "active time", "median per verdict"]
    reviewers = []
    for row in status.get("reviewers", []):
        line = _pick(row, ("reviewer", "assigned", "submitted", "drafts", "remaining"))
        if effort:
            mine = effort.get(row.get("reviewer")) or {}
            line += [mine.get("timed", 0), duration(mine.get("active_seconds")),
                     duration(mine.get("median_seconds_per_verdict"))]  # fmt: skip
        reviewers.append(line)
    return [
        "<h2>Plan and coverage</h2>",
        facts([("Plan", plan_text(status.get("plan")))]),
        grid(coverage, [_pick(cover, keys, 0)]),
        "<h2>Reviewers</h2>",
        grid(header, reviewers, empty="No reviewer yet: no plan and no verdict."),
    ]


def _measure(measure: str, figure: Mapping[str, Any]) -> list[object]:
    value, stat = figure.get("value"), figure.get("statistic")
    shown = f"{value:.3f}" if value is not None else f"undefined: {figure.get('undefined_reason')}"
    name = _STATISTICS.get(str(stat), str(stat))
    return [measure, name, shown, *_pick(figure, ("units", "reviewers"))]


def _share(label: str, share: Mapping[str, Any]) -> list[object]:
    shown = interval(share.get("wilson_low"), share.get("wilson_high"))
    return [label, *_pick(share, ("agree", "of")), pct(share.get("share")), shown]


def _agreement(agreement: Mapping[str, Any]) -> list[str]:
    lines = [_measure(m, agreement[k]) for k, m in _MEASURES if agreement.get(k)]
    blind = agreement.get("blind_vs_key") or {}
    named = (("options answered", "options"), ("whole answers (no UNSURE)", "questions"))
    shares = [_share(label, blind[k]) for label, k in named if blind.get(k)]
    definition = agreement.get("definition")
    return [
        "<h2>Agreement</h2>",
        f'<p class="note">{text(sentence(definition))}</p>' if definition else "",
        grid(
            ("measure", "statistic", "value", "units", "reviewers"),
            lines,
            empty="No question has two submitted verdicts yet.",
        ),
        "<h3>Blind answers vs key</h3>",
        grid(
            ("counted", "agree", "of", "share", "95% Wilson interval"),
            shares,
            empty="No blind answer submitted yet.",
        ),
    ]


def _code(code: object) -> Html:
    return Html(f'<td class="t"><code>{text(code)}</code></td>')


def _verdicts(counts: Mapping[str, Any]) -> list[str]:
    order = [*VERDICTS, *(v for v in counts if v not in VERDICTS)]
    lines = [[verdict_name(v), _code(v), counts.get(v, 0)] for v in order]
    return ["<h2>Verdicts per category</h2>", grid(("verdict", "code", "count"), lines)]


def _final_states(states: Mapping[str, Any] | None) -> list[str]:
    if not states:
        return []
    lines = [[FINAL_STATES.get(k, k), _code(k), n] for k, n in states.items()]
    return ["<h2>Final states</h2>", grid(("state", "code", "questions"), lines)]


def _decision(d: Mapping[str, Any]) -> list[object]:
    return [d.get("question_id"), decision_name(d.get("decision")), _key_text(d.get("key")),
            d.get("adjudicator"), when(d.get("at")) if d.get("at") else "—",
            d.get("note") or ""]  # fmt: skip


def _concerned(q: Mapping[str, Any]) -> list[object]:
    verdicts = ", ".join(f"{verdict_name(v)}: {n}" for v, n in (q.get("verdicts") or {}).items())
    return [q.get("question_id"), verdicts, "yes" if q.get("in_adjudication") else "no"]


def _key_audit_check(check: Mapping[str, Any] | None) -> list[str]:
    if not check:
        return []
    top, others = check, check.get("others") or {}
    ranked = int(check.get("ranked") or 0)
    rest = ranked - int(check.get("top") or 0)

    def line(label: str, part: Mapping[str, Any]) -> list[object]:
        shown = interval(part.get("wilson_low"), part.get("wilson_high"))
        return [label, part.get("settled"), part.get("corrected"), pct(part.get("share")),
                shown, part.get("excluded")]  # fmt: skip

    header = ("questions", "settled by the review", "key corrected", "share corrected",
              "95% Wilson interval", "excluded")  # fmt: skip
    return [
        "<h2>Key audit check</h2>",
        f'<p class="note">{text(sentence(check.get("definition")))}</p>',
        grid(
            header,
            [
                line(f"the key audit's top 10 % ({top.get('top')} questions)", top),
                line(f"the other questions ({rest})", others),
            ],
        ),
    ]


def render_review_html(report: Mapping[str, Any]) -> str:
    """The review report as one self-contained, printable HTML document.

    Args:
        report: the ``review report --format json`` object (cli.md, "Review"); the
            parts it lacks are left out.

    Returns:
        The whole page, ending with a newline.
    """
    decisions = report.get("decisions") or []
    concerned = report.get("questions_concerned")
    shown = report.get("evidence") or []
    private = any("question_text" in i or "options" in i
                  for i in [*decisions, *(concerned or []), *shown])  # fmt: skip
    decided = ("question", "decision", "corrected key", "adjudicator", "decided", "note")
    decision_table = _with_private(decided, decisions, [_decision(d) for d in decisions],
                                   appendix=bool(shown), empty="No decision yet.")  # fmt: skip
    body = [
        *_header(report),
        *_summary(report),
        *_method(report.get("method")),
        *_status(report),
        *_verdicts(report.get("verdicts") or {}),
        *_agreement(report.get("agreement") or {}),
        *_final_states(report.get("final_states")),
        "<h2>Decisions</h2>",
        decision_table,
    ]
    if concerned is not None:
        header = ("question", "verdicts", "in adjudication")
        lines = [_concerned(q) for q in concerned]
        body += ["<h2>Questions concerned</h2>",
                 _with_private(header, concerned, lines, appendix=bool(shown),
                               empty="No submitted verdict raises a concern yet.")]  # fmt: skip
    check = report.get("key_audit_check")
    body += _key_audit_check(check)
    body += sensitivity(report.get("sensitivity") or [])
    body += appendix(shown, None if not check else check.get("ranked"))
    privacy = "includes private question and option text" if private else "holds no question text"
    version = report.get("desk_version") or __version__
    body.append(f'<p class="muted">This report {privacy}. Made by AI4HSE Desk {text(version)}.</p>')
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{text(TITLE)}</title><style>{CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )
