"""The review in ``notes export`` / ``notes import`` (issue 13, item 8): plans, verdicts and
decisions with their histories round-trip between SQLite and PostgreSQL stores, a second
import adds nothing, and a hostile file is refused whole — nothing written — whether it
breaks a field (as a CLI input would) or the store's rules (one verdict per reviewer and
question, the blind answer fixed once recorded, independent adjudication).

The default audit file has five questions, Q001, Q002, Q003, Q005, Q004 in corpus order;
Q003 and Q005 have 5 options, the others 4.
"""

from __future__ import annotations

import csv
import json
import uuid
from typing import TYPE_CHECKING, Any

import openpyxl
import pytest

from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.history import ReviewData
from ai4hse_desk.review.imports import import_notes
from ai4hse_desk.review.read import read_review
from ai4hse_desk.review.rules import BlindRuleError
from tests.core.desk_helpers import cli

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

T, F, U = "TRUE", "FALSE", "UNSURE"
FORMULA = '=HYPERLINK("http://evil.example","click")'
#: ``review_verdicts`` of the export, in creation order.
ANN_Q001, ANN_Q002, BOB_Q001, BOB_Q003 = range(4)


def record_review(notes: NotesStore) -> None:
    """A plan (ann, bob; K=2), four verdicts with six revisions, a decision with two."""
    review = ReviewBook(notes)
    review.make_plan(reviewers=["ann", "bob"], per_question=2)
    review.record_blind("Q001", "ann", [T, F, U, F])
    review.save_verdict("Q001", "ann", verdict="key_wrong", proposed_key=[T, F, T, T],
                        confidence="high", source="ISO 45001 §8", note=FORMULA)  # fmt: skip
    review.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True, submit=False)
    review.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True)
    review.save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, F, T, F])
    review.save_verdict("Q003", "bob", verdict="unclear_options", blind_answer=[T, T, F, F, U],
                        note="B and C overlap")  # fmt: skip
    Adjudication(notes).adjudicate("Q001", "cy", "key_corrected", key=[T, F, T, T], note="@SUM(A1)")
    Adjudication(notes).adjudicate("Q001", "cy", "unresolved", note="ask the author")


def snapshot(notes: NotesStore) -> tuple[object, ...]:
    """Everything a store holds (review tables, flags, notes, revisions)."""
    return (
        notes.run(read_review),
        len(notes.flags()),
        len(notes.attempt_notes()),
        len(notes.revisions()),
    )


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def write(path: Path, doc: object) -> Path:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.fixture
def ann_path(tmp_path: Path) -> Path:
    return tmp_path / "ann.sqlite"


@pytest.fixture
def exported(audit: AuditDB, ann_path: Path, tmp_path: Path) -> Path:
    """Ann's store with :func:`record_review` and a flag, exported as JSON."""
    with NotesStore.open(audit, str(ann_path)) as ann:
        record_review(ann)
        ann.add_flag(question_id="Q005", category="other", note="typo", reviewer="ann")
        export_notes(ann, "json", tmp_path / "ann.json")
    return tmp_path / "ann.json"


# -- round trips ------------------------------------------------------------------------


def test_round_trip_between_stores_and_a_second_import_adds_nothing(
    audit: AuditDB, exported: Path, ann_path: Path, tmp_path: Path, store_url: str
) -> None:
    with NotesStore.open(audit, str(ann_path)) as ann:
        original, status = snapshot(ann), ReviewBook(ann).status()
    with NotesStore.open(audit, store_url) as team:
        first = import_notes(team, exported).to_json()
        assert {k: first[k] for k in first if k.endswith("_added")} == {
            "items_added": 1, "revisions_added": 1, "plans_added": 1, "verdicts_added": 4,
            "verdict_revisions_added": 6, "decisions_added": 1, "decision_revisions_added": 2,
        }  # fmt: skip
        assert (first["plans"], first["verdicts"], first["decisions"]) == (1, 4, 1)
        assert snapshot(team) == original
        assert ReviewBook(team).status() == status
        second = import_notes(team, exported).to_json()
        assert [second[k] for k in second if k.endswith("_added")] == [0] * 7
        assert snapshot(team) == original
        with pytest.raises(BlindRuleError, match="has not submitted"):
            ReviewBook(team).others_verdicts("Q003", "ann")  # the merge reveals nothing
        export_notes(team, "json", tmp_path / "team.json")
    team_doc, ann_doc = load(tmp_path / "team.json"), load(exported)
    for key in ("review_plans", "review_verdicts", "review_decisions", "flags"):
        assert team_doc[key] == ann_doc[key]
    with NotesStore.open(audit, str(ann_path)) as ann:
        back = import_notes(ann, tmp_path / "team.json")
        assert back.review_added.verdict_revisions == back.items_added == 0
        assert snapshot(ann) == original
    with NotesStore.open(audit, str(tmp_path / "third.sqlite")) as third:
        import_notes(third, tmp_path / "team.json")
        assert snapshot(third) == original


