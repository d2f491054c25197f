"""The review report as HTML (cli.md, "Review"): every figure shown, nothing unescaped."""

from __future__ import annotations

import copy
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from ai4hse_desk.review.report_html import render_review_html
from ai4hse_desk.review.values import VERDICTS

HOSTILE = '<script>alert(1)</script>"><img src=x onerror=1>\u202eevil\u200bzw\x1b[31m'
SHA = "ab" * 32
CORRECTED = "A TRUE, B FALSE, C TRUE, D FALSE"


def _rep(number: int, attempts: int, correct: int, low: float, high: float) -> dict[str, Any]:
    return {"repetition": number, "attempts": attempts, "correct": correct,
            "exact_accuracy": correct / attempts,
            "wilson_low": low, "wilson_high": high}  # fmt: skip


def make_report(**private: Any) -> dict[str, Any]:
    """A realistic report: 3 reviewers (one yet to submit), 2 tracks, an unscored run."""
    status: dict[str, Any] = {
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
    evidence = {
        "question_id": "Q017",
        "reasons": ["key_wrong", "proposed_keys_differ"],
        "official_key": [True, False, False, False],
        "verdicts": [
            {
                "reviewer": "ann",
                "verdict": "key_wrong",
                "blind_answer": ["TRUE", "FALSE", "TRUE", "UNSURE"],
                "proposed_key": ["TRUE", "FALSE", "TRUE", "FALSE"],
                "confidence": "high",
                "source": "ISO 45001 §8.1.2",
                "note": "C is required too",
            },
            {
                "reviewer": "bob",
                "verdict": "key_wrong",
                "blind_answer": None,
                "proposed_key": ["TRUE", "TRUE", "FALSE", "FALSE"],
                "confidence": None,
                "source": "",
                "note": "",
            },
        ],
        "decision": {**decision, "at": "2026-12-01T09:30:12.000001Z"},
        "key_audit_rank": 3,
        "final_state": {"state": "corrected", "text": f"Key corrected: {CORRECTED}"},
    }
    for item in (decision, concerned, evidence):
        item.update(private)
    return {
        "generated_at": "2026-12-02T10:11:12Z",
        "desk_version": "9.8.7",
        "protocol_version": 10,
        "plan": {"plan_id": "p", "created_by": "Coord Inator",
                 "created_at": "2026-11-30T08:00:00.5Z", **status["plan"],
                 "reviewers": ["ann", "bob", "cy"]},
        "method": {"per_question": 2, "blind_rule": "BLIND RULE TEXT",
                   "adjudication_rule": "ADJUDICATION RULE TEXT",
                   "final_states": {"confirmed": "Key confirmed"},
                   "agreement": {"units": "UNITS TEXT"}, "effort": "EFFORT TEXT",
                   "key_audit_check": "CHECK TEXT"},
        "final_states": {"not_reviewed": 0, "under_review": 34, "confirmed": 3, "corrected": 1,
                         "excluded": 1, "unresolved": 1},
        "evidence": [evidence],
        "effort": {"reviewers": [
                       {"reviewer": "ann", "submitted": 20, "timed": 18, "active_seconds": 5410.0,
                        "median_seconds_per_verdict": 250.0, "sessions_capped": 0},
                       {"reviewer": "bob", "submitted": 18, "timed": 0, "active_seconds": 0.0,
                        "median_seconds_per_verdict": None, "sessions_capped": 0}],
                   "submitted": 38, "timed": 18, "active_seconds": 5410.0,
                   "reviewer_hours": 3.172, "confirmed_key_errors": 1,
                   "confirmed_key_errors_per_reviewer_hour": 0.315, "basis": "estimated",
                   "undefined_reason": None},
        "key_audit_check": {"definition": "CHECK TEXT", "top_share": 0.1, "ranked": 40, "top": 4,
                            "settled": 3, "corrected": 1, "share": 0.3333, "wilson_low": 0.0615,
                            "wilson_high": 0.7923, "excluded": 1,
                            "others": {"settled": 2, "corrected": 0, "share": 0.0,
                                       "wilson_low": 0.0, "wilson_high": 0.6576, "excluded": 0}},
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
             "corrected_keys_only": 0.32, "without_excluded_with_corrected_keys": 0.33,
             "unscored_reason": None,
             "repetitions": {
                 "official": [_rep(1, 100, 31, 0.2284, 0.4057), _rep(2, 100, 30, 0.22, 0.39)],
                 "without_excluded": [_rep(1, 98, 31, 0.2336, 0.4116)],
                 "corrected_keys_only": [_rep(1, 100, 32, 0.2, 0.4)],
                 "without_excluded_with_corrected_keys": [_rep(1, 98, 33, 0.2514, 0.4377)]}},
            {"run_id": "r2", "track": "answer_only", "model": "m2", "official": None,
             "without_excluded": None, "with_corrected_keys": None, "not_official": True,
             "corrected_keys_only": None, "without_excluded_with_corrected_keys": None,
             "unscored_reason": "unfinished: the runner marked the run 'running'"},
            {"run_id": "r3", "track": "reasoning", "official": 0.5,
             "without_excluded": 0.5, "with_corrected_keys": 0.512, "not_official": True,
             "corrected_keys_only": 0.512, "without_excluded_with_corrected_keys": 0.512},
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
    found = re.search(rf"<h2( class=\"\w+\")?>{re.escape(heading)}", page)
    assert found is not None, heading
    start = found.start()
    end = page.find("<h2", start + 4)
    return page[start : end if end != -1 else len(page)]


def headers(page: str) -> list[list[str]]:
    """Each table's header cells, in order."""
    heads = re.findall(r"<thead><tr>(.*?)</tr></thead>", page)
    return [re.findall(r"<th>(.*?)</th>", head) for head in heads]


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
    assert "K = 2 reviewers per question, random order, seed 7, 40 questions" in page
    assert "<dt>Generated</dt><dd>2026-12-02 10:11 UTC</dd>" in page
    assert "<dt>Made by</dt><dd>AI4HSE Desk 9.8.7</dd>" in page
    assert "<dt>Protocol version</dt><dd>10</dd>" in page
    assert "<dt>Plan made by</dt><dd>Coord Inator, 2026-11-30 08:00 UTC</dd>" in page
    assert "<dt>Reviewers</dt><dd>ann, bob, cy</dd>" in page
    table = rows(parse(page))
    assert ["40", "12", "14", "14", "4", "3"] in table
    assert ["ann", "27", "20", "2", "7", "18", "1 h 30 min", "4 min 10 s"] in table
    assert ["bob", "27", "18", "1", "9", "0", "0 s", "—"] in table
    assert ["cy", "26", "0", "0", "26", "0", "—", "—"] in table
    assert "Made by AI4HSE Desk 9.8.7." in page
    assert "@media print" in page
    assert "@page { size: A4;" in page


def test_the_plan_names_a_seed_only_for_a_random_order() -> None:
    report = make_report()
    for order, words in (("corpus", "corpus order"), ("keyaudit", "key-audit order")):
        report["plan"] = {**report["plan"], "order": order, "seed": None}
        report["status"]["plan"] = {**report["status"]["plan"], "order": order, "seed": None}
        page = render_review_html(report)
        assert f"K = 2 reviewers per question, {words}" in page
        assert "seed" not in page.lower()
        assert "None" not in page


def test_no_plan() -> None:
    report = make_report()
    report["status"]["plan"] = None
    assert "<dd>no plan</dd>" in render_review_html(report)


def test_all_nine_verdicts_in_order_zero_included() -> None:
    part = section(render_review_html(make_report()), "Verdicts per category")
    shown = rows(parse(part))
    assert [line[1] for line in shown] == list(VERDICTS)
    assert shown[0][0] == "Key correct"
    assert shown[5][0] == "Options unclear"
    assert dict((v, int(n)) for _, v, n in shown) == {
        "key_ok": 30, "key_wrong": 5, "multiple_defensible": 2, "no_correct_option": 0,
        "unclear_question": 1, "unclear_options": 0, "outdated_or_jurisdiction": 0,
        "typo_or_format": 0, "other": 0,
    }  # fmt: skip


def test_agreement_figures() -> None:
    shown = rows(parse(section(render_review_html(make_report()), "Agreement")))
    assert ["concern vs key correct", "Cohen's κ",
            "undefined: no variation: every rating is the same", "12", "2"] in shown  # fmt: skip
    assert ["verdict category", "Cohen's κ", "0.612", "12", "2"] in shown
    assert ["blind answers per option", "Krippendorff's α (nominal)", "-0.050", "48", "—"] in shown
    assert ["options answered", "150", "160", "93.8%", "88.8%–96.6%"] in shown
    assert ["whole answers (no UNSURE)", "0", "0", "—", "—"] in shown
    assert "Units: questions with two or more submitted verdicts" in section(
        render_review_html(make_report()), "Agreement"
    )


def test_decisions_and_questions_concerned() -> None:
    page = render_review_html(make_report())
    shown = rows(parse(section(page, "Decisions")))
    assert shown == [
        ["Q017", "Key corrected", "A TRUE, B FALSE, C TRUE, D FALSE", "dee", "—",
         "two options are right per ISO 45001"],
        ["Q021", "Question excluded", "—", "dee", "—", ""],
    ]  # fmt: skip
    assert rows(parse(section(page, "Questions concerned"))) == [["Q017", "Key wrong: 2", "yes"]]


def test_codes_are_shown_in_words_and_never_break_mid_word() -> None:
    page = render_review_html(make_report())
    body = page[page.index("</style>") :]
    for code in ("key_corrected", "question_excluded", "key_wrong", "unclear_options"):
        assert f">{code}<" not in body.replace(f"<code>{code}</code>", "")
    css = page[page.index("<style>") : page.index("</style>")]
    assert "td.t { white-space: pre-wrap; overflow-wrap: break-word; word-break: normal;" in css
    assert css.count("overflow-wrap: anywhere") == 1  # the hash only
    assert ".hash {" in css.split("overflow-wrap: anywhere")[0].rsplit("}", 1)[1]
    assert "white-space: nowrap" in css.split("code, .code {")[1].split("}")[0]


def test_sensitivity_per_track_not_official() -> None:
    page = render_review_html(make_report())
    part = page[page.index('<section class="exploration"') : page.index("</section>")]
    assert "<h2>Sensitivity — NOT OFFICIAL</h2>" in part
    assert "<h3>Sensitivity — NOT OFFICIAL — track answer_only</h3>" in part
    assert "<h3>Sensitivity — NOT OFFICIAL — track reasoning</h3>" in part
    assert 'Only the "Official (rescore)" figures are official.' in part
    assert "NOT OFFICIAL" not in page[: page.index('<section class="exploration"')]
    doc = parse(part)
    assert headers(part)[0] == [
        "run", "model", "Official (rescore)", "Without excluded questions",
        "Corrected keys only", "Both: without excluded, corrected keys",
    ]  # fmt: skip
    shown = rows(doc)
    assert ["r1", "gpt-x", "31.0%", "31.6%", "32.0%", "33.0%"] in shown
    assert ["r2", "m2", "no score: unfinished: the runner marked the run 'running'", "—", "—",
            "—"] in shown  # fmt: skip
    assert ["r3", "—", "50.0%", "50.0%", "51.2%", "51.2%"] in shown
    assert ["r1", "1", "31.0% [22.8%–40.6%] (31/100)", "31.6% [23.4%–41.2%] (31/98)",
            "32.0% [20.0%–40.0%] (32/100)", "33.7% [25.1%–43.8%] (33/98)"] in shown  # fmt: skip
    assert ["r1", "2", "30.0% [22.0%–39.0%] (30/100)", "—", "—", "—"] in shown
    assert not any(line[0] in ("r2", "r3") and len(line) == 6 and line[1] == "1" for line in shown)
    # run ids and models never wrap at their hyphens ("ao-borealis-large-" / "2026-09-04")
    assert '<td class="t id">r1</td><td class="t id">gpt-x</td>' in part
    assert '<td class="t id">r1</td><td class="n">1</td>' in part
    assert "td.id { white-space: nowrap; }" in page


def test_private_text_only_when_given() -> None:
    public = render_review_html(make_report())
    assert "question text and options" not in public
    assert "<li>" not in public
    assert "holds no question text" in public
    page = render_review_html(make_report(question_text="Which PPE?", options=["Gloves", "Hat"]))
    assert page.count("<div>Which PPE?</div>") == 1  # in the evidence appendix only
    assert page.count("<li>A. Gloves</li><li>B. Hat</li>") == 1
    report = make_report(question_text="Which PPE?", options=["Gloves", "Hat"])
    report["evidence"] = []  # no appendix: the decisions and concerns show the texts
    assert render_review_html(report).count("<div>Which PPE?</div>") == 2
    assert "includes private question and option text" in page


@pytest.mark.parametrize(
    "where",
    ["note", "reviewer", "adjudicator", "question_text", "options", "evidence_note", "source"],
)
def test_hostile_text_is_escaped_and_made_visible(where: str) -> None:
    report = make_report(question_text="q", options=["a", "b"])
    if where == "note":
        report["decisions"][0]["note"] = HOSTILE
    elif where == "reviewer":
        report["status"]["reviewers"][0]["reviewer"] = HOSTILE
    elif where == "adjudicator":
        report["decisions"][0]["adjudicator"] = HOSTILE
    elif where == "evidence_note":
        report["evidence"][0]["verdicts"][0]["note"] = HOSTILE
    elif where == "source":
        report["evidence"][0]["verdicts"][1]["source"] = HOSTILE
    elif where == "question_text":
        report["evidence"][0]["question_text"] = HOSTILE
    else:
        report["evidence"][0]["options"] = ["ok", HOSTILE]
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
               "div", "ul", "li", "code", "b"}  # fmt: skip
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
    assert re.search(r"<td class=\"t\"><code>other</code></td><td class=\"n\">0</td>", page)
    assert "Appendix" not in page


