"""What the review views write as text: the server window's codes in the words the local
window uses, hostile text made visible, the vote counts out of the attempts with a selection
and with thousands separators.

Pure functions over the server's JSON (cli.md's shapes) and the index's rows; no Qt, no server.
"""

from __future__ import annotations

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.review.server_texts import (
    key_values,
    queue_item_text,
    response_rows,
    reveal_text,
    verdict_line,
)
from ai4hse_desk.gui.review.texts import flags_text, option_votes, response_cell, response_tip
from ai4hse_desk.index.filters import ListRow
from ai4hse_desk.notes import Flag
from ai4hse_desk.protocol.outcome import Status, Track

RLO = "\u202e"


def test_a_queue_item_says_why_in_words_and_its_decision_by_name() -> None:
    item = {
        "question_id": "Q001",
        "reasons": ["key_wrong", "proposed_keys_differ"],
        "decision": {"decision": "unresolved"},
    }
    assert queue_item_text(item) == (
        "Q001 — a reviewer says the key is wrong; the proposed keys differ · Unresolved"
    )
    odd = {"question_id": f"Q{RLO}9", "reasons": [f"new{RLO}code"], "decision": None}
    assert queue_item_text(odd) == f"{display_text(f'Q{RLO}9')} — {display_text(f'new{RLO}code')}"
    assert RLO not in queue_item_text(odd)


def test_a_verdict_line_names_the_verdict_and_shows_hostile_text_plainly() -> None:
    verdict = {
        "reviewer": "bo",
        "verdict": "key_wrong",
        "proposed_key": ["TRUE", "TRUE", "FALSE", "FALSE"],
        "confidence": f"high{RLO}",
        "note": f"<b>bo</b>{RLO} reason",
    }
    line = verdict_line(verdict)
    assert line.startswith("bo: Key wrong · proposed key A TRUE, B TRUE, C FALSE, D FALSE")
    assert f"confidence {display_text(f'high{RLO}')}" in line
    assert f"note: {display_text(f'<b>bo</b>{RLO} reason')}" in line
    assert RLO not in line
    assert verdict_line({"reviewer": "cy", "verdict": "unclear_options"}) == "cy: Options unclear"


def test_the_votes_count_out_of_the_attempts_with_a_selection() -> None:
    shown = {
        "options": ["first", "second"],
        "key": [True, False],
        "verdict": {"blind_answer": ["TRUE", "FALSE"]},
        "others": [],
        "decision": {"decision": "key_corrected", "adjudicator": "cy"},
        "runs": [
            {
                "run_id": "r1",
                "model": "m",
                "track": "answer_only",
                "attempts": [
                    {
                        "repetition": 1,
                        "status": "valid",
                        "correct": True,
                        "selection": [True, False],
                    },
                    {"repetition": 2, "status": "missing", "correct": False, "selection": None},
                    {
                        "repetition": 3,
                        "status": "valid",
                        "correct": False,
                        "selection": [True, True],
                    },
                ],
            }
        ],
    }
    text = reveal_text(shown)
    assert "Attempts selecting each option: A 2, B 1 (of 2 attempts with a selection)" in text
    assert "Decision: Key corrected by cy" in text
    assert "  rep 2: missing ✗ no selection" in text


def test_a_key_from_the_server_reads_as_one_true_or_false_per_option() -> None:
    assert key_values([True, False, True]) == ("TRUE", "FALSE", "TRUE")
    assert key_values(["TRUE", "FALSE"]) == ("TRUE", "FALSE")
    assert key_values(["true", None, 1]) == ("FALSE", "FALSE", "FALSE")
    assert key_values(None) == ()


def test_the_local_vote_counts_have_thousands_separators() -> None:
    """A file of a million attempts: "1,500 of 2,000", as every other count reads."""

    def row(number: int, selection: tuple[bool, ...] | None) -> ListRow:
        status = Status.VALID if selection is not None else Status.MISSING
        return ListRow(number, 1, "Q001", "r1", "m", Track.ANSWER_ONLY, 1, "answered", status,
                       False, False, False, None, selection=selection)  # fmt: skip

    rows = [row(n, (n < 1500, True)) for n in range(2000)] + [row(2000 + n, None) for n in range(7)]
    assert option_votes(rows, 0) == "1,500 of 2,000"
    assert option_votes(rows, 1) == "2,000 of 2,000"


def _flag(category: str, state: str = "open") -> Flag:
    at = "2026-01-01T00:00:00.000000Z"
    return Flag("f-" + category, "Q001", None, category, "low", "", state, "ann", at, "ann", at)


def test_the_reveal_names_open_flags_by_category_in_words() -> None:
    flags = [_flag("option_overlap"), _flag("key_incorrect"), _flag("other", "resolved")]
    assert flags_text(flags) == "2 open flags: Key incorrect, Options overlap."
    assert flags_text([flags[2]]) == "No open flag on this question (1 closed flag)."


def _released(*attempts: dict[str, object], track: str = "answer_only") -> dict[str, object]:
    return {"runs": [{"run_id": f"r{RLO}1", "model": "m", "track": track,
                      "attempts": list(attempts)}]}  # fmt: skip


def test_the_released_attempts_are_rows_of_the_local_responses_table() -> None:
    """The server window's responses table is the local Review page's: each released
    attempt a row with its status, correctness and selection, counted as the local ones."""
    shown = _released(
        {"attempt_id": 7, "repetition": 1, "status": "valid", "correct": True,
         "selection": [True, False]},
        {"attempt_id": 8, "repetition": 2, "status": "missing", "correct": False,
         "selection": None},
        {"attempt_id": 9, "repetition": 3, "status": "valid", "correct": False,
         "selection": [True, True]},
    )  # fmt: skip
    rows = response_rows(shown)
    assert [(r.attempt_id, r.run_id, r.track, r.repetition, r.status, r.correct, r.selection)
            for r in rows] == [
        (7, f"r{RLO}1", Track.ANSWER_ONLY, 1, Status.VALID, True, (True, False)),
        (8, f"r{RLO}1", Track.ANSWER_ONLY, 2, Status.MISSING, False, None),
        (9, f"r{RLO}1", Track.ANSWER_ONLY, 3, Status.VALID, False, (True, True)),
    ]  # fmt: skip
    assert option_votes(rows, 0) == "2 of 2"
    assert option_votes(rows, 1) == "1 of 2"
    assert response_cell(rows[0], "Valid") == "A ✓"
    assert response_cell(rows[1], "Missing") == "Missing"
    assert response_tip(rows[2]) == "attempt 9: valid, selection A, B, not correct"


def test_a_status_or_track_the_desk_does_not_know_leaves_the_table_out() -> None:
    ok = {"attempt_id": 1, "repetition": 1, "status": "valid", "correct": True,
          "selection": [True]}  # fmt: skip
    assert len(response_rows(_released(ok))) == 1
    assert response_rows(_released({**ok, "status": "new_status"})) == []
    assert response_rows(_released(ok, track="new_track")) == []
    assert response_rows(_released({**ok, "attempt_id": None})) == []
    assert response_rows({"runs": None}) == []
    assert response_rows({}) == []
