"""The window follows the store while it is open, and records what the report measures.

* Live: another PROCESS records verdicts or makes a plan; the open window shows it
  without a restart (the store watch polls ``PRAGMA data_version``; on PostgreSQL the
  store's writes notify).
* Reviewer effort: each showing of a question on the Review page is recorded
  (``record_shown``), a re-read of the same question is not, and looking creates no
  store.
* The key audit's evidence replaces "still being computed" on a reveal already shown.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
import uuid
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.review.view import REVEALED
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.values import FALSE, TRUE
from tests.gui.review_panel import VERDICTS, copy_demo, in_store, open_window, settle, submit

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.workers.store_probe import PostgresProbe


#: A second process: waits for a line on stdin, runs ``WORK`` on the audit's store,
#: prints "written" once committed. argv: audit, then what ``WORK`` reads.
CHILD = """
import sys
from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
audit = sys.argv[1]
with open_audit(audit) as db, NotesStore.open(db, *sys.argv[2:3]) as store:
    book = ReviewBook(store)
    print("ready", flush=True)
    sys.stdin.readline()
    {work}
    print("written", flush=True)
"""
DISAGREE = """for who, verdict, key in (("ann", "key_ok", None), ("bob", "key_wrong", "TFFT")):
        answer = ["TRUE" if c == "T" else "FALSE" for c in key or "FFTT"]
        book.save_verdict("Q006", who, verdict=verdict, blind_answer=answer,
                          proposed_key=answer if key else None)"""
PLAN = 'book.make_plan(reviewers=["ann", "bob"], per_question=1, created_by="coord")'
#: Long enough for a loaded machine; the watch itself looks every POLL_MS.
SHOWN_WITHIN_MS = 10_000


def start_child(audit: Path, work: str, store: str | None = None) -> subprocess.Popen[str]:
    argv = [sys.executable, "-c", CHILD.format(work=work), str(audit)]
    child = subprocess.Popen([*argv, *([store] if store else [])], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    return child


def write_now(child: subprocess.Popen[str]) -> None:
    """Let the child write; return once it has committed."""
    assert child.stdin is not None
    assert child.stdout is not None
    child.stdin.write("go\n")
    child.stdin.flush()
    written = child.stdout.readline().strip()
    child.stdin.close()
    child.stdout.close()
    assert child.wait(timeout=60) == 0
    assert written == "written"


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    path = copy_demo(pristine, tmp_path)
    submit(path, VERDICTS)
    return path


def test_the_watch_looks_often_enough_for_two_seconds() -> None:
    from ai4hse_desk.gui.controllers.store_watch import POLL_MS

    assert 100 <= POLL_MS <= 1000  # a change shows after at most one look and two reads


def test_another_process_s_verdicts_reach_the_adjudication_queue(qtbot: QtBot, audit: Path) -> None:
    win = open_window(qtbot, audit, "cy")
    win.menu_actions["adjudicate"].trigger()
    settle(win)
    view = win.review_page.adjudication()
    assert [t[:4] for t in view.queue_texts()] == ["Q001", "Q002", "Q004"]
    child = start_child(audit, DISAGREE)
    write_now(child)
    qtbot.waitUntil(lambda: "Q006" in {t[:4] for t in view.queue_texts()},
                    timeout=SHOWN_WITHIN_MS)  # fmt: skip
    assert view.header.text().startswith("Adjudicating as cy: 4 questions need a decision")
    win.close()


def test_a_plan_made_by_another_process_reaches_the_review_page(
    qtbot: QtBot, pristine: Path, tmp_path: Path
) -> None:
    audit = copy_demo(pristine, tmp_path)  # no store yet: the plan's process makes it
    win = open_window(qtbot, audit, "bob")
    win.menu_actions["review"].trigger()
    settle(win)
    assert win.review.queue_line.text().endswith("no review plan: the queue is every question "
                                                  "in corpus order")  # fmt: skip
    child = start_child(audit, PLAN)
    write_now(child)
    qtbot.waitUntil(lambda: win.review.queue_line.text().endswith("your queue in the review plan"),
                    timeout=SHOWN_WITHIN_MS)  # fmt: skip
    queue = win.reviewing.queue
    assert queue is not None
    assert queue.planned
    assert len(queue.questions) == 50  # one reviewer per question: bob has half of 100
    assert win.notes.store is not None  # the store another process made is open now
    win.close()


def shown(audit: Path) -> list[tuple[str, str]]:
    """Every showing recorded: (question, reviewer), oldest first."""
    with sqlite3.connect(f"{audit}.review.sqlite") as conn:
        rows = conn.execute("SELECT question_id, reviewer FROM review_shown ORDER BY at").fetchall()
    conn.close()
    return [(str(q), str(r)) for q, r in rows]


def test_each_showing_of_a_question_is_recorded_once(qtbot: QtBot, audit: Path) -> None:
    win = open_window(qtbot, audit, "ann")
    win.menu_actions["review"].trigger()
    settle(win)
    assert win.reviewing.current == "Q005"  # ann submitted Q001–Q004
    assert shown(audit) == [("Q005", "ann")]
    win.review_page.refresh()  # read again (another process wrote): no new showing
    settle(win)
    assert shown(audit) == [("Q005", "ann")]
    win.review.skip_button.click()
    settle(win)
    assert shown(audit) == [("Q005", "ann"), ("Q006", "ann")]
    win.menu_actions["scores"].trigger()  # away, then back: shown again
    win.menu_actions["review"].trigger()
    settle(win)
    assert shown(audit) == [("Q005", "ann"), ("Q006", "ann"), ("Q006", "ann")]
    win.close()


def test_looking_creates_no_store_the_first_answer_records_the_showing(
    qtbot: QtBot, pristine: Path, tmp_path: Path
) -> None:
    audit = copy_demo(pristine, tmp_path)
    win = open_window(qtbot, audit, "ann")
    win.menu_actions["review"].trigger()
    settle(win)
    assert win.reviewing.current == "Q001"
    assert not os.path.exists(f"{audit}.review.sqlite")
    for option in range(4):  # every option TRUE, then Enter
        win.review.blind.toggle(option)
    win.review.record_blind()
    settle(win)
    assert shown(audit) == [("Q001", "ann")]
    with sqlite3.connect(f"{audit}.review.sqlite") as conn:
        (at,) = conn.execute("SELECT at FROM review_shown").fetchone()
    conn.close()
    own = in_store(audit, lambda store: ReviewBook(store).own_verdict("Q001", "ann"))
    assert own is not None
    assert own.blind_at is not None
    assert at <= own.blind_at  # shown before the answer, recorded with it
    win.close()


def test_the_evidence_follows_the_key_audit_finishing_after_the_reveal(
    qtbot: QtBot, audit: Path
) -> None:
    win = open_window(qtbot, audit, "ann")
    session = win.opening.session
    assert session is not None
    win.keyaudit.clear()  # as if the key audit were still running when the reveal came
    win.reviewing.open_question("Q001")
    win.menu_actions["review"].trigger()
    settle(win)
    assert win.review.phase == REVEALED
    evidence = win.review.reveal.evidence
    assert evidence.text().startswith("Key audit still being computed")
    with qtbot.waitSignal(win.keyaudit.computed, timeout=60_000):
        win.keyaudit.load(session.db, index=session.index)
    assert evidence.text().startswith("Key audit: suspicion rank")
    win.close()


def test_the_probe_of_an_sqlite_store_sees_another_process_commit(
    audit: Path,
) -> None:
    from ai4hse_desk.gui.workers.store_probe import SqliteProbe

    probe = SqliteProbe(audit.with_name("missing.review.sqlite"))
    assert probe.token() is None  # no store yet
    probe = SqliteProbe(audit.parent / "audit.sqlite.review.sqlite")
    first = probe.token()
    assert probe.token() == first  # nothing changed
    write_now(start_child(audit, DISAGREE))
    assert probe.token() != first
    probe.close()


SHOWING = "book.record_shown('Q006', 'ann')"


def test_the_probe_of_an_sqlite_store_ignores_showings_which_no_window_shows(
    audit: Path,
) -> None:
    from ai4hse_desk.gui.workers.store_probe import SqliteProbe

    probe = SqliteProbe(audit.parent / "audit.sqlite.review.sqlite")
    first = probe.token()
    write_now(start_child(audit, SHOWING))
    assert shown(audit)[-1] == ("Q006", "ann"), "the showing is in the store"
    assert probe.token() == first, "a showing changes nothing on screen"
    write_now(start_child(audit, DISAGREE))
    assert probe.token() != first, "a verdict does"
    probe.close()


def test_moving_through_the_queue_reads_nothing_again(
    qtbot: QtBot, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each question shown is recorded; the window's own showings must not look like
    another process's change (the notes and the page were read again every half second
    while a reviewer moved on, and the next question waited behind those reads)."""
    from ai4hse_desk.gui.controllers.store_watch import StoreWatch

    looks: list[object] = []
    changes: list[int] = []
    seen = StoreWatch._seen

    def counted(self: StoreWatch, token: object, generation: int) -> None:
        if not looks:  # (counted from the first look on, however soon it comes)
            self.changed.connect(lambda: changes.append(len(looks)))
        looks.append(token)
        seen(self, token, generation)

    monkeypatch.setattr(StoreWatch, "_seen", counted)
    win = open_window(qtbot, audit, "ann")
    win.menu_actions["review"].trigger()
    settle(win)
    qtbot.waitUntil(lambda: len(changes) == 1, timeout=SHOWN_WITHIN_MS)  # the first look
    before = len(shown(audit))
    for _ in range(3):
        win.review.skip_button.click()
        settle(win)
    assert len(shown(audit)) == before + 3, "each showing recorded"
    looked = len(looks)
    qtbot.waitUntil(lambda: len(looks) >= looked + 2, timeout=SHOWN_WITHIN_MS)
    assert len(changes) == 1, "the window's own showings are no change to read"
    in_store(audit, lambda store: ReviewBook(store).save_verdict(
        "Q009", "bob", verdict="key_ok", blind_answer=[TRUE, FALSE, FALSE, TRUE]))  # fmt: skip
    qtbot.waitUntil(lambda: len(changes) == 2, timeout=SHOWN_WITHIN_MS)  # a verdict is one
    win.close()


