"""The review report takes the key audit's ranking from a caller that already has it (the
window's Key audit page) instead of computing the key audit again: the same report when
the ranking is the key audit's, and every rank in it read from the ranking given."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ai4hse_desk.keyaudit import compute_key_audit
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review import report as report_module
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.report import review_report

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

    from ai4hse_desk.audit import AuditDB

T, F = "TRUE", "FALSE"


def _book(audit: AuditDB, tmp_path: Path) -> ReviewBook:
    book = ReviewBook(NotesStore.open(audit, str(tmp_path / "team.sqlite")))
    book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True, proposed_key=[T, F, F, F])
    book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
    book.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True)
    Adjudication(book.store).adjudicate("Q001", "cy", "key_corrected", key=[T, F, F, F])
    return book


def _without_time(report: dict[str, object]) -> dict[str, object]:
    return {name: value for name, value in report.items() if name != "generated_at"}


def test_the_key_audits_own_ranking_gives_the_same_report_without_computing_it(
    audit: AuditDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    book = _book(audit, tmp_path)
    computed = review_report(audit, book)
    ranking = [item.question_id for item in compute_key_audit(audit).questions]

    def no_second_key_audit(*_args: object) -> list[str]:
        raise AssertionError("the key audit was computed again")

    monkeypatch.setattr(report_module, "_ranking", no_second_key_audit)
    given = review_report(audit, book, ranking=ranking)
    assert _without_time(given) == _without_time(computed)
    book.store.close()


def test_every_rank_in_the_report_comes_from_the_ranking_given(
    audit: AuditDB, tmp_path: Path
) -> None:
    book = _book(audit, tmp_path)
    order = [question.question_id for question in audit.questions()]
    report = review_report(audit, book, ranking=order[::-1])  # the last question first
    shown = {row["question_id"]: row for row in report["evidence"]}  # type: ignore[attr-defined]
    assert shown["Q001"]["key_audit_rank"] == len(order) - order.index("Q001")
    last: dict[str, Any] = report["key_audit_check"]  # type: ignore[assignment]
    first: dict[str, Any] = review_report(audit, book, ranking=order)["key_audit_check"]  # type: ignore[assignment]
    assert (first["top"], first["corrected"], first["others"]["corrected"]) == (1, 1, 0)
    assert (last["top"], last["corrected"], last["others"]["corrected"]) == (1, 0, 1)
    book.store.close()
