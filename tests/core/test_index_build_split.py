"""The review index built by two processes is the one-process index, row for row."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.index import BuildCancelled, build_index, open_index
from ai4hse_desk.index import build_split as split_module
from ai4hse_desk.index.build_rows import ReasonIds
from ai4hse_desk.index.build_split import SPLIT_MIN_ATTEMPTS, WORKER_SHARE, split_ranges
from ai4hse_desk.verdicts import machine

if TYPE_CHECKING:
    from collections.abc import Callable


def _content(path: Path) -> tuple[list[tuple[object, ...]], ...]:
    """Every row of the index's tables that carry the verdicts, and its meta but the
    build's time and process count."""
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT * FROM rows ORDER BY attempt_id").fetchall()
        reasons = conn.execute("SELECT * FROM reasons ORDER BY reason_id").fetchall()
        questions = conn.execute("SELECT * FROM questions ORDER BY ordinal").fetchall()
        meta = conn.execute(
            "SELECT * FROM meta WHERE key NOT IN ('built_at', 'build_processes') ORDER BY key"
        ).fetchall()
    return rows, reasons, questions, meta


def _processes(path: Path) -> str:
    with closing(sqlite3.connect(path)) as conn:
        found = conn.execute("SELECT value FROM meta WHERE key = 'build_processes'").fetchone()
    return str(found[0])


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> list[split_module._Worker]:
    """The worker processes the builds of the test start (to see that each has ended)."""
    started: list[split_module._Worker] = []
    original = split_module._Worker.__init__

    def init(self: split_module._Worker, *args: object) -> None:
        original(self, *args)  # type: ignore[arg-type]
        started.append(self)

    monkeypatch.setattr(split_module._Worker, "__init__", init)
    return started


def _ended(started: list[split_module._Worker]) -> bool:
    return bool(started) and all(worker.process.poll() is not None for worker in started)


def _hidden(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir() if p.name.startswith("."))


def test_two_processes_build_the_one_process_index(
    demo_db: Path, cache: Path, workers: list[split_module._Worker]
) -> None:
    with open_audit(demo_db) as db:
        serial = _content(build_index(db, split=False))
        seen: list[tuple[int, int]] = []
        path = build_index(db, split=True, progress=lambda d, t: seen.append((d, t)) or True)
        assert _processes(path) == "2"
        assert _content(path) == serial
        assert len(serial[0]) == 2400
        assert len(serial[1]) > 1  # several reason sentences, renumbered alike
    total = seen[0][1]
    assert total == 2400 + 1200  # the attempts, then the index creations (a third)
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)  # never backwards
    assert (2400, total) in seen  # both parts counted
    assert seen[-1] == (total, total)
    assert _hidden(cache) == []  # the worker's part file is gone
    assert _ended(workers)