def test_the_evidence_appendix_sets_every_answer_beside_the_official_key() -> None:
    page = render_review_html(make_report())
    part = section(page, "Appendix: evidence per question")
    assert f'<h3>Q017 <span class="badge">Key corrected: {CORRECTED}</span>' in part
    assert "<dd>a reviewer says the key is wrong; the proposed keys differ</dd>" in part
    assert "<dd>3 of 40 (1 = most suspect)</dd>" in part
    assert (
        "<dd>Key corrected by dee on 2026-12-01 09:30 UTC — “two options are right per "
        "ISO 45001”</dd>"
    ) in part
    doc = parse(part)
    _, verdicts = doc.tables
    assert headers(part)[0] == ["", "A", "B", "C", "D"]
    assert rows(parse(part))[:6] == [
        ["Official key", "TRUE", "FALSE", "FALSE", "FALSE"],
        ["ann: blind answer", "TRUE", "FALSE", "TRUE", "UNSURE"],
        ["ann: proposed key", "TRUE", "FALSE", "TRUE", "FALSE"],
        ["bob: not blind", "—", "—", "—", "—"],
        ["bob: proposed key", "TRUE", "TRUE", "FALSE", "FALSE"],
        ["Corrected key (decision)", "TRUE", "FALSE", "TRUE", "FALSE"],
    ]
    # every value that differs from the official key is marked, and only those
    assert part.count('<td class="c d">') == 5
    assert '<td class="c d">UNSURE</td>' in part
    assert [[text for _, text in row] for row in verdicts[1:]] == [
        ["ann", "Key wrong", "High", "ISO 45001 §8.1.2", "C is required too"],
        ["bob", "Key wrong", "—", "—", "—"],
    ]


