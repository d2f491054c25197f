"""``review adjudication`` and the refusals of ``review adjudicate`` (cli.md, "Reviewer
identity, adjudication queue, report evidence"), on SQLite and PostgreSQL: the queue
JSON by ordinal, an unresolved question that stays in it and is not counted as
decided, and decisions the store refuses without writing anything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from tests.core.desk_helpers import cli

if TYPE_CHECKING:
    from collections.abc import Callable

T, F, U = "TRUE", "FALSE", "UNSURE"


def _ok(*args: str) -> object:
    code, out, err = cli("review", *args)
    assert (code, err) == (0, ""), err
    return json.loads(out)


def _refused(*args: str) -> str:
    code, out, err = cli("review", *args)
    assert (code, out) == (2, "")
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    return err


def _verdict(a: str, notes: list[str], qid: str, who: str, verdict: str, *extra: str) -> None:
    blind = [] if "--blind-answer" in extra else ["--not-blind"]
    _ok("verdict", a, "--question", qid, "--reviewer", who, "--verdict", verdict, *blind,
        *extra, *notes)  # fmt: skip


def _reviewed(make_audit_db: Callable[..., Path], store_url: str) -> tuple[str, list[str]]:
    """Five questions reviewed by ann and bob (K = 2); corpus order Q001 Q002 Q003 Q005 Q004.

    Q001 key_wrong vs key_ok; Q002 both key_ok; Q003 two different concerns; Q005 key_ok
    vs typo_or_format; Q004 one key_wrong so far."""
    audit = make_audit_db()
    a, notes = str(audit), ["--notes", store_url]
    _ok("plan", a, "--reviewers", "ann,bob", "--per-question", "2", "--created-by", "coord",
        *notes)  # fmt: skip
    _verdict(a, notes, "Q001", "ann", "key_wrong", "--blind-answer", "[TRUE,FALSE,TRUE,TRUE]",
             "--proposed-key", "[TRUE,FALSE,TRUE,TRUE]", "--confidence", "high",
             "--source", "EN 166", "--note", "hearing protection is not needed")  # fmt: skip
    _verdict(a, notes, "Q001", "bob", "key_ok", "--blind-answer", "[TRUE,FALSE,TRUE,UNSURE]")
    _verdict(a, notes, "Q002", "ann", "key_ok")
    _verdict(a, notes, "Q002", "bob", "key_ok")
    _verdict(a, notes, "Q003", "ann", "unclear_options", "--note", "CO2 vs foam")
    _verdict(a, notes, "Q003", "bob", "multiple_defensible")
    _verdict(a, notes, "Q005", "ann", "key_ok")
    _verdict(a, notes, "Q005", "bob", "typo_or_format")
    _verdict(a, notes, "Q004", "ann", "key_wrong", "--proposed-key", "[TRUE,TRUE,TRUE,FALSE]")
    return a, notes


def test_the_queue_lists_each_question_needing_a_decision_by_ordinal(
    make_audit_db: Callable[..., Path], store_url: str
) -> None:
    a, notes = _reviewed(make_audit_db, store_url)
    queue = _ok("adjudication", a, *notes)
    assert isinstance(queue, list)
    assert [item["question_id"] for item in queue] == ["Q001", "Q003", "Q005", "Q004"]
    assert queue[0] == {
        "question_id": "Q001",
        "reasons": ["key_wrong", "concern_vs_key_ok", "proposed_keys_differ"],
        "official_key": [True, False, True, False],
        "verdicts": [
            {"reviewer": "ann", "verdict": "key_wrong", "blind_answer": [T, F, T, T],
             "proposed_key": [T, F, T, T], "confidence": "high", "source": "EN 166",
             "note": "hearing protection is not needed"},
            {"reviewer": "bob", "verdict": "key_ok", "blind_answer": [T, F, T, U],
             "proposed_key": None, "confidence": None, "source": "", "note": ""},
        ],
        "decision": None,
    }  # fmt: skip
    assert [item["reasons"] for item in queue[1:]] == [
        ["verdicts_differ"], ["concern_vs_key_ok"], ["key_wrong"],
    ]  # fmt: skip
    assert [v["reviewer"] for v in queue[3]["verdicts"]] == ["ann"]  # bob has not answered yet


def test_unresolved_stays_in_the_queue_and_is_not_counted_as_decided(
    make_audit_db: Callable[..., Path], store_url: str
) -> None:
    a, notes = _reviewed(make_audit_db, store_url)
    corrected = _ok("adjudicate", a, "--question", "Q001", "--adjudicator", "cy", "--decision",
                    "key_corrected", "--key", "[TRUE,FALSE,TRUE,TRUE]", *notes)  # fmt: skip
    _ok("adjudicate", a, "--question", "Q003", "--adjudicator", "cy", "--decision",
        "unresolved", "--note", "ask the author", *notes)  # fmt: skip
    assert _ok("status", a, *notes)["adjudication"] == {"needed": 4, "decided": 1}  # type: ignore[index]
    queue = _ok("adjudication", a, *notes)
    assert [item["question_id"] for item in queue] == ["Q003", "Q005", "Q004"]  # type: ignore[attr-defined]
    unresolved = queue[0]["decision"]  # type: ignore[index]
    assert (unresolved["decision"], unresolved["note"]) == ("unresolved", "ask the author")
    every = _ok("adjudication", a, "--all", *notes)
    assert [item["question_id"] for item in every] == ["Q001", "Q003", "Q005", "Q004"]  # type: ignore[attr-defined]
    assert every[0]["decision"] == corrected  # type: ignore[index]
    # deciding it for good takes it out of the queue and counts it
    _ok("adjudicate", a, "--question", "Q003", "--adjudicator", "cy", "--decision",
        "key_confirmed", *notes)  # fmt: skip
    assert _ok("status", a, *notes)["adjudication"] == {"needed": 4, "decided": 2}  # type: ignore[index]
    assert [i["question_id"] for i in _ok("adjudication", a, *notes)] == ["Q005", "Q004"]  # type: ignore[attr-defined]


def test_refused_decisions_write_nothing(
    make_audit_db: Callable[..., Path], store_url: str
) -> None:
    a, notes = _reviewed(make_audit_db, store_url)
    before = _ok("adjudication", a, "--all", *notes)
    # Q002: both reviewers agree (key_ok): nothing to decide
    err = _refused("adjudicate", a, "--question", "Q002", "--adjudicator", "cy", "--decision",
                   "key_confirmed", *notes)  # fmt: skip
    assert "Q002 is not in the adjudication queue" in err
    # a "correction" that keeps the official key
    err = _refused("adjudicate", a, "--question", "Q001", "--adjudicator", "cy", "--decision",
                   "key_corrected", "--key", "[true, false, true, false]", *notes)  # fmt: skip
    assert err == (
        "error: key_corrected: the corrected key is the official key; change the options the "
        "key has wrong, or decide key_confirmed\n"
    )
    # a reviewer of the question (any spelling of their name)
    err = _refused("adjudicate", a, "--question", "Q003", "--adjudicator", "ANN", "--decision",
                   "key_confirmed", *notes)  # fmt: skip
    assert "one of Q003's reviewers" in err
    assert _ok("adjudication", a, "--all", *notes) == before
    assert _ok("status", a, *notes)["adjudication"] == {"needed": 4, "decided": 0}  # type: ignore[index]
    # independence the other way round (no plan, so anyone may give a verdict): an
    # adjudicator gives no verdict on what they decided
    solo = ["--notes", str(Path(a).parent / "solo.review.sqlite")]
    _verdict(a, solo, "Q004", "ann", "key_wrong", "--proposed-key", "[TRUE,TRUE,TRUE,FALSE]")
    _ok("adjudicate", a, "--question", "Q004", "--adjudicator", "cy", "--decision",
        "key_confirmed", *solo)  # fmt: skip
    err = _refused("verdict", a, "--question", "Q004", "--reviewer", "Cy", "--verdict", "key_ok",
                   "--not-blind", *solo)  # fmt: skip
    assert "cy adjudicated Q004" in err  # (Cy is cy: one person)


def test_a_decided_question_can_be_revised_after_it_left_the_queue(
    make_audit_db: Callable[..., Path], store_url: str
) -> None:
    a, notes = _reviewed(make_audit_db, store_url)
    _ok("adjudicate", a, "--question", "Q005", "--adjudicator", "cy", "--decision",
        "key_confirmed", *notes)  # fmt: skip
    _verdict(a, notes, "Q005", "bob", "key_ok")  # now both agree: Q005 no longer needs one
    revised = _ok("adjudicate", a, "--question", "Q005", "--adjudicator", "cy", "--decision",
                  "question_excluded", "--note", "on second thought", *notes)  # fmt: skip
    assert revised["decision"] == "question_excluded"  # type: ignore[index]


def test_the_queue_for_one_adjudicator_leaves_out_what_they_reviewed(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    store = str(tmp_path / "team.sqlite")
    a, _ = _reviewed(make_audit_db, store)
    with open_audit(a) as db, NotesStore.open(db, store) as notes:
        adjudication = Adjudication(notes)
        assert [i.question_id for i in adjudication.queue()] == ["Q001", "Q003", "Q005", "Q004"]
        assert all(item.open for item in adjudication.queue())
        assert adjudication.queue(adjudicator="Bob") == []  # bob is assigned every question
        assert [i.question_id for i in adjudication.queue(adjudicator="cy")] == [
            "Q001", "Q003", "Q005", "Q004",
        ]  # fmt: skip
        item = adjudication.queue()[0]
        assert item.official_key == (True, False, True, False)
        assert [v.reviewer for v in item.verdicts] == ["ann", "bob"]