@pytest.mark.usefixtures("cache")
def test_the_workers_rows_are_copied_as_they_are_when_its_reason_ids_agree(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    appended: list[str] = []
    original = split_module._append

    def spy(conn: sqlite3.Connection, part: Path, reasons: ReasonIds) -> int:
        conn.set_trace_callback(appended.append)
        try:
            return original(conn, part, reasons)
        finally:
            conn.set_trace_callback(None)

    monkeypatch.setattr(split_module, "_append", spy)
    with open_audit(demo_db) as db:
        build_index(db, split=True)
    assert split_module._APPEND_AS_IS in appended
    assert not any("reason_map" in statement for statement in appended)


@pytest.mark.usefixtures("cache")
def test_a_collision_of_reason_ids_renumbers_the_workers_rows(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should this process give one of the worker's sentences another id (two sentences'
    ids collided in one of them), the worker's rows are renumbered: every row keeps its
    sentence, and the ids stay unique."""
    with open_audit(demo_db) as db:
        serial = _joined(build_index(db, split=False))
        monkeypatch.setattr(ReasonIds, "adopt", lambda *_: False)
        path = build_index(db, split=True)
        assert _processes(path) == "2"
    assert _joined(path) == serial
    with closing(sqlite3.connect(path)) as conn:
        texts = [text for (text,) in conn.execute("SELECT text FROM reasons")]
    assert len(texts) == len(set(texts))


def _joined(path: Path) -> list[tuple[object, ...]]:
    """Each row's attempt id and reason sentence."""
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(
            "SELECT attempt_id, x.text FROM rows JOIN reasons AS x USING (reason_id) "
            "ORDER BY attempt_id"
        ).fetchall()


def test_a_reason_id_is_a_function_of_its_sentence_and_collisions_take_the_next() -> None:
    first, second = ReasonIds(), ReasonIds()
    a, b = first.add("sentence A"), first.add("sentence B")
    assert (second.add("sentence B"), second.add("sentence A")) == (b, a)  # any order
    assert 0 <= a < 2**63
    assert second.adopt("sentence A", a)
    assert not second.adopt("sentence A", a + 1)  # it has another id here
    assert not second.adopt("sentence C", b)  # the id is another sentence's
    crowded = ReasonIds()
    assert crowded.adopt("not C", ReasonIds().add("sentence C"))
    assert crowded.add("sentence C") == (ReasonIds().add("sentence C") + 1) % 2**63


def test_the_worker_takes_the_upper_share_of_the_ids(demo_db: Path) -> None:
    with open_audit(demo_db) as db:
        low, high = db.attempt_id_bounds() or (0, 0)
        ranges = split_ranges(db, True)
        assert split_ranges(db, False) is None
        assert split_ranges(db, None) is None  # 2,400 attempts: one process
    assert ranges is not None
    (a, b), (c, d) = ranges
    assert (a, b + 1, d) == (low, c, high)
    assert abs((d - c + 1) / (high - low + 1) - WORKER_SHARE) < 0.01


def test_the_machine_decides_for_a_large_file_only_with_an_idle_core(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(split_module, "SPLIT_MIN_ATTEMPTS", 1_000)
    monkeypatch.setattr(machine, "usable_cpus", lambda: 2)
    with open_audit(demo_db) as db:
        monkeypatch.setattr(machine, "idle_cores", lambda **_kw: 1.5)
        assert split_ranges(db, None) is not None
        monkeypatch.setattr(machine, "idle_cores", lambda **_kw: 0.4)
        assert split_ranges(db, None) is None
        monkeypatch.setattr(machine, "usable_cpus", lambda: 1)
        monkeypatch.setattr(machine, "idle_cores", lambda **_kw: 1.5)
        assert split_ranges(db, None) is None
    assert SPLIT_MIN_ATTEMPTS >= 100_000  # the real threshold: a small file never splits


def _refusals(db_path: Path) -> tuple[str, str]:
    """The messages of the one-process build and of the split build, both refused (and
    no index left)."""
    with open_audit(db_path) as db:
        with pytest.raises(AuditError) as serial:
            build_index(db, split=False)
        with pytest.raises(AuditError) as split:
            build_index(db, split=True)
        assert open_index(db) is None
    return str(serial.value), str(split.value)


def test_a_bad_value_in_the_workers_part_is_the_one_process_error(
    make_audit_db: Callable[..., Path], cache: Path, workers: list[split_module._Worker]
) -> None:
    db_path = make_audit_db()
    with sqlite3.connect(db_path) as conn:
        high = int(conn.execute("SELECT max(attempt_id) FROM attempts").fetchone()[0])
        conn.execute("UPDATE attempts SET repetition = -3 WHERE attempt_id = ?", (high,))
    serial, split = _refusals(db_path)
    assert split == serial
    assert "repetition" in split
    assert list(cache.iterdir()) == []
    assert _ended(workers)


@pytest.mark.parametrize("bad_value", [False, True])
def test_a_problem_beyond_single_rows_is_the_one_process_error(
    make_audit_db: Callable[..., Path], cache: Path, bad_value: bool
) -> None:
    """Each part's scan checks what its rows refer to; a repetition past its run's is
    refused with the one-process message, and a bad value, which one pass meets first,
    is still the one named (here the worker's)."""
    db_path = make_audit_db()
    with sqlite3.connect(db_path) as conn:
        low, high = conn.execute("SELECT min(attempt_id), max(attempt_id) FROM attempts").fetchone()
        conn.execute("UPDATE attempts SET repetition = 99 WHERE attempt_id = ?", (low + 1,))
        if bad_value:  # in the worker's part
            conn.execute("UPDATE attempts SET correct = 5 WHERE attempt_id = ?", (high,))
    serial, split = _refusals(db_path)
    assert split == serial
    assert ("correct is 5" if bad_value else "repetition 99") in split
    assert list(cache.iterdir()) == []


def test_an_unknown_question_in_the_workers_part_is_named(
    make_audit_db: Callable[..., Path], cache: Path
) -> None:
    db_path = make_audit_db()
    with sqlite3.connect(db_path) as conn:
        high = int(conn.execute("SELECT max(attempt_id) FROM attempts").fetchone()[0])
        conn.execute("UPDATE attempts SET question_id = 'Q404' WHERE attempt_id = ?", (high,))
    with open_audit(db_path) as db, pytest.raises(AuditError, match="Q404"):
        build_index(db, split=True)
    assert list(cache.iterdir()) == []


def test_cancelling_ends_the_worker_and_leaves_nothing(
    demo_db: Path, cache: Path, workers: list[split_module._Worker]
) -> None:
    calls: list[int] = []

    def progress(done: int, _total: int) -> bool:
        calls.append(done)
        return len(calls) < 2

    with open_audit(demo_db) as db:
        with pytest.raises(BuildCancelled):
            build_index(db, split=True, progress=progress)
        assert open_index(db) is None
    assert len(calls) == 2
    assert list(cache.iterdir()) == []
    assert _ended(workers)


def test_a_worker_that_fails_leaves_its_part_to_this_process(
    demo_db: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, workers: list[split_module._Worker]
) -> None:
    with open_audit(demo_db) as db:
        serial = _content(build_index(db, split=False))
        monkeypatch.setattr(
            split_module._Worker, "result", lambda _self, _waiting: ("crash", "no worker")
        )
        path = build_index(db, split=True)
        assert _processes(path) == "1"
        assert _content(path) == serial
    assert _hidden(cache) == []
    assert _ended(workers)


def test_no_worker_process_to_be_had_means_one_process(
    demo_db: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_args: object, **_kwargs: object) -> None:
        raise OSError("no more processes")

    with open_audit(demo_db) as db:
        serial = _content(build_index(db, split=False))
        monkeypatch.setattr(split_module.subprocess, "Popen", refused)
        path = build_index(db, split=True)
        assert _processes(path) == "1"
        assert _content(path) == serial
    assert _hidden(cache) == []


def test_a_script_without_a_main_guard_builds_split(demo_db: Path, tmp_path: Path) -> None:
    """The worker runs its own module: the caller's script is never run a second time
    (as ``multiprocessing``'s spawn would, starting the whole script over)."""
    cache = tmp_path / "cache"
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import sys\n"
        "from ai4hse_desk.audit import open_audit\n"
        "from ai4hse_desk.index import build_index\n"
        f"with open_audit({str(demo_db)!r}) as db:\n"
        "    print(build_index(db, split=True))\n"
    )
    env = {**os.environ, "AI4HSE_DESK_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("\n") == 1  # built once, printed once
    assert _processes(Path(done.stdout.strip())) == "2"


def test_the_worker_answers_one_line_whatever_it_is_given(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk.index.build_worker", str(missing), "x", "1", "2"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0
    kind, _, message = done.stdout.strip().partition(" ")
    assert kind in ("error", "crash")
    assert "missing.sqlite" in message
    assert "Traceback" not in done.stderr
