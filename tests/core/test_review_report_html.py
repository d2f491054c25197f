"""The review report as HTML (cli.md, "Review"): every figure shown, nothing unescaped."""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from ai4hse_desk import __version__
from ai4hse_desk.review.report_html import render_review_html
from ai4hse_desk.review.values import VERDICTS

HOSTILE = '<script>alert(1)</script>"><img src=x onerror=1>\u202eevil\u200bzw\x1b[31m'
SHA = "ab" * 32


def _rep(number: int, attempts: int, correct: int, low: float, high: float) -> dict[str, Any]:
    return {"repetition": number, "attempts": attempts, "correct": correct,
            "exact_accuracy": correct / attempts,
            "wilson_low": low, "wilson_high": high}  # fmt: skip


def make_report(**private: Any) -> dict[str, Any]:
    """A realistic report: 3 reviewers (one yet to submit), 2 tracks, an unscored run."""
    status = {
        "audit": {"path": "/home/ann/bench/audit.sqlite", "sha256": SHA},
        "plan": {"per_question": 2, "questions": 40, "order": "random", "seed": 7},
        "reviewers": [
            {"reviewer": "ann", "assigned": 27, "submitted": 20, "drafts": 2, "remaining": 7},
            {"reviewer": "bob", "assigned": 27, "submitted": 18, "drafts": 1, "remaining": 9},
            {"reviewer": "cy", "assigned": 26, "submitted": 0, "drafts": 0, "remaining": 26},
        ],
        "coverage": {"questions": 40, "fully_reviewed": 12, "partly_reviewed": 14,
                     "unreviewed": 14},
        "adjudication": {"needed": 4, "decided": 3},
    }  # fmt: skip
    decision = {"question_id": "Q017", "decision": "key_corrected",
                "key": [True, False, True, False], "adjudicator": "dee",
                "note": "two options are right per ISO 45001"}  # fmt: skip
    excluded = {"question_id": "Q021", "decision": "question_excluded", "key": None,
                "adjudicator": "dee", "note": None}  # fmt: skip
    concerned = {"question_id": "Q017", "verdicts": {"key_wrong": 2}, "in_adjudication": True}
    for item in (decision, concerned):
        item.update(private)
    return {
        "audit": status["audit"],
        "status": status,
        "verdicts": {"key_ok": 30, "key_wrong": 5, "multiple_defensible": 2, "unclear_question": 1},
        "agreement": {
            "definition": "units: questions with two or more submitted verdicts",
            "concern": {"statistic": "cohen_kappa", "value": None, "units": 12, "reviewers": 2,
                        "undefined_reason": "no variation: every rating is the same"},
            "category": {"statistic": "cohen_kappa", "value": 0.61237, "units": 12,
                         "reviewers": 2, "undefined_reason": None},
            "blind_options": {"statistic": "krippendorff_alpha", "value": -0.0504, "units": 48,
                              "undefined_reason": None},
            "blind_vs_key": {
                "options": {"agree": 150, "of": 160, "share": 0.9375, "wilson_low": 0.888,
                            "wilson_high": 0.966},
                "questions": {"agree": 0, "of": 0, "share": None, "wilson_low": None,
                              "wilson_high": None},
            },
        },
        "decisions": [decision, excluded],
        "questions_concerned": [concerned],
        "sensitivity": [
            {"run_id": "r1", "track": "answer_only", "model": "gpt-x", "official": 0.31,
             "without_excluded": 0.3163, "with_corrected_keys": 0.33, "not_official": True,
             "repetitions": {
                 "official": [_rep(1, 100, 31, 0.2284, 0.4057), _rep(2, 100, 30, 0.22, 0.39)],
                 "without_excluded": [_rep(1, 98, 31, 0.2336, 0.4116)],
                 "with_corrected_keys": [_rep(1, 98, 33, 0.2514, 0.4377)]}},
            {"run_id": "r2", "track": "answer_only", "model": "m2", "official": None,
             "without_excluded": None, "with_corrected_keys": None, "not_official": True},
            {"run_id": "r3", "track": "reasoning", "official": 0.5,
             "without_excluded": 0.5, "with_corrected_keys": 0.512, "not_official": True},
        ],
    }  # fmt: skip


