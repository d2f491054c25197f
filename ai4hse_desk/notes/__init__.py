"""Reviewer notes: flags on answer keys and notes on attempts, kept apart from the audit.

Open a store with :meth:`NotesStore.open` (an SQLite file beside the audit
database by default, or any ``--notes`` path or SQLAlchemy URL, PostgreSQL
included); record :class:`Flag` and :class:`AttemptNote` items, each change a
:class:`Revision`. :func:`export_notes` writes CSV, JSON or XLSX (columns declared
once, in :mod:`.frames` and, for the review's verdicts, decisions and plans, in
:mod:`.review_frames`), :func:`import_notes` merges another reviewer's JSON
export (the review's too, :mod:`.review_exchange`), and :func:`key_agreement`
measures agreement on ``key_incorrect``. The audit database is never written,
and no score ever depends on a note (protocol §7).
Every problem a reviewer can fix is a :class:`ReviewError` (a ``ValueError``).

The names below are loaded on first use (PEP 562): ``from ai4hse_desk.notes import Flag``
loads :mod:`.model` only, not SQLAlchemy, which the store and the exports need and the
window's start-up does not.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ai4hse_desk.notes.agreement import (
        Agreement,
        cohen_kappa,
        key_agreement,
        krippendorff_alpha,
    )
    from ai4hse_desk.notes.errors import ReviewError
    from ai4hse_desk.notes.exports import EXPORT_FORMAT, EXPORT_VERSION, FORMATS, export_notes
    from ai4hse_desk.notes.frames import EXPORT_COLUMNS, HISTORY_COLUMNS, NOTE_COLUMNS
    from ai4hse_desk.notes.import_json import ImportResult, import_notes
    from ai4hse_desk.notes.location import DATA_ENV, StoreLocation, data_dir, resolve_location
    from ai4hse_desk.notes.model import (
        CATEGORIES,
        SEVERITIES,
        STATES,
        AttemptNote,
        Flag,
        ItemRecord,
        Revision,
    )
    from ai4hse_desk.notes.review_frames import REVIEW_COLUMNS, TABLE_COLUMNS
    from ai4hse_desk.notes.store import NotesStore

#: Where each public name is defined (its module under ``ai4hse_desk.notes``).
_HOME = {
    "Agreement": "agreement",
    "AttemptNote": "model",
    "CATEGORIES": "model",
    "DATA_ENV": "location",
    "EXPORT_COLUMNS": "frames",
    "EXPORT_FORMAT": "exports",
    "EXPORT_VERSION": "exports",
    "FORMATS": "exports",
    "Flag": "model",
    "HISTORY_COLUMNS": "frames",
    "ImportResult": "import_json",
    "ItemRecord": "model",
    "NOTE_COLUMNS": "frames",
    "NotesStore": "store",
    "REVIEW_COLUMNS": "review_frames",
    "ReviewError": "errors",
    "Revision": "model",
    "SEVERITIES": "model",
    "STATES": "model",
    "StoreLocation": "location",
    "TABLE_COLUMNS": "review_frames",
    "cohen_kappa": "agreement",
    "data_dir": "location",
    "export_notes": "exports",
    "import_notes": "import_json",
    "key_agreement": "agreement",
    "krippendorff_alpha": "agreement",
    "resolve_location": "location",
}


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use and keep the name here."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})


__all__ = [
    "CATEGORIES",
    "DATA_ENV",
    "EXPORT_COLUMNS",
    "EXPORT_FORMAT",
    "EXPORT_VERSION",
    "FORMATS",
    "HISTORY_COLUMNS",
    "NOTE_COLUMNS",
    "REVIEW_COLUMNS",
    "SEVERITIES",
    "STATES",
    "TABLE_COLUMNS",
    "Agreement",
    "AttemptNote",
    "Flag",
    "ImportResult",
    "ItemRecord",
    "NotesStore",
    "ReviewError",
    "Revision",
    "StoreLocation",
    "cohen_kappa",
    "data_dir",
    "export_notes",
    "import_notes",
    "key_agreement",
    "krippendorff_alpha",
    "resolve_location",
]
