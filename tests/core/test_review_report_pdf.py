"""The review report printed to PDF by headless Chromium, as a panel would print it: A4
pages, nothing off the page, every part there, codes never broken inside a word.

Chromium and poppler's tools: see :mod:`tests.core.pdf_print`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.report import write_review_report
from tests.core.pdf_print import A4, pdf_pages, pdf_text, print_to_pdf, word_boxes_inside

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

T, F = "TRUE", "FALSE"


def _reviewed(audit: AuditDB, store: str) -> None:
    with NotesStore.open(audit, store) as notes:
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob"], per_question=2, order="random", seed=3,
                       created_by="Coord")  # fmt: skip
        book.save_verdict("Q001", "ann", verdict="key_wrong", blind_answer=[T, F, T, T],
                          proposed_key=[T, F, T, T], confidence="high",
                          source="EN 166:2001 §7.2.4 and the manufacturer's instructions",
                          note="Grinding is loud: wear hearing protection. " * 4)  # fmt: skip
        book.save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, F, T, F])
        book.save_verdict("Q003", "ann", verdict="unclear_options", not_blind=True)
        book.save_verdict("Q003", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q002", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[F, F, T, T])  # fmt: skip
        book.save_verdict("Q002", "bob", verdict="outdated_or_jurisdiction", not_blind=True)
        adjudication = Adjudication(notes)
        adjudication.adjudicate("Q001", "cy", "key_corrected", key=[T, F, T, T])
        adjudication.adjudicate("Q003", "cy", "question_excluded")
        adjudication.adjudicate("Q002", "cy", "key_confirmed")


def test_the_report_prints_on_a4_with_every_part_and_no_broken_code(
    audit: AuditDB, tmp_path: Path
) -> None:
    store = str(tmp_path / "team.sqlite")
    _reviewed(audit, store)
    with NotesStore.open(audit, store) as notes:
        page = write_review_report(notes, tmp_path / "report.html", "html", include_private=True)
    pdf = tmp_path / "report.pdf"
    print_to_pdf(page, pdf, tmp_path / "profile")
    pages, size = pdf_pages(pdf)
    assert size == (595, 842)  # A4, portrait
    assert pages >= 3
    text = pdf_text(pdf, "-layout")
    for part in ("AI4HSE-Bench review report", "Method", "Key audit check",
                 "Sensitivity — NOT OFFICIAL", "Appendix: evidence per question",
                 "Key corrected", "Question excluded", "Key confirmed", "Coord"):  # fmt: skip
        assert part in text, part
    # a code is never cut inside ("key_confirme d"): every key_… in the text is a whole code
    codes = set(re.findall(r"\bkey_[a-z]*", text))
    assert codes <= {"key_ok", "key_wrong", "key_confirmed", "key_corrected"}, codes
    assert not re.search(r"question_exclud\s", text)
    word_boxes_inside(pdf, *A4)  # nothing runs off the page
