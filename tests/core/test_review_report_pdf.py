"""The review report printed to PDF by headless Chromium, as a panel would print it: A4
pages, nothing off the page, every part there, codes never broken inside a word.

Chromium and poppler's ``pdfinfo``/``pdftotext`` are what ``make test`` installs
(``scripts/ensure-debian-packages.sh chromium``). Without them the test skips —
unless ``AI4HSE_REQUIRE_CHROMIUM=1`` (set by ``make test``), where it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.report import write_review_report

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

REQUIRE_ENV = "AI4HSE_REQUIRE_CHROMIUM"
T, F = "TRUE", "FALSE"
#: A4 in PostScript points.
A4 = (595.0, 842.0)


def _tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {names[0]} is missing (make test installs it)")
    pytest.skip(f"{names[0]} is not installed (make test installs it)")


def print_to_pdf(page: Path, pdf: Path, profile: Path) -> None:
    """``page`` printed to ``pdf`` by headless Chromium (no network, a throwaway profile)."""
    chromium = _tool("chromium", "chromium-browser", "google-chrome")
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
        page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert pdf.exists(), done.stderr[-2000:]


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
    pdfinfo, pdftotext = _tool("pdfinfo"), _tool("pdftotext")
    store = str(tmp_path / "team.sqlite")
    _reviewed(audit, store)
    with NotesStore.open(audit, store) as notes:
        page = write_review_report(notes, tmp_path / "report.html", "html", include_private=True)
    pdf = tmp_path / "report.pdf"
    print_to_pdf(page, pdf, tmp_path / "profile")
    info = subprocess.run([pdfinfo, str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    assert size is not None
    assert (round(float(size.group(1))), round(float(size.group(2)))) == (595, 842)
    assert pages >= 3
    text = subprocess.run([pdftotext, "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip
    for part in ("AI4HSE-Bench review report", "Method", "Key audit check",
                 "Sensitivity — NOT OFFICIAL", "Appendix: evidence per question",
                 "Key corrected", "Question excluded", "Key confirmed", "Coord"):  # fmt: skip
        assert part in text, part
    # a code is never cut inside ("key_confirme d"): every key_… in the text is a whole code
    codes = set(re.findall(r"\bkey_[a-z]*", text))
    assert codes <= {"key_ok", "key_wrong", "key_confirmed", "key_corrected"}, codes
    assert not re.search(r"question_exclud\s", text)
    # nothing runs off the page: every word's box lies inside the page
    boxes = subprocess.run([pdftotext, "-bbox", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout  # fmt: skip
    right = [float(x) for x in re.findall(r'xMax="([\d.]+)"', boxes)]
    bottom = [float(y) for y in re.findall(r'yMax="([\d.]+)"', boxes)]
    assert right
    assert max(right) <= A4[0] - 20  # inside the right margin
    assert max(bottom) <= A4[1] - 20
