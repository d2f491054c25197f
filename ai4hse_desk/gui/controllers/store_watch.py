"""Live: what another process records in the notes store shows in the window at once.

Another reviewer's desk, the command line (``review plan``, ``review adjudicate``) or a
second window write to the same store; without a restart, the window must show it.
:class:`StoreWatch` looks every :data:`POLL_MS` milliseconds — a single-shot timer,
re-armed once the look is done, never a busy loop — whether the store changed, with
one cheap question on its own ``"store watch"`` lane (off the GUI thread, never
queued behind a long read of the notes lane): SQLite's ``PRAGMA data_version``, or
PostgreSQL's notifications (:mod:`ai4hse_desk.gui.workers.store_probe`). On a change
it reads the notes again (opening the store first when another process has just made
it) and says so through :attr:`StoreWatch.changed`: the Review page, the adjudication
workspace and every mark follow. A change shows within about a second. The first look
at a file's store counts as a change: what was written between the notes' first read
and that look is read then.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, QTimer, Signal

from ai4hse_desk.gui.workers.notes_store import default_store_path
from ai4hse_desk.gui.workers.store_probe import PostgresProbe, SqliteProbe
from ai4hse_desk.gui.workers.task import CollectionOp, QueryOp

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.gui.workers.store_probe import StoreProbe
    from ai4hse_desk.index.session import AuditSession

#: How often the store is looked at (ms): a change shows within about twice this.
POLL_MS: Final = 500
LANE: Final = "store watch"
_UNSEEN: Final = object()  # no token read yet for this file


class _Probes:
    """The probe of the store looked at; used on the watch lane only."""

    def __init__(self, audit: Path) -> None:
        self._audit = audit
        self._default: Path | None = None
        self._target: Path | URL | None = None
        self._probe: StoreProbe | None = None

    def token(self, opened: Path | URL | None) -> object:
        """The token of the store open in the window (``opened``), else of the default
        store file of the audit (``None`` while there is no such file)."""
        target = opened
        if target is None:
            if self._default is None:
                self._default = default_store_path(self._audit)(None)
            target = self._default
        if target is None:
            return None
        if target != self._target:
            self.close()
            self._probe = SqliteProbe(target) if isinstance(target, Path) else PostgresProbe(target)
            self._target = target
        assert self._probe is not None
        return self._probe.token()

    def close(self) -> None:
        if self._probe is not None:
            self._probe.close()
        self._probe, self._target = None, None


class StoreWatch(QObject):
    """Looks at the open file's notes store for changes (see the module docstring).

    Signals:
        changed: the store changed; the notes have been asked to read it again.
    """

    changed = Signal()

    def __init__(
        self,
        notes: NotesController,
        tasks: TaskRunner,
        parent: QObject | None = None,
        *,
        interval_ms: int = POLL_MS,
    ) -> None:
        super().__init__(parent)
        self._notes, self._tasks = notes, tasks
        self._timer = QTimer(self, singleShot=True, interval=interval_ms)
        self._timer.timeout.connect(self._look)
        self._session: AuditSession | None = None
        self._probes: _Probes | None = None
        self._last: object = _UNSEEN
        self._generation = 0

    @property
    def watching(self) -> bool:
        """True while a file's store is looked at."""
        return self._probes is not None

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none): stop looking at the last one's store."""
        self._generation += 1
        self._timer.stop()
        if (old := self._probes) is not None:  # (a change: carried out, never cancelled)
            self._tasks.run(CollectionOp(lambda _p: old.close(), lane=LANE))
        self._session, self._probes, self._last = session, None, _UNSEEN

    def close(self) -> None:
        """The window is closing and its lanes have ended: release the probe's connection
        (an SQLite store's last connection then tidies its side files away)."""
        self._timer.stop()
        self._generation += 1
        if self._probes is not None:
            self._probes.close()
        self._probes = None

    def index_ready(self, _index: object = None) -> None:
        """The file's review index is ready (its notes are looked for now): start looking."""
        if self._session is not None and self._probes is None:
            self._probes = _Probes(self._session.path)
            self._timer.start()

    def _look(self) -> None:
        probes, generation = self._probes, self._generation
        if probes is None:
            return
        store = self._notes.store
        opened = None if store is None else (store.location.path or store.location.url)
        task = self._tasks.run(QueryOp(lambda _p: probes.token(opened), lane=LANE, name=LANE))
        task.succeeded.connect(lambda token: self._seen(token, generation))
        task.finished.connect(lambda: self._again(generation))

    def _seen(self, token: object, generation: int) -> None:
        if generation != self._generation:
            return
        last, self._last = self._last, token
        if token == last or token is None:
            return
        # (The first look reads the store again too: a change made between the notes'
        # first read and this look would otherwise pass unseen.)
        if self._notes.store is None:
            self._notes.write(lambda _store: None)  # another process made it: open it
        else:
            self._notes.refresh()
        self.changed.emit()

    def _again(self, generation: int) -> None:
        if generation == self._generation and self._probes is not None:
            self._timer.start()


__all__ = ["LANE", "POLL_MS", "StoreWatch"]
