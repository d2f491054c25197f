"""Text search: full-text (trigram) and LIKE agree, and user input is never syntax."""

from __future__ import annotations

import sqlite3
import string
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.index import AttemptQuery, ReviewIndex, build_fts, ensure_index
from ai4hse_desk.index.search import (
    TextSearch,
    covering_trigrams,
    match_expression,
    search_terms,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from tests.audit_factory import AuditContent

_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)

#: Responses written over the default content's (attempt id → text; run r2,
#: repetition 1, questions Q001-Q003: none of the fixture's special attempts).
RESPONSES = {
    11: "答案是安全帽和防护眼镜 [TRUE, FALSE, TRUE, FALSE]",
    12: 'He said "NEAR(a b)" OR -x * y_z {col}: ^start 5% back\\slash [FALSE, FALSE, FALSE, TRUE]',
    13: "Café ÉCOLE naïve — [TRUE, TRUE, FALSE, FALSE, TRUE]",
    14: "no sandals near the press [TRUE, FALSE, TRUE, FALSE]",
}


@dataclass
class Searched:
    db: AuditDB
    index: ReviewIndex
    content: AuditContent


@pytest.fixture
def content(make_audit_content: Callable[..., AuditContent]) -> AuditContent:
    base = make_audit_content()
    attempts = tuple(
        {**a, "raw_response": RESPONSES.get(a["attempt_id"], a["raw_response"])}
        for a in base.attempts
    )
    return replace(base, attempts=attempts)


@pytest.fixture
def searched(make_audit_db: Callable[..., Path], content: AuditContent) -> Iterator[Searched]:
    with open_audit(make_audit_db(content=content)) as db:
        build_fts(db)
        with ensure_index(db) as index:
            assert index.fts_ready
            yield Searched(db, index, content)


def _lower(text: str) -> str:
    return text.translate(_ASCII_LOWER)


def reference(content: AuditContent, text: str) -> list[int]:
    """The attempts a search must find, by brute force over the content."""
    terms = [_lower(term) for term in text.split()]
    question_text = {
        q["question_id"]: _lower("\n".join([q["text"], *(t for t, _ in q["options"])]))
        for q in content.questions
    }
    found = []
    for attempt in content.attempts:
        response = _lower(attempt["raw_response"] or "")
        question = question_text[attempt["question_id"]]
        if all(t in response for t in terms) or all(t in question for t in terms):
            found.append(attempt["attempt_id"])
    return found


def _found(index: ReviewIndex, text: str, mode: str, **more: Any) -> list[int]:
    query = AttemptQuery(text=text, text_mode=mode, **more)  # type: ignore[arg-type]
    keys = index.page_keys(query, limit=1000)
    assert index.count(query) == len(keys)
    return [attempt_id for _, attempt_id in keys]


def _ids(content: AuditContent, run: str, rep: int, question: str) -> list[int]:
    return content.attempt_ids(
        lambda a: (a["run_id"], a["repetition"], a["question_id"]) == (run, rep, question)
    )


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_a_word_in_one_response(searched: Searched, mode: str) -> None:
    c = searched.content
    assert _found(searched.index, "snake_case", mode) == _ids(c, "r1", 2, "Q001")
    assert _found(searched.index, "SNAKEXCASE", mode) == _ids(c, "r1", 2, "Q002")
    assert _found(searched.index, "100%", mode) == _ids(c, "r1", 1, "Q002")
    assert _found(searched.index, "see notes", mode) == sorted(
        _ids(c, "r1", 2, "Q001") + _ids(c, "r1", 2, "Q002")
    )


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_question_and_option_text(searched: Searched, mode: str) -> None:
    of_q001 = searched.content.attempt_ids(lambda a: a["question_id"] == "Q001")
    of_q004 = searched.content.attempt_ids(lambda a: a["question_id"] == "Q004")
    assert len(of_q001) == 6
    assert _found(searched.index, "grinding", mode) == of_q001
    assert _found(searched.index, "open-toe SANDALS", mode) == of_q001
    assert _found(searched.index, "50%", mode) == of_q004
    # Every term in the response, or every term in the question: not a mix.
    assert _found(searched.index, "grinding TRUE", mode) == []