class _Doc(HTMLParser):
    """Tags, attributes, tables (rows of (tag, text) cells) and the open-tag stack."""

    VOID = frozenset({"meta", "br"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[str] = []
        self.stack: list[str] = []
        self.tables: list[list[list[tuple[str, str]]]] = []
        self.errors: list[str] = []
        self.first_row_in_thead: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += [name for name, _ in attrs]
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            if not self.tables[-1]:
                self.first_row_in_thead.append("thead" in self.stack)
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.tables[-1][-1].append((tag, ""))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"unbalanced </{tag}>")

    def handle_data(self, data: str) -> None:
        if self.tables and self.tables[-1] and self.tables[-1][-1] and "td" in self.stack[-2:]:
            kind, text = self.tables[-1][-1][-1]
            self.tables[-1][-1][-1] = (kind, text + data)


def parse(page: str) -> _Doc:
    doc = _Doc()
    doc.feed(page)
    doc.close()
    return doc


def section(page: str, heading: str) -> str:
    """The page from the ``<h2>`` holding ``heading`` up to the next ``<h2>``."""
    start = page.index(f"<h2>{heading}")
    end = page.find("<h2>", start + 4)
    return page[start : end if end != -1 else len(page)]


def rows(doc: _Doc) -> list[list[str]]:
    return [[text for _, text in row] for table in doc.tables for row in table[1:]]


def test_well_formed_and_every_table_has_a_header_row() -> None:
    doc = parse(render_review_html(make_report(question_text="q?", options=["a", "b"])))
    assert doc.errors == []
    assert doc.stack == []
    assert len(doc.tables) >= 10
    assert doc.first_row_in_thead == [True] * len(doc.tables)
    for table in doc.tables:
        assert table
        assert table[0]
        assert all(kind == "th" for kind, _ in table[0])
        assert all(kind == "td" for row in table[1:] for kind, _ in row)
        assert {len(row) for row in table} == {len(table[0])}


def test_header_plan_coverage_reviewers_and_footer() -> None:
    page = render_review_html(make_report())
    assert "<title>AI4HSE-Bench review report</title>" in page
    assert "<h1>AI4HSE-Bench review report</h1>" in page
    assert "audit.sqlite" in page
    assert SHA in page
    assert "/home/ann" not in page
    assert "K = 2 reviewers per question, order random, seed 7, 40 questions" in page
    table = rows(parse(page))
    assert ["40", "12", "14", "14", "4", "3"] in table
    assert ["ann", "27", "20", "2", "7"] in table
    assert ["bob", "27", "18", "1", "9"] in table
    assert ["cy", "26", "0", "0", "26"] in table
    assert f"AI4HSE Desk {__version__}" in page
    assert "@media print" in page


def test_no_plan() -> None:
    report = make_report()
    report["status"]["plan"] = None
    assert "<dd>no plan</dd>" in render_review_html(report)


def test_all_nine_verdicts_in_order_zero_included() -> None:
    part = section(render_review_html(make_report()), "Verdicts per category")
    shown = rows(parse(part))
    assert [line[0] for line in shown] == list(VERDICTS)
    assert dict((v, int(n)) for v, n in shown) == {
        "key_ok": 30, "key_wrong": 5, "multiple_defensible": 2, "no_correct_option": 0,
        "unclear_question": 1, "unclear_options": 0, "outdated_or_jurisdiction": 0,
        "typo_or_format": 0, "other": 0,
    }  # fmt: skip


def test_agreement_figures() -> None:
    shown = rows(parse(section(render_review_html(make_report()), "Agreement")))
    assert ["concern vs key_ok", "Cohen's κ", "undefined: no variation: every rating is the same",
            "12", "2"] in shown  # fmt: skip
    assert ["verdict category", "Cohen's κ", "0.612", "12", "2"] in shown
    assert ["blind answers per option", "Krippendorff's α (nominal)", "-0.050", "48", "—"] in shown
    assert ["options answered", "150", "160", "93.8%", "88.8%–96.6%"] in shown
    assert ["whole answers (no UNSURE)", "0", "0", "—", "—"] in shown
    assert "units: questions with two or more submitted verdicts" in section(
        render_review_html(make_report()), "Agreement"
    )


def test_decisions_and_questions_concerned() -> None:
    page = render_review_html(make_report())
    shown = rows(parse(section(page, "Decisions")))
    assert shown == [
        ["Q017", "key_corrected", "A TRUE, B FALSE, C TRUE, D FALSE", "dee",
         "two options are right per ISO 45001"],
        ["Q021", "question_excluded", "—", "dee", ""],
    ]  # fmt: skip
    assert rows(parse(section(page, "Questions concerned"))) == [["Q017", "key_wrong: 2", "yes"]]


def test_sensitivity_per_track_not_official() -> None:
    page = render_review_html(make_report())
    part = page[page.index('<section class="exploration"') : page.index("</section>")]
    assert "<h2>Sensitivity — NOT OFFICIAL</h2>" in part
    assert "<h3>Sensitivity — NOT OFFICIAL — track answer_only</h3>" in part
    assert "<h3>Sensitivity — NOT OFFICIAL — track reasoning</h3>" in part
    assert 'Only the "official (rescore)" figures are official.' in part
    assert "NOT OFFICIAL" not in page[: page.index('<section class="exploration"')]
    shown = rows(parse(part))
    assert ["r1", "gpt-x", "31.0%", "31.6%", "33.0%"] in shown
    assert ["r2", "m2", "—", "—", "—"] in shown
    assert ["r3", "—", "50.0%", "50.0%", "51.2%"] in shown
    assert ["r1", "1", "31.0% [22.8%–40.6%] (31/100)", "31.6% [23.4%–41.2%] (31/98)",
            "33.7% [25.1%–43.8%] (33/98)"] in shown  # fmt: skip
    assert ["r1", "2", "30.0% [22.0%–39.0%] (30/100)", "—", "—"] in shown
    assert not any(line[0] in ("r2", "r3") and len(line) == 5 and line[1] == "1" for line in shown)


def test_private_text_only_when_given() -> None:
    public = render_review_html(make_report())
    assert "question text and options" not in public
    assert "<li>" not in public
    assert "holds no question text" in public
    page = render_review_html(make_report(question_text="Which PPE?", options=["Gloves", "Hat"]))
    assert page.count("<div>Which PPE?</div>") == 2
    assert page.count("<li>A. Gloves</li><li>B. Hat</li>") == 2
    assert "includes private question and option text" in page


@pytest.mark.parametrize("where", ["note", "reviewer", "adjudicator", "question_text", "options"])
def test_hostile_text_is_escaped_and_made_visible(where: str) -> None:
    report = make_report(question_text="q", options=["a", "b"])
    if where == "note":
        report["decisions"][0]["note"] = HOSTILE
    elif where == "reviewer":
        report["status"]["reviewers"][0]["reviewer"] = HOSTILE
    elif where == "adjudicator":
        report["decisions"][0]["adjudicator"] = HOSTILE
    elif where == "question_text":
        report["questions_concerned"][0]["question_text"] = HOSTILE
    else:
        report["decisions"][0]["options"] = ["ok", HOSTILE]
    page = render_review_html(report)
    assert "<script" not in page.lower()
    assert "<img" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=1&gt;" in page
    assert "⟨RLO⟩evil⟨ZWSP⟩zw⟨ESC⟩[31m" in page
    assert not {"\u202e", "\u200b", "\x1b"} & set(page)
    doc = parse(page)
    assert not {"script", "img", "a", "link", "iframe", "object"} & set(doc.tags)
    assert not {"src", "href", "onerror"} & set(doc.attrs)


def test_no_external_resources_or_script() -> None:
    report = make_report(question_text="See the manual", options=["x"])
    page = render_review_html(report)
    for bad in ("http://", "https://", "src=", "href=", "<script", "<img", "url(", "@import"):
        assert bad not in page.lower()
    allowed = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p",
               "span", "dl", "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "section",
               "div", "ul", "li"}  # fmt: skip
    assert set(parse(page).tags) <= allowed


def test_minimal_report_and_input_untouched() -> None:
    report = make_report()
    before = copy.deepcopy(report)
    render_review_html(report)
    assert report == before
    page = render_review_html({"audit": {"path": "a.db", "sha256": SHA}, "status": {"plan": None},
                               "verdicts": {}, "agreement": {}, "decisions": [],
                               "sensitivity": []})  # fmt: skip
    assert parse(page).errors == []
    assert "Questions concerned" not in page
    assert "no plan" in page
    assert re.search(r"<td class=\"t\">other</td><td class=\"n\">0</td>", page)
