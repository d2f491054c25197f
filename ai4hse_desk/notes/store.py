"""The notes store: flags and attempt notes with their full history, beside the audit.

:meth:`NotesStore.open` resolves the location (:mod:`.location`), runs the
migrations (:mod:`.backend`) and records which audit file the notes belong to
(its sha256); a store first used with another audit file opens with a
:attr:`NotesStore.warning`, never an error. Every change appends a revision
(:mod:`.model`); nothing is overwritten or deleted, and undo is one more
revision. The audit database is only read — to check that a question, option
or attempt exists — and no score ever depends on the notes (protocol §7).
"""

from __future__ import annotations

from types import EllipsisType, TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Engine, select

from ai4hse_desk.audit import AuditDB, AuditError
from ai4hse_desk.notes import backend, writes
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.location import StoreLocation, remember_store, resolve_location
from ai4hse_desk.notes.model import (
    CATEGORIES,
    SEVERITIES,
    STATES,
    AttemptNote,
    Flag,
    ItemRecord,
    Revision,
    Value,
    check_choice,
    clean_note,
    new_id,
    usable_text,
    utc_now,
)
from ai4hse_desk.notes.people import clean_reviewer
from ai4hse_desk.notes.records import (
    current_query,
    flag_from_row,
    flags_query,
    item_from_row,
    note_from_row,
    notes_query,
    revision_from_row,
    revisions_query,
)
from ai4hse_desk.notes.schema import review_items as _ITEMS

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from sqlalchemy.engine import Connection

    from ai4hse_desk.notes.creation import NewStoreFile

T = TypeVar("T")