@pytest.mark.parametrize("mode", ["fts", "like"])
@pytest.mark.parametrize(
    "text",
    ['"', '"NEAR(a', "NEAR", "OR", "-x", "*", "* y_z", "y_z", "y%z", "5%", "%", "_", "\\",
     "back\\slash", "{col}:", "^start", "a b)", '" OR "', "NOT", "AND", "'; DROP TABLE rows; --",
     "(", ")", ":", "\x00", "a\ud800b"],
)  # fmt: skip
def test_syntax_characters_are_literal(searched: Searched, mode: str, text: str) -> None:
    expected = reference(searched.content, text.replace("\x00", " ").replace("\ud800", "?"))
    assert _found(searched.index, text, mode) == expected
    assert searched.index.count() == 30


def test_tricky_terms_find_the_tricky_response(searched: Searched) -> None:
    for text in ('"NEAR(a', "-x", "y_z", "5%", "back\\slash", "{col}:", "^start", "NEAR(a b)"):
        for mode in ("fts", "like"):
            assert _found(searched.index, text, mode) == [12], (text, mode)


@pytest.mark.parametrize(
    "text",
    ["TRUE", "false", "FINAL_ANSWER", "answers", "true, false", "PPE", "which",
     "hearing protection", "FIRE", "502", "fal", "tru fal", "zzz"],
)  # fmt: skip
def test_fts_and_like_agree_on_words(searched: Searched, text: str) -> None:
    expected = reference(searched.content, text)
    assert _found(searched.index, text, "fts") == expected
    assert _found(searched.index, text, "like") == expected
    assert _found(searched.index, text, "auto") == expected


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_chinese_and_accented_text(searched: Searched, mode: str) -> None:
    for text in ("安全帽", "防护眼镜", "安全", "答"):  # 3+ characters use trigrams; fewer, LIKE
        assert _found(searched.index, text, mode) == [11], text
    assert _found(searched.index, "Café", mode) == [13]
    assert _found(searched.index, "école", mode) == []  # like LIKE: no folding beyond ASCII
    assert _found(searched.index, "ÉCOLE naïve", mode) == [13]


def test_text_combines_with_other_filters(searched: Searched) -> None:
    for mode in ("fts", "like"):
        assert _found(searched.index, "FALSE", mode, run_ids=("r2",)) == [
            i for i in reference(searched.content, "FALSE") if 11 <= i <= 20
        ]
        assert _found(searched.index, "snake", mode, statuses=("wrong_length",)) == [6]


def test_search_mode_follows_the_full_text_index(
    make_audit_db: Callable[..., Path], content: AuditContent
) -> None:
    with open_audit(make_audit_db(content=content)) as db, ensure_index(db) as index:
        query = AttemptQuery(text="snake_case")
        assert index.search_mode(AttemptQuery()) is None
        assert index.search_mode(AttemptQuery(text="  ")) is None
        assert index.search_mode(query) == "like"
        assert not index.fts_ready
        assert index.count(query) == 1
        with pytest.raises(ValueError, match="not built"):
            index.count(replace(query, text_mode="fts"))
        build_fts(db)
        assert index.fts_ready
        assert index.search_mode(query) == "fts"
        assert index.search_mode(replace(query, text_mode="like")) == "like"
        assert index.count(query) == 1
        index.clear_search_cache()
        assert index.count(replace(query, text_mode="fts")) == 1


def test_a_live_record_is_searched_in_its_snapshot(make_audit_db: Callable[..., Path]) -> None:
    path = make_audit_db(journal_mode="wal")
    writer = sqlite3.connect(path)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE attempts SET raw_response = 'xylophone [TRUE]' WHERE attempt_id = 5")
        writer.commit()
        with open_audit(path) as db:
            assert db.snapshot
            build_fts(db)
            with ensure_index(db) as index:
                for mode in ("fts", "like"):
                    assert _found(index, "xylophone", mode) == [5]
    finally:
        writer.close()


def test_fts_queries_are_quoted_trigrams() -> None:
    assert search_terms('  a"b  NEAR\tOR a"b ') == ['a"b', "NEAR", "OR"]
    assert search_terms(None) == []
    assert search_terms("") == []
    assert covering_trigrams("ventilation") == ["ven", "til", "ati", "ion"]
    assert covering_trigrams("ab") == []
    assert match_expression(["ab", "-x"]) is None
    assert match_expression(['a"b*', "NEAR"]) == '"a""b" """b*" "NEA" "EAR"'


# -- scope: responses, questions, options --------------------------------------------------

RESPONSES_ONLY, QUESTIONS_ONLY, OPTIONS_ONLY = ("responses",), ("questions",), ("options",)