def test_effort_and_the_key_audit_check_are_reported() -> None:
    page = render_review_html(make_report())
    summary = section(page, "Summary")
    assert (
        "<dt>Confirmed key errors per reviewer-hour</dt><dd>0.32 (1 corrected keys over "
        "3 h 10 min of reviewer time, estimated)</dd>"
    ) in summary
    assert "<dd>1 of 3 settled keys corrected (33.3%, 6.2%–79.2%)</dd>" in summary
    assert (
        "<dt>Agreement on concerns</dt><dd>Cohen&#x27;s κ = undefined: no variation: every "
        "rating is the same</dd>"
    ) in summary
    check = rows(parse(section(page, "Key audit check")))
    assert check == [
        ["the key audit's top 10 % (4 questions)", "3", "1", "33.3%", "6.2%–79.2%", "1"],
        ["the other questions (36)", "2", "0", "0.0%", "0.0%–65.8%", "0"],
    ]
    method = section(page, "Method")
    for words in ("BLIND RULE TEXT", "ADJUDICATION RULE TEXT", "UNITS TEXT", "EFFORT TEXT"):
        assert words in method
    report = make_report()
    report["effort"]["confirmed_key_errors_per_reviewer_hour"] = None
    report["effort"]["undefined_reason"] = "no submitted verdict is timed"
    assert "undefined: no submitted verdict is timed" in render_review_html(report)
    states = rows(parse(section(page, "Final states")))
    assert ["Key corrected", "corrected", "1"] in states