class NotesStore:
    """Reviewer notes of one audit database, in SQLite or PostgreSQL.

    Attributes:
        audit: the audit database the notes are about (read only).
        location: where the notes live; :attr:`url` is it with the password masked.
        warning: ``None``, or why these notes may not belong to this audit file.
        applied_migrations: migrations run by this open (empty when already current).
    """

    def __init__(
        self,
        audit: AuditDB,
        location: StoreLocation,
        engine: Engine,
        applied: tuple[str, ...],
        new: NewStoreFile | None = None,
    ) -> None:
        self.audit = audit
        self.location = location
        self.url: str = location.shown
        self.applied_migrations = applied
        self._engine = engine
        #: The private file a store that does not exist yet is built in (:mod:`.creation`).
        self._new = new
        self.warning: str | None = None
        self.audit_sha256: str = audit.fingerprint()

    @classmethod
    def open(cls, audit: AuditDB, location: str | None = None) -> NotesStore:
        """Open (creating and migrating if needed) the notes store of ``audit``.

        Args:
            location: a file path or SQLAlchemy URL; ``None`` for the default
                (``AUDIT_DB.review.sqlite``, or the user data folder).

        Raises:
            ReviewError: an unusable location, or a store that cannot be opened.
        """
        where = resolve_location(audit.path, location)
        engine, new = backend.make_engine(where)
        try:
            applied = backend.migrate(engine, where)
            remember_store(where)  # from now on no guarded write may touch it
            store = cls(audit, where, engine, applied, new)
            if new is None:
                store.warning = store._record_audit(engine)
        except BaseException:
            if new is not None:
                new.discard()
            engine.dispose()
            raise
        return store

    def _record_audit(self, engine: Engine) -> str | None:
        """Record the audit file in a store that has none yet; else only compare, in a
        read: opening a store writes nothing (no write lock, no notification to the
        windows watching it)."""
        sha, name = self.audit_sha256, self.audit.path.name
        with backend.opening_errors(self.location):
            meta = backend.read(engine, writes.read_meta)
            if meta.get("audit_sha256") is not None:
                return writes.audit_warning(meta, sha)
            return backend.write(engine, lambda c: writes.record_audit(c, sha, name))

    # -- transactions ------------------------------------------------------------------

    def _settle(self) -> None:
        """Leave the private file for the store's own file, which now exists."""
        if self._new is not None:
            self._new.discard()
            self._new = None
        engine, new = backend.make_engine(self.location)
        if new is not None:
            new.discard()
            raise ReviewError(f"notes store {self.url} was removed while in use")
        try:
            self.applied_migrations += backend.migrate(engine, self.location)
            self.warning = self._record_audit(engine)
        except BaseException:
            engine.dispose()
            raise
        self._engine = engine

    def _write(self, work: Callable[[Connection], T], *, announce: bool = True) -> T:
        """Run ``work`` in one write transaction (retried while the database is busy;
        ``announce``: see :func:`.backend.write`).

        A store that did not exist yet is created by its first write, whole
        (:mod:`.creation`); if another process created it meanwhile, ``work`` runs
        again on theirs.
        """
        new = self._new
        if new is not None and not new.appeared():
            sha, name = self.audit_sha256, self.audit.path.name

            def first(conn: Connection) -> T:
                writes.record_audit(conn, sha, name)
                return work(conn)

            result = backend.write(new.engine, first)
            if new.publish():
                self._new = None
                self._settle()
                return result
        if self._new is not None:
            self._settle()
        return backend.write(self._engine, work, announce=announce)

    def _read_tx(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one read transaction (a store another process created since
        this one was opened is read from then on)."""
        if self._new is not None and self._new.appeared():
            self._settle()
        return backend.read(self._engine, work)

    # -- checks against the audit database -------------------------------------------

    def check_question(self, question_id: str, option: int | None = None) -> None:
        """Raise :class:`ReviewError` unless the question (and option position) exist."""
        if not isinstance(question_id, str) or not usable_text(question_id):
            raise ReviewError(f"unknown question: {question_id!r}")
        try:
            question = self.audit.question(question_id)
        except AuditError:
            raise ReviewError(f"unknown question: {question_id}") from None
        if option is None:
            return
        if isinstance(option, bool) or not isinstance(option, int):
            raise ReviewError(f"an option is a 0-based position, not {option!r}")
        if not 0 <= option < question.n_options:
            raise ReviewError(
                f"option {option} is outside {question_id}'s {question.n_options} options "
                f"(positions 0 to {question.n_options - 1})"
            )

    # -- writing -----------------------------------------------------------------

    def add_flag(
        self,
        *,
        question_id: str,
        category: str,
        note: str,
        reviewer: str,
        option: int | None = None,
        severity: str = "medium",
    ) -> Flag:
        """Record a new open flag on ``question_id`` (optionally one option position)."""
        self.check_question(question_id, option)
        values: dict[str, Value] = {
            "option": option,
            "category": check_choice(category, CATEGORIES, "category"),
            "severity": check_choice(severity, SEVERITIES, "severity"),
            "note": clean_note(note, required=False),
            "state": "open",
        }
        item = ItemRecord(
            item_id=new_id(),
            kind="flag",
            question_id=question_id,
            reviewer=clean_reviewer(reviewer),
            created_at=utc_now(),
            audit_sha256=self.audit_sha256,
        )
        self._write(lambda conn: writes.create(conn, item, values))
        return self._flag(item.item_id)

    def add_attempt_note(self, *, attempt_id: int, note: str, reviewer: str) -> AttemptNote:
        """Record a new note on one attempt ("the extraction looks wrong")."""
        valid = isinstance(attempt_id, int) and not isinstance(attempt_id, bool)
        found = self.audit.attempts_by_ids([attempt_id]) if valid else []
        if not found:
            raise ReviewError(f"unknown attempt: {attempt_id}")
        values: dict[str, Value] = {"note": clean_note(note, required=True), "state": "open"}
        item = ItemRecord(
            item_id=new_id(),
            kind="attempt_note",
            question_id=found[0].question_id,
            reviewer=clean_reviewer(reviewer),
            created_at=utc_now(),
            attempt_id=found[0].attempt_id,
            run_id=found[0].run_id,
            audit_sha256=self.audit_sha256,
        )
        self._write(lambda conn: writes.create(conn, item, values))
        return self._note(item.item_id)

    def _change(
        self, item_id: str, kind: str, reviewer: str, action: str, updates: Mapping[str, Value]
    ) -> None:
        who = clean_reviewer(reviewer)
        self._write(lambda conn: writes.change(conn, item_id, kind, who, action, updates))

    def edit_flag(
        self,
        flag_id: str,
        *,
        reviewer: str,
        note: str | None = None,
        category: str | None = None,
        severity: str | None = None,
        option: int | EllipsisType | None = ...,
    ) -> Flag:
        """Change a flag's note, category, severity or option (``None`` for the whole
        question; ``...`` leaves it). Appends one revision, none if nothing changes."""
        updates: dict[str, Value] = {}
        if note is not None:
            updates["note"] = clean_note(note, required=False)
        if category is not None:
            updates["category"] = check_choice(category, CATEGORIES, "category")
        if severity is not None:
            updates["severity"] = check_choice(severity, SEVERITIES, "severity")
        if not isinstance(option, EllipsisType):
            self.check_question(self._flag(flag_id).question_id, option)
            updates["option"] = option
        self._change(flag_id, "flag", reviewer, "edit", updates)
        return self._flag(flag_id)

    def _set_state(self, item_id: str, kind: str, state: str, reviewer: str, reason: str) -> None:
        checked = check_choice(state, STATES, "state")
        why = clean_note(reason, required=False)
        who = clean_reviewer(reviewer)
        self._write(
            lambda conn: writes.change_state(conn, item_id, kind, who, checked, why),
        )

    def set_flag_state(self, flag_id: str, state: str, *, reviewer: str, reason: str = "") -> Flag:
        """Mark a flag ``open``, ``resolved`` or ``withdrawn`` (one revision if it changes).

        A non-blank ``reason`` is appended to the flag's note in that revision
        ("…\n— resolved: the key was fixed"), so the history shows why and one undo
        takes back the state and its reason together.
        """
        self._set_state(flag_id, "flag", state, reviewer, reason)
        return self._flag(flag_id)

    def edit_attempt_note(self, note_id: str, *, reviewer: str, note: str) -> AttemptNote:
        """Change an attempt note's text (one revision)."""
        updates: dict[str, Value] = {"note": clean_note(note, required=True)}
        self._change(note_id, "attempt_note", reviewer, "edit", updates)
        return self._note(note_id)

    def set_attempt_note_state(
        self, note_id: str, state: str, *, reviewer: str, reason: str = ""
    ) -> AttemptNote:
        """Mark an attempt note ``open``, ``resolved`` or ``withdrawn`` (a ``reason`` is
        appended to its text in that revision, as for :meth:`set_flag_state`)."""
        self._set_state(note_id, "attempt_note", state, reviewer, reason)
        return self._note(note_id)

    def undo_last(self, reviewer: str) -> Revision | None:
        """Revert ``reviewer``'s latest change not yet undone, by appending an ``undo``
        revision (the history keeps both); ``None`` if there is nothing to undo.

        Reverting a ``create`` withdraws the item; reverting an edit or state change
        puts back the old values of the fields it changed. Undo revisions are never
        themselves undone (except by :meth:`redo_last`), so repeated undos walk
        further back.
        """
        who = clean_reviewer(reviewer)
        return self._write(lambda conn: writes.undo_last(conn, who))

    def redo_last(self, reviewer: str) -> Revision | None:
        """Re-apply the change ``reviewer``'s latest undo reverted, by appending one more
        revision (an ``undo`` of that undo; the history keeps all three); ``None`` if
        there is nothing to redo. Redos walk forward in the order undos walked back;
        a new change of the reviewer's own clears what can be redone.
        """
        who = clean_reviewer(reviewer)
        return self._write(lambda conn: writes.redo_last(conn, who))

    def merge(self, items: Sequence[ItemRecord], revs: Sequence[Revision]) -> tuple[int, int]:
        """Add the items and revisions whose ids are not here yet, in one transaction.

        Returns:
            ``(items added, revisions added)``; ``(0, 0)`` when all were present.
        Raises:
            ReviewError: an id already here names a different item.
        """
        return self._write(lambda conn: writes.merge(conn, items, revs))

    def run(
        self, work: Callable[[Connection], T], *, write: bool = False, announce: bool = True
    ) -> T:
        """Run ``work`` in one transaction of this store: a read (one consistent
        snapshot), or with ``write`` a write (``work`` raising rolls it all back);
        retried while the database is busy. For the notes modules that read or merge
        whole tables (the review, :mod:`ai4hse_desk.review`). ``announce=False``: a
        write to :data:`~.schema.UNSHOWN_TABLES` only, which no watching window hears of."""
        return self._write(work, announce=announce) if write else self._read_tx(work)

    # -- reading -----------------------------------------------------------------

    def _flag(self, flag_id: str) -> Flag:
        rows = self._read(current_query("flag", _ITEMS.c.item_id == str(flag_id)))
        if not rows:
            raise ReviewError(f"unknown flag: {flag_id}")
        return flag_from_row(rows[0])

    def _note(self, note_id: str) -> AttemptNote:
        rows = self._read(current_query("attempt_note", _ITEMS.c.item_id == str(note_id)))
        if not rows:
            raise ReviewError(f"unknown attempt note: {note_id}")
        return note_from_row(rows[0])

    def _read(self, query: Any) -> list[Any]:
        return self._read_tx(lambda conn: list(conn.execute(query).all()))

    def flags(
        self,
        *,
        question_id: str | None = None,
        states: tuple[str, ...] | None = None,
        category: str | None = None,
        reviewer: str | None = None,
    ) -> list[Flag]:
        """Flags as they stand now, oldest first; ``reviewer`` is the flag's author."""
        query = flags_query(question_id, states, category, reviewer)
        return [flag_from_row(row) for row in self._read(query)]

    def attempt_notes(
        self, *, attempt_id: int | None = None, reviewer: str | None = None
    ) -> list[AttemptNote]:
        """Attempt notes as they stand now (every state), oldest first."""
        query = notes_query(attempt_id, reviewer)
        return [note_from_row(row) for row in self._read(query)]

    def history(self, item_id: str) -> list[Revision]:
        """Every revision of a flag or note, oldest first."""
        rows = self._read(revisions_query(str(item_id)))
        if not rows:
            raise ReviewError(f"unknown flag or note: {item_id}")
        return [revision_from_row(row, str(row.kind)) for row in rows]

    def items(self) -> list[ItemRecord]:
        """Every flag and note's identity, oldest first (for exports)."""
        query = select(_ITEMS).order_by(_ITEMS.c.created_at, _ITEMS.c.item_id)
        return [item_from_row(row) for row in self._read(query)]

    def revisions(self) -> list[Revision]:
        """Every revision of every item, oldest first (for exports)."""
        return [revision_from_row(row, str(row.kind)) for row in self._read(revisions_query())]

    def close(self) -> None:
        """Release the store's connections (the audit database stays open); idempotent.
        A store never written to leaves nothing behind (its private file is removed)."""
        if self._new is not None:
            self._new.discard()
            self._new = None
        self._engine.dispose()

    def __enter__(self) -> NotesStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"NotesStore({self.url!r})"
