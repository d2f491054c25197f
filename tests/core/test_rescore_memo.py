"""The rescore memo keeps only short responses that recur, within its bound (issue 16)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ai4hse_desk.audit import open_audit
from ai4hse_desk.protocol import extract
from ai4hse_desk.verdicts import stream
from ai4hse_desk.verdicts.rescore import MEMO_MAX_TEXT, rescore

if TYPE_CHECKING:
    from pathlib import Path

    import pytest

    from ai4hse_desk.protocol.extract import Rule
    from ai4hse_desk.protocol.outcome import Extraction


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, str, int, int]]:
    """Count the rule calls of the verdict stream per (track, text, n, protocol version)."""
    calls: Counter[tuple[str, str, int, int]] = Counter()

    def verdict_rule(track: str) -> Rule:
        rule = extract.verdict_rule(track)

        def counted(text: str, n: int, version: int) -> Extraction:
            calls[track, text, n, version] += 1
            return rule(text, n, version)

        return counted

    monkeypatch.setattr(stream, "verdict_rule", verdict_rule)
    return calls


def test_long_and_reasoning_texts_are_judged_every_time(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo's explanations repeat, yet each attempt is judged: they never enter the memo."""
    calls = _counting(monkeypatch)
    with open_audit(demo_db) as db:
        expected = rescore(db, workers=1)
    with open_audit(demo_db) as db:
        assert rescore(db, workers=1) == expected
    reasoning = [count for key, count in calls.items() if key[0] == "reasoning_assisted"]
    assert max(reasoning) > 2  # the same explanation judged again and again
    short = {key: count for key, count in calls.items() if key[0] != "reasoning_assisted"}
    recurring = [count for key, count in short.items() if len(key[1]) <= MEMO_MAX_TEXT]
    assert max(recurring) == 2  # one call per distinct text and rescore, however often it recurs
    long = [count for key, count in short.items() if len(key[1]) > MEMO_MAX_TEXT]
    assert long
    assert sum(long) >= len(long) * 2


def test_a_full_memo_is_emptied_and_the_result_stays(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_audit(demo_db) as db:
        expected = rescore(db, workers=1)
    calls = _counting(monkeypatch)
    monkeypatch.setattr(stream, "MEMO_MAX_ENTRIES", 5)
    with open_audit(demo_db) as db:
        assert rescore(db, workers=1) == expected
    short = [n for key, n in calls.items() if key[0] != "reasoning_assisted" and len(key[1]) < 40]
    assert max(short) > 1  # with room for 5 verdicts, recurring texts are judged again