def test_two_reviewers_files_merge_to_the_same_store_in_either_order(
    audit: AuditDB, tmp_path: Path
) -> None:
    with NotesStore.open(audit, str(tmp_path / "ann.sqlite")) as ann:
        ReviewBook(ann).save_verdict("Q001", "ann", verdict="key_ok", blind_answer=[T, F, T, F])
        ReviewBook(ann).save_verdict("Q004", "dan", verdict="key_wrong", not_blind=True,
                                     proposed_key=[F, F, F, T])  # fmt: skip
        Adjudication(ann).adjudicate("Q004", "ann", "key_confirmed")
        export_notes(ann, "json", tmp_path / "ann.json")
    with NotesStore.open(audit, str(tmp_path / "bob.sqlite")) as bob:
        ReviewBook(bob).save_verdict("Q001", "bob", verdict="other", not_blind=True, note="n")
        ReviewBook(bob).save_verdict("Q005", "bob", verdict="key_ok", blind_answer=[F] * 5)
        export_notes(bob, "json", tmp_path / "bob.json")
    stores = []
    for name, files in (("one", ("ann", "bob")), ("two", ("bob", "ann"))):
        with NotesStore.open(audit, str(tmp_path / f"{name}.sqlite")) as team:
            for who in files:
                import_notes(team, tmp_path / f"{who}.json")
            stores.append(snapshot(team))
    assert stores[0] == stores[1]
    review = stores[0][0]
    assert isinstance(review, ReviewData)
    assert [(v.question_id, v.reviewer) for v in review.verdicts] == [
        ("Q001", "ann"), ("Q004", "dan"), ("Q001", "bob"), ("Q005", "bob"),
    ]  # fmt: skip


def test_a_plan_made_elsewhere_never_replaces_the_plan_in_force(
    audit: AuditDB, exported: Path, ann_path: Path, tmp_path: Path
) -> None:
    with NotesStore.open(audit, str(tmp_path / "bob.sqlite")) as bob:
        import_notes(bob, exported)  # ann's plan, as the coordinator handed it out
    with NotesStore.open(audit, str(tmp_path / "own.sqlite")) as own:
        ReviewBook(own).make_plan(reviewers=["bob", "cy"], per_question=1)  # newer, unrelated
        export_notes(own, "json", tmp_path / "own.json")
    with NotesStore.open(audit, str(ann_path)) as ann:
        before = snapshot(ann)
        with pytest.raises(ReviewError, match="would replace this store's plan in force"):
            import_notes(ann, tmp_path / "own.json")
        assert snapshot(ann) == before
        ReviewBook(ann).make_plan(reviewers=["ann", "bob", "cy"], per_question=2, replace=True)
        export_notes(ann, "json", tmp_path / "replanned.json")
    with NotesStore.open(audit, str(tmp_path / "bob.sqlite")) as bob:
        result = import_notes(bob, tmp_path / "replanned.json")  # continues bob's history
        assert result.review_added.plans == 1
        plan = ReviewBook(bob).plan()
        assert plan is not None
        assert plan.plan.reviewers == ("ann", "bob", "cy")
        assert len(bob.run(read_review).plans) == 2


def test_a_version_1_export_still_imports(audit: AuditDB, exported: Path, tmp_path: Path) -> None:
    old = load(exported)
    for key in ("review_plans", "review_verdicts", "review_decisions"):
        del old[key]
    old["version"] = 1
    with NotesStore.open(audit, str(tmp_path / "old.sqlite")) as notes:
        result = import_notes(notes, write(tmp_path / "v1.json", old))
        assert (result.items_added, result.verdicts) == (1, 0)
        assert notes.run(read_review).verdicts == ()
    old["review_plans"] = []
    with (
        NotesStore.open(audit, str(tmp_path / "mixed.sqlite")) as notes,
        pytest.raises(ReviewError, match=r"review_plans: is not a field"),
    ):
        import_notes(notes, write(tmp_path / "v1x.json", old))