def settled(probe: PostgresProbe) -> object:
    """The probe's token once a second has passed without a notification."""
    token = probe.token()
    while True:
        time.sleep(1.0)
        if (again := probe.token()) == token:
            return token
        token = again


@pytest.mark.postgres
def test_the_probe_of_a_postgresql_store_hears_another_process_commit(audit: Path) -> None:
    """The store's write transactions notify; the probe counts its own schema's."""
    from sqlalchemy import create_engine, make_url, text

    from ai4hse_desk.gui.workers.store_probe import PostgresProbe

    base = os.environ.get("AI4HSE_TEST_PG_URL", "")
    if not base:
        if os.environ.get("AI4HSE_REQUIRE_PG") == "1":
            pytest.fail("AI4HSE_REQUIRE_PG=1 but AI4HSE_TEST_PG_URL is unset")
        pytest.skip("AI4HSE_TEST_PG_URL is unset (make test starts a PostgreSQL cluster)")
    schema, other = (f"t_{uuid.uuid4().hex[:16]}" for _ in range(2))
    engine = create_engine(base)
    with engine.begin() as conn:
        for name in (schema, other):
            conn.execute(text(f"CREATE SCHEMA {name}"))
    urls = [make_url(base).update_query_dict({"options": f"-csearch_path={name}"})
            for name in (schema, other)]  # fmt: skip
    cleanup: list[Callable[[], None]] = []
    try:
        with open_audit(audit) as db:
            NotesStore.open(db, urls[1].render_as_string(hide_password=False)).close()
        probe = PostgresProbe(urls[0].set(drivername="postgresql+psycopg"))
        cleanup.append(probe.close)
        first = probe.token()
        mine = urls[0].render_as_string(hide_password=False)
        write_now(start_child(audit, DISAGREE, mine))  # (creates and migrates the store too)
        deadline = time.monotonic() + 10
        while probe.token() == first and time.monotonic() < deadline:
            time.sleep(0.05)
        changed = probe.token()
        assert changed != first
        with open_audit(audit) as db, NotesStore.open(db, mine) as store:
            changed = settled(probe)  # every transaction's notification heard, the open's too
            assert ReviewBook(store).record_shown("Q007", "ann")
            assert settled(probe) == changed, "a showing is not announced: no window shows it"
            NotesStore.open(db, mine).close()  # another desk opens it
            assert settled(probe) == changed, "opening a store writes nothing"
        theirs = urls[1].render_as_string(hide_password=False)
        write_now(start_child(audit, f"book.save_verdict('Q006', 'cy', verdict='key_ok', "
                                     f"blind_answer={list((FALSE, FALSE, TRUE, TRUE))!r})",
                              theirs))  # fmt: skip
        time.sleep(0.3)
        assert probe.token() == changed  # another store's writes are not this store's
    finally:
        for close in cleanup:
            close()
        with engine.begin() as conn:
            for name in (schema, other):
                conn.execute(text(f"DROP SCHEMA {name} CASCADE"))
        engine.dispose()


def test_a_change_written_in_process_is_read_by_the_watch_too(qtbot: QtBot, audit: Path) -> None:
    """A second connection in this process (another window) counts as another writer."""
    win = open_window(qtbot, audit, "cy")
    win.menu_actions["adjudicate"].trigger()
    settle(win)
    view = win.review_page.adjudication()
    in_store(audit, lambda store: ReviewBook(store).save_verdict(
        "Q003", "cy", verdict="key_wrong", blind_answer=[TRUE, TRUE, TRUE, FALSE],
        proposed_key=[TRUE, TRUE, TRUE, FALSE]))  # fmt: skip
    qtbot.waitUntil(lambda: view.header.text().endswith("left out (another person decides them)"),
                    timeout=SHOWN_WITHIN_MS)  # fmt: skip
    win.close()