def _scoped(index: ReviewIndex, text: str, scope: tuple[str, ...], mode: str) -> list[int]:
    return _found(index, text, mode, text_scope=scope)


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_a_word_only_in_option_texts_is_found_with_the_options_scope(
    searched: Searched, mode: str
) -> None:
    of_q001 = searched.content.attempt_ids(lambda a: a["question_id"] == "Q001")
    index = searched.index
    assert _scoped(index, "necktie", OPTIONS_ONLY, mode) == of_q001  # "Loose necktie"
    assert _scoped(index, "necktie", RESPONSES_ONLY, mode) == []
    assert _scoped(index, "necktie", QUESTIONS_ONLY, mode) == []
    assert _scoped(index, "necktie", ("responses", "options"), mode) == of_q001


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_a_word_only_in_responses_is_found_with_the_responses_scope(
    searched: Searched, mode: str
) -> None:
    index = searched.index
    assert _scoped(index, "snake_case", RESPONSES_ONLY, mode) == [6]
    assert _scoped(index, "snake_case", OPTIONS_ONLY, mode) == []
    assert _scoped(index, "snake_case", ("questions", "options"), mode) == []
    assert _scoped(index, "snake_case", ("responses", "options"), mode) == [6]


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_a_word_in_responses_and_options_needs_both_scopes_for_both(
    searched: Searched, mode: str
) -> None:
    of_q001 = searched.content.attempt_ids(lambda a: a["question_id"] == "Q001")
    index = searched.index
    assert 14 not in of_q001  # "no sandals near the press" answers another question
    assert _scoped(index, "sandals", RESPONSES_ONLY, mode) == [14]
    assert _scoped(index, "sandals", OPTIONS_ONLY, mode) == of_q001
    assert _scoped(index, "sandals", ("responses", "options"), mode) == sorted([*of_q001, 14])
    assert _found(index, "sandals", mode) == sorted([*of_q001, 14])  # the default: all three


@pytest.mark.parametrize("mode", ["fts", "like"])
def test_question_and_option_texts_are_read_together_only_when_both_are_in_scope(
    searched: Searched, mode: str
) -> None:
    of_q001 = searched.content.attempt_ids(lambda a: a["question_id"] == "Q001")
    index = searched.index
    assert _scoped(index, "grinding", QUESTIONS_ONLY, mode) == of_q001
    assert _scoped(index, "grinding", OPTIONS_ONLY, mode) == []
    assert _scoped(index, "grinding necktie", QUESTIONS_ONLY, mode) == []
    assert _scoped(index, "grinding necktie", ("questions", "options"), mode) == of_q001


@pytest.mark.parametrize("scope", [RESPONSES_ONLY, QUESTIONS_ONLY, OPTIONS_ONLY])
def test_a_question_id_finds_its_attempts_in_every_scope(
    searched: Searched, scope: tuple[str, ...]
) -> None:
    of_q003 = searched.content.attempt_ids(lambda a: a["question_id"] == "Q003")
    assert _scoped(searched.index, "q003", scope, "fts") == of_q003


def test_the_scope_is_in_the_sql(searched: Searched) -> None:
    """Only the tables the scope names are read: no response is read for options."""
    statements: list[str] = []

    def run(sql: str, params: object) -> list[Any]:
        statements.append(sql)
        return searched.index.connections.all(sql, params)  # type: ignore[arg-type]

    search = TextSearch(run)
    search.condition("necktie", True, OPTIONS_ONLY)
    assert statements
    assert not any("attempts" in sql or "fts." in sql for sql in statements)
    assert any("audit.options" in sql for sql in statements)
    assert not any("q.text" in sql for sql in statements)
    statements.clear()
    search.condition("necktie", True, RESPONSES_ONLY)
    assert any("MATCH" in sql for sql in statements)
    assert not any("audit.options" in sql or "q.text" in sql for sql in statements)


def test_a_query_keeps_its_scope_in_order_and_refuses_an_empty_one() -> None:
    assert AttemptQuery().text_scope == ("responses", "questions", "options")
    scoped = AttemptQuery(text="x", text_scope=["options", "responses"])  # type: ignore[arg-type]
    assert scoped.text_scope == ("responses", "options")
    assert scoped == AttemptQuery(text="x", text_scope=("responses", "options"))
    for bad in ((), ("answers",), ("options", "answers")):
        with pytest.raises(ValueError, match="text_scope"):
            AttemptQuery(text_scope=bad)
