"""The cyclic garbage collector is paused while verdicts stream in, and left as found."""

from __future__ import annotations

import gc
import threading
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.verdicts import stream as stream_module
from ai4hse_desk.verdicts.collector import collect_only_when_asked, collector_paused
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


@pytest.fixture(params=[True, False], ids=["collector-on", "collector-off"])
def collector(request: pytest.FixtureRequest) -> Iterator[bool]:
    """The collector switched on or off before the test, restored after it."""
    was = gc.isenabled()
    on = bool(request.param)
    gc.enable() if on else gc.disable()
    try:
        yield on
    finally:
        gc.enable() if was else gc.disable()


def _watched(note: Callable[[], object]) -> Callable[..., Iterator[object]]:
    """The verdict stream, ``note()`` called as each batch comes."""
    stream = stream_module.verdict_stream

    def watched(*args: object, **kwargs: object) -> Iterator[object]:
        for batch in stream(*args, **kwargs):  # type: ignore[arg-type]
            note()
            yield batch

    return watched


def test_pauses_from_two_threads_end_with_the_last(collector: bool) -> None:
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    thread = threading.Thread(target=first)
    thread.start()
    first_in.wait(5)
    with collector_paused():
        second_in.set()
        first_out.wait(5)
        seen.append(gc.isenabled())  # the first pause has ended, this one has not
    thread.join()
    assert seen == [False]
    assert gc.isenabled() is collector


def test_a_pause_ends_with_an_error_too(collector: bool) -> None:
    inside: list[bool] = []

    def fail() -> None:
        with collector_paused():
            inside.append(gc.isenabled())
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        fail()
    assert inside == [False]
    assert gc.isenabled() is collector


def test_a_one_process_rescore_streams_with_the_collector_paused(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch, collector: bool
) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(
        "ai4hse_desk.verdicts.rescore.verdict_stream",
        _watched(lambda: seen.append(gc.isenabled())),
    )
    with open_audit(demo_db) as db:
        assert rescore(db, workers=1).attempts == 2400
    assert seen
    assert not any(seen)
    assert gc.isenabled() is collector


def test_a_rescore_worker_scores_its_share_with_the_collector_paused(
    demo_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "collector.log"

    def note() -> None:
        with log.open("a", encoding="utf-8") as out:  # (a forked worker: logged to a file)
            out.write(f"{gc.isenabled()}\n")

    monkeypatch.setattr("ai4hse_desk.verdicts.workers.verdict_stream", _watched(note))
    was = gc.isenabled()
    gc.enable()
    try:
        with open_audit(demo_db) as db:
            serial = rescore(db, workers=1)
            split = rescore(db, workers=2)
        assert gc.isenabled()  # the parent's collector is untouched
    finally:
        gc.enable() if was else gc.disable()
    assert split == serial
    assert log.read_text(encoding="utf-8").split() == ["False", "False"]


@pytest.mark.usefixtures("collector")
def test_once_collection_is_only_when_asked_no_pause_turns_it_back_on() -> None:
    """The window owns the collector from its start (its GUI thread collects on a timer):
    a pause open then, and every later one, ends with automatic collection still off."""
    with collector_paused():
        collect_only_when_asked()
    assert not gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