def test_large_counts_read_with_thousands_separators() -> None:
    """A corpus of 10,000 questions: "1,234 of 10,000", as the window writes its counts."""
    report = make_report()
    report["key_audit_check"].update(ranked=10_000, top=1_000, settled=1_200, corrected=1_100)
    report["evidence"][0]["key_audit_rank"] = 1_234
    page = render_review_html(report)
    assert "<dd>1,234 of 10,000 (1 = most suspect)</dd>" in section(
        page, "Appendix: evidence per question"
    )
    assert "<dd>1,100 of 1,200 settled keys corrected (33.3%" in section(page, "Summary")


def test_an_empty_table_says_so_in_a_sentence() -> None:
    """A review just planned: no decisions, no concerns, no agreement yet; each part says
    so in words instead of showing a table of headers alone."""
    report = make_report()
    report["decisions"] = []
    report["questions_concerned"] = []
    report["agreement"] = {}
    report["status"]["reviewers"] = []
    report["evidence"] = []
    page = render_review_html(report)
    for heading, sentence in (
        ("Decisions", "No decision yet."),
        ("Questions concerned", "No submitted verdict raises a concern yet."),
        ("Agreement", "No question has two submitted verdicts yet."),
        ("Agreement", "No blind answer submitted yet."),
        ("Reviewers", "No reviewer yet: no plan and no verdict."),
    ):
        part = section(page, heading)
        assert f'<p class="note muted">{sentence}</p>' in part, heading
    for heading in ("Decisions", "Questions concerned", "Reviewers"):
        assert "<table" not in section(page, heading), heading
    assert all(len(table) > 1 for table in parse(page).tables)


def test_coverage_counts_questions_without_a_verdict_in_words_apart_from_final_states() -> None:
    """The final state "Not reviewed" is a question outside the plan; the coverage's
    planned questions without a submitted verdict are named otherwise, so the two never
    read as one count."""
    page = render_review_html(make_report())
    assert headers(section(page, "Plan and coverage"))[0] == [
        "questions", "fully reviewed", "partly reviewed", "no verdict yet",
        "entered adjudication", "decided",
    ]  # fmt: skip
