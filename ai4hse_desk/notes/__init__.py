"""Reviewer notes: the store core, and flags on answer keys and notes on attempts.

Open a store with :meth:`NotesStore.open` (an SQLite file beside the audit
database by default, or any ``--notes`` path or SQLAlchemy URL, PostgreSQL
included); record :class:`Flag` and :class:`AttemptNote` items, each change a
:class:`Revision`. The store's engine, transactions and migrations
(:mod:`.backend`, :mod:`.schema`) also hold the independent review's tables,
whose rules live in :mod:`ai4hse_desk.review`. The audit database is never
written, and no score ever depends on a note (protocol §7). Every problem a
reviewer can fix is a :class:`ReviewError` (a ``ValueError``).

This face holds the light names only (the records and the error); the store
(:mod:`.store`), its location (:mod:`.location`) and agreement (:mod:`.agreement`)
are imported from their modules, so that importing a record loads no SQLAlchemy.
"""

from __future__ import annotations

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import (
    CATEGORIES,
    SEVERITIES,
    STATES,
    AttemptNote,
    Flag,
    ItemRecord,
    Revision,
)

__all__ = [
    "CATEGORIES",
    "SEVERITIES",
    "STATES",
    "AttemptNote",
    "Flag",
    "ItemRecord",
    "ReviewError",
    "Revision",
]