# -- hostile files ------------------------------------------------------------------------


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """A spoiler setting the value at a JSON path like ``review_verdicts[0].revisions[1].at``."""

    def spoil(doc: dict[str, Any]) -> None:
        keys: list[str | int] = []
        for part in path.replace("]", "").split("."):
            name, *indexes = part.split("[")
            keys.append(name)
            keys.extend(int(i) for i in indexes)
        node: Any = doc
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return spoil


def _verdict(doc: dict[str, Any], index: int) -> dict[str, Any]:
    item: dict[str, Any] = doc["review_verdicts"][index]
    return item


def _fresh_ids(item: dict[str, Any], *, new_id: str | None = None) -> None:
    """New revision ids (and a new item id when ``new_id`` names its field)."""
    if new_id is not None:
        item[new_id] = str(uuid.uuid4())
    for rev in item["revisions"]:
        rev["revision_id"] = str(uuid.uuid4())
        if new_id is not None:
            rev[new_id] = item[new_id]


def _rewrite_blind(item: dict[str, Any], answer: list[str] | None) -> None:
    """Give a verdict item — summary, every revision, the create's changes — another blind
    answer (``None``: not blind), consistently, as a forger would."""
    for target in (item, *item["revisions"]):
        target["blind"], target["blind_answer"] = answer is not None, answer
    changes = item["revisions"][0]["changes"]
    changes["blind"] = [None, answer is not None]
    changes.pop("blind_answer", None)
    if answer is not None:
        changes["blind_answer"] = [None, answer]


def _second_pair(doc: dict[str, Any]) -> None:
    copy = json.loads(json.dumps(_verdict(doc, BOB_Q001)))
    _fresh_ids(copy, new_id="verdict_id")
    doc["review_verdicts"].append(copy)


def _changed_blind(doc: dict[str, Any]) -> None:
    _rewrite_blind(_verdict(doc, ANN_Q001), [F, F, U, F])
    _fresh_ids(_verdict(doc, ANN_Q001))


def _blind_added(doc: dict[str, Any]) -> None:
    _rewrite_blind(_verdict(doc, ANN_Q002), [T, F, T, F])
    _fresh_ids(_verdict(doc, ANN_Q002))


def _other_pair_id(doc: dict[str, Any]) -> None:
    _fresh_ids(_verdict(doc, BOB_Q001), new_id="verdict_id")


def _revision_rewritten(doc: dict[str, Any]) -> None:
    item = _verdict(doc, BOB_Q003)
    item["note"] = item["revisions"][0]["note"] = "rewritten"
    item["revisions"][0]["changes"]["note"] = [None, "rewritten"]


def _adjudicated_by(name: str, question: str | None = None) -> Callable[[dict[str, Any]], None]:
    def spoil(doc: dict[str, Any]) -> None:
        decision = doc["review_decisions"][0]
        decision["adjudicator"] = name
        for rev in decision["revisions"]:
            rev["adjudicator"] = name
        if question is not None:
            decision["question_id"] = question

    return spoil


def _second_decision(doc: dict[str, Any]) -> None:
    _fresh_ids(doc["review_decisions"][0], new_id="decision_id")


FAR_FUTURE = "9999-12-31T23:59:59.999999Z"
V0, V1, V2, V3 = (f"review_verdicts[{i}]" for i in range(4))
D0, P0 = "review_decisions[0]", "review_plans[0]"
#: Case → (spoiler, words the error holds). Each file is checked on its own: field by field,
#: as the CLI checks its input, and its parts against each other.
BAD_FILES: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "blind answer changed later": (
        _set(f"{V0}.revisions[1].blind_answer", [F, F, U, F]),
        "differs from the blind answer the verdict was first recorded with",
    ),
    "blind answer added to a not-blind verdict": (
        lambda d: (
            _set(f"{V1}.revisions[1].blind", True)(d),
            _set(f"{V1}.revisions[1].blind_answer", [T, F, T, F])(d),
        ),
        "differs from the blind answer the verdict was first recorded with",
    ),
    "blind without an answer": (_set(f"{V2}.revisions[0].blind_answer", None), "blind answer"),
    "proposed key too short": (
        _set(f"{V0}.revisions[1].proposed_key", [T, F, T]),
        "has 3 values, but the question has 4 options",
    ),
    "blind answer too short": (
        _set(f"{V3}.revisions[0].blind_answer", [T, T, F, F]),
        "has 4 values, but the question has 5 options",
    ),
    "unknown verdict": (_set(f"{V2}.revisions[0].verdict", "key_fine"), "unknown value 'key_fine'"),
    "unknown confidence": (_set(f"{V0}.revisions[1].confidence", "very"), "unknown value 'very'"),
    "unknown answer value": (_set(f"{V2}.revisions[0].blind_answer", [T, F, "YES", F]), "'YES'"),
    "unknown question": (_set(f"{V2}.question_id", "Q999"), "unknown question"),
    "key_wrong without a key": (
        _set(f"{V0}.revisions[1].proposed_key", None),
        "key_wrong needs a proposed key",
    ),
    "submitted without a verdict": (_set(f"{V2}.revisions[0].verdict", None), "needs a verdict"),
    "bad time": (_set(f"{V0}.revisions[1].at", "yesterday"), "not a UTC time"),
    "blind answer from the future": (_set(f"{V2}.revisions[0].blind_at", FAR_FUTURE), "future"),
    "not a UUID": (_set(f"{V2}.verdict_id", "nope"), "not a UUID"),
    "one pair twice": (_second_pair, "a second verdict of bob on Q001"),
    "summary lies": (_set(f"{V0}.note", "other"), "differs from the verdict's latest revision"),
    "a list given as text": (_set(f"{V2}.revisions[0].blind_answer", "[TRUE]"), "must be a list"),
    "unknown reviewer in the plan": (
        _set(f"{P0}.assignments[0].reviewers", ["ann", "zed"]),
        "unknown reviewer 'zed'",
    ),
    "K above the reviewers": (_set(f"{P0}.per_question", 3), "out of range"),
    "unknown plan order": (_set(f"{P0}.order", "alphabet"), "unknown value 'alphabet'"),
    "corrected without a key": (
        _set(f"{D0}.revisions[0].key", None),
        "key_corrected has the corrected key",
    ),
    "corrected key too long": (
        _set(f"{D0}.revisions[0].key", [True] * 5),
        "has 5 values, but the question has 4 options",
    ),
    "unknown decision": (_set(f"{D0}.revisions[1].decision", "shrug"), "unknown value 'shrug'"),
}
#: Case → (spoiler, words): files that are sound on their own but break what the store
#: holds (imported into ann's own store, which holds the original).
BAD_MERGES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "blind answer changed against the store": (
        _changed_blind,
        "would change the blind answer this store recorded",
    ),
    "blind answer added to the store's not-blind verdict": (
        _blind_added,
        "would add a blind answer to a verdict this store recorded as not blind",
    ),
    "the same pair under another id": (
        _other_pair_id,
        "this store holds another verdict of bob on Q001",
    ),
    "a stored revision rewritten": (_revision_rewritten, "holds another revision with this id"),
    "a second decision on a question": (_second_decision, "another decision on Q001"),
}
#: Case → (spoiler, words): imported into an empty store (the file's verdicts land first).
BAD_ADJUDICATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "adjudicated by a reviewer with a verdict": (_adjudicated_by("bob"), "bob is one of Q001's"),
    "adjudicated by an assignee": (_adjudicated_by("ann", "Q004"), "ann is one of Q004's"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_file_with_a_bad_review_field_is_refused_whole(
    audit: AuditDB, exported: Path, tmp_path: Path, case: str
) -> None:
    spoil, words = BAD_FILES[case]
    doc = load(exported)
    spoil(doc)
    with NotesStore.open(audit, str(tmp_path / "empty.sqlite")) as notes:
        before = snapshot(notes)
        with pytest.raises(ReviewError, match=words):
            import_notes(notes, write(tmp_path / "bad.json", doc))
        assert snapshot(notes) == before


@pytest.mark.parametrize("case", list(BAD_MERGES))
def test_a_file_breaking_the_stores_rules_is_refused_whole(
    audit: AuditDB, exported: Path, ann_path: Path, tmp_path: Path, case: str
) -> None:
    spoil, words = BAD_MERGES[case]
    doc = load(exported)
    spoil(doc)
    bad = write(tmp_path / "bad.json", doc)
    with NotesStore.open(audit, str(tmp_path / "fresh.sqlite")) as fresh:
        import_notes(fresh, bad)  # sound on its own
    with NotesStore.open(audit, str(ann_path)) as ann:
        before = snapshot(ann)
        with pytest.raises(ReviewError, match=words):
            import_notes(ann, bad)
        assert snapshot(ann) == before


@pytest.mark.parametrize("case", list(BAD_ADJUDICATIONS))
def test_an_adjudication_by_a_reviewer_is_refused_with_everything_else(
    audit: AuditDB, exported: Path, tmp_path: Path, store_url: str, case: str
) -> None:
    spoil, words = BAD_ADJUDICATIONS[case]
    doc = load(exported)
    spoil(doc)
    with NotesStore.open(audit, store_url) as notes:
        before = snapshot(notes)
        with pytest.raises(ReviewError, match=words):
            import_notes(notes, write(tmp_path / "bad.json", doc))
        assert snapshot(notes) == before  # the verdicts checked first are not kept either


def test_the_cli_refuses_with_one_error_line_and_reports_only_counts(
    audit: AuditDB, exported: Path, tmp_path: Path
) -> None:
    team = ["--notes", str(tmp_path / "team.sqlite")]
    doc = load(exported)
    _changed_blind(doc)
    assert cli("notes", "import", str(audit.path), str(exported), *team)[0] == 0
    code, out, err = cli("notes", "import", str(audit.path),
                         str(write(tmp_path / "bad.json", doc)), *team)  # fmt: skip
    assert (code, out) == (2, "")
    assert err.startswith("error: bad.json: review_verdicts[0].revisions[0].blind_answer: ")
    assert err.count("\n") == 1
    code, out, err = cli("notes", "import", str(audit.path), str(exported), *team)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["verdicts_added"] == report["verdicts"] - 4 == 0
    for secret in ("HYPERLINK", "UNSURE", "overlap", "ISO 45001", "ask the author", "key_"):
        assert secret not in out  # counts, never contents


# -- what the files say -----------------------------------------------------------------


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return list(csv.DictReader(handle))


def _sheets(path: Path) -> dict[str, list[dict[str, object]]]:
    book = openpyxl.load_workbook(path)
    out = {}
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
        rows = list(sheet.iter_rows(values_only=True))
        header = [str(h) for h in rows[0]]
        out[sheet.title] = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    book.close()
    return out


def test_csv_and_xlsx_guard_formulas_and_name_options_by_letter(
    audit: AuditDB, ann_path: Path, exported: Path, tmp_path: Path
) -> None:
    with NotesStore.open(audit, str(ann_path)) as ann:
        ReviewBook(ann).save_verdict("Q005", "bob", verdict="other", not_blind=True,
                                source="+SUM(1)", note="-2")  # fmt: skip
        export_notes(ann, "csv", tmp_path / "ann.csv")
        export_notes(ann, "xlsx", tmp_path / "ann.xlsx")
    rows = _read_csv(tmp_path / "ann.csv")
    assert [r["kind"] for r in rows] == ["flag"] + ["review_verdict"] * 5 + ["review_decision"]
    ann_q001 = rows[1]
    assert (ann_q001["question_id"], ann_q001["reviewer"], ann_q001["state"]) == (
        "Q001", "ann", "submitted",
    )  # fmt: skip
    assert ann_q001["note"] == "'" + FORMULA
    assert ann_q001["blind"] == "True"
    assert ann_q001["blind_answer"] == "A TRUE, B FALSE, C UNSURE, D FALSE"
    assert ann_q001["proposed_key"] == "A TRUE, B FALSE, C TRUE, D TRUE"
    assert (ann_q001["verdict"], ann_q001["confidence"]) == ("key_wrong", "high")
    assert ann_q001["revisions"] == "2"
    assert rows[2]["blind"] == "False"
    assert rows[2]["blind_answer"] == ""
    assert (rows[5]["reviewer"], rows[5]["source"], rows[5]["note"]) == ("bob", "'+SUM(1)", "'-2")
    decision = rows[-1]
    assert (decision["decision"], decision["reviewer"], decision["revisions"]) == (
        "unresolved", "cy", "2",
    )  # fmt: skip
    sheets = _sheets(tmp_path / "ann.xlsx")
    assert list(sheets) == ["Verdicts", "Decisions", "Flags and notes", "History", "Plan", "notes"]
    assert [r["note"] for r in sheets["notes"]][1] == "'" + FORMULA  # the CSV's table
    ann_verdict, bob_q005 = sheets["Verdicts"][0], sheets["Verdicts"][-1]
    assert (ann_verdict["Question"], ann_verdict["Reviewer"], ann_verdict["Status"],
            ann_verdict["Verdict"], ann_verdict["Confidence"]) == (
        "Q001", "ann", "Submitted", "Key wrong", "High",
    )  # fmt: skip
    assert ann_verdict["Note"] == "'" + FORMULA
    assert ann_verdict["Answered blind"] == "Yes"
    assert ann_verdict["Blind answer"] == "A TRUE, B FALSE, C UNSURE, D FALSE"
    assert ann_verdict["Proposed key"] == "A TRUE, B FALSE, C TRUE, D TRUE"
    assert "Official key" not in ann_verdict  # private
    assert (bob_q005["Source checked"], bob_q005["Note"]) == ("'+SUM(1)", "'-2")
    history = sheets["History"]
    verdict_steps = [r for r in history if r["Item"] == "Verdict"]
    assert len(verdict_steps) == 7
    assert [r["What happened"] for r in verdict_steps
            if (r["Question"], r["By"]) == ("Q001", "ann")] == ["Created", "Submitted"]  # fmt: skip
    decided = [(r["What happened"], r["Changes"]) for r in history if r["Item"] == "Decision"]
    assert decided == [
        ("Decided", "decision: — → Key corrected; corrected key: — → A TRUE, B FALSE, C TRUE, "
                    "D TRUE; adjudicator: — → cy; note: — → @SUM(A1)"),
        ("Revised", "decision: Key corrected → Unresolved; corrected key: A TRUE, B FALSE, "
                    "C TRUE, D TRUE → —; note: @SUM(A1) → ask the author"),
    ]  # fmt: skip
    assert [(r["Decision"], r["Corrected key"], r["Revisions"]) for r in sheets["Decisions"]] == [
        ("Unresolved", None, 2),
    ]  # fmt: skip
    plan = sheets["Plan"]
    assert len(plan) == 10  # five questions, two reviewers each
    assert {r["In force"] for r in plan} == {"Yes"}
    assert [(r["Question"], r["Position"]) for r in plan][::2] == [
        ("Q001", 1), ("Q002", 2), ("Q003", 3), ("Q005", 4), ("Q004", 5),
    ]  # fmt: skip
    doc = load(exported)
    assert _verdict(doc, ANN_Q001)["note"] == FORMULA  # JSON stays exact


@pytest.mark.parametrize("fmt", ["csv", "json", "xlsx"])
def test_private_texts_only_with_include_private(audit: AuditDB, tmp_path: Path, fmt: str) -> None:
    with NotesStore.open(audit, str(tmp_path / "notes.sqlite")) as notes:
        ReviewBook(notes).save_verdict("Q001", "ann", verdict="key_ok", blind_answer=[T, F, T, F])
        ReviewBook(notes).save_verdict("Q003", "bob", verdict="key_wrong", not_blind=True,
                                       proposed_key=[F] * 5)  # fmt: skip
        Adjudication(notes).adjudicate("Q003", "cy", "question_excluded")
        public, private = tmp_path / f"public.{fmt}", tmp_path / f"private.{fmt}"
        export_notes(notes, fmt, public)
        export_notes(notes, fmt, private, include_private=True)
    texts = [audit.question(q).text for q in ("Q001", "Q003")]
    texts += [o.text for q in ("Q001", "Q003") for o in audit.question(q).options]
    texts = [text for text in texts if len(text) > 6]
    assert len(texts) >= 6

    def read(path: Path) -> str:
        if fmt != "xlsx":
            return path.read_text(encoding="utf-8-sig")
        return json.dumps(_sheets(path), default=str, ensure_ascii=False)

    public_text, private_text = read(public), read(private)
    for text in texts:
        assert text not in public_text
        assert json.dumps(text)[1:-1] not in public_text
        assert json.dumps(text, ensure_ascii=False)[1:-1] in private_text
    for column in ("question_text", "answer_key", "option_text"):
        assert column not in public_text
    if fmt == "json":
        with NotesStore.open(audit, str(tmp_path / "other.sqlite")) as other:
            assert import_notes(other, private).review_added.verdicts == 2
            assert "question_text" not in json.dumps(ReviewBook(other).status())
