"""Fixtures of the core tests (the audit database factory itself is in ``tests/conftest.py``).

* ``desk_dirs`` (autouse): every core test gets its own, not yet created, cache
  (review indexes, scores), settings and data (notes stores that cannot live beside
  their audit file) folders, so no test reads or writes the user's. ``cache`` and
  ``data_dir`` are two of them.
* ``open_db(**options) -> AuditDB`` opens a new audit database (``make_audit_db``'s
  options), closed after the test; ``audit`` is the default one, opened.
* ``store`` is a notes store in an SQLite file of ``tmp_path`` on ``audit``;
  ``store_url`` a store location per backend (SQLite, and PostgreSQL under
  ``make test``); ``pg_url`` a fresh PostgreSQL schema (see :mod:`notes_fixtures`).
* ``compared`` counts the similarities the key audit's near-duplicate search
  computes (one item per pair compared): tests count work instead of timing it.
* ``demo_db`` is the demo audit database, written once per session: read it, never
  change it (copy it first).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.index import CACHE_ENV
from ai4hse_desk.notes.location import DATA_ENV
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.writer.demo import write_demo
from tests.core.notes_fixtures import pg_base_url

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

CONFIG_ENV = "AI4HSE_DESK_CONFIG_DIR"


@dataclass(frozen=True)
class DeskDirs:
    """The desk's per-user folders of one test (none exists until something creates it)."""

    cache: Path
    config: Path
    data: Path


@pytest.fixture(autouse=True)
def desk_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> DeskDirs:
    root = tmp_path_factory.mktemp("desk-dirs")
    dirs = DeskDirs(root / "cache", root / "config", root / "data")
    monkeypatch.setenv(CACHE_ENV, str(dirs.cache))
    monkeypatch.setenv(CONFIG_ENV, str(dirs.config))
    monkeypatch.setenv(DATA_ENV, str(dirs.data))
    return dirs


@pytest.fixture
def cache(desk_dirs: DeskDirs) -> Path:
    """The test's cache folder (review indexes, scores caches)."""
    return desk_dirs.cache


@pytest.fixture
def data_dir(desk_dirs: DeskDirs) -> Path:
    """The test's user data folder (notes stores that cannot live beside their audit file)."""
    return desk_dirs.data


@pytest.fixture
def open_db(make_audit_db: Callable[..., Path]) -> Iterator[Callable[..., AuditDB]]:
    """Factory: ``open_db(**options)`` opens a new audit database; closed after the test."""
    opened: list[AuditDB] = []

    def open_new(**options: object) -> AuditDB:
        opened.append(open_audit(make_audit_db(**options)))
        return opened[-1]

    yield open_new
    for db in opened:
        db.close()


@pytest.fixture
def audit(open_db: Callable[..., AuditDB]) -> AuditDB:
    """The default audit database, opened."""
    return open_db()


@pytest.fixture
def store(audit: AuditDB, tmp_path: Path) -> Iterator[NotesStore]:
    """A notes store on ``audit`` in an SQLite file of ``tmp_path``."""
    with NotesStore.open(audit, str(tmp_path / "team.sqlite")) as notes:
        yield notes


@pytest.fixture
def pg_url() -> Iterator[str]:
    """URL of a fresh, empty schema in the PostgreSQL test database."""
    base = pg_base_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    engine = create_engine(base)
    try:
        with engine.begin() as conn:
            conn.execute(text(f"CREATE SCHEMA {schema}"))
        url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
        with engine.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A notes store location: an SQLite file in ``tmp_path``, or a PostgreSQL schema."""
    if request.param == "sqlite":
        (tmp_path / "notes").mkdir()
        return str(tmp_path / "notes" / "team.review.sqlite")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo audit database, written once: read it, never change it."""
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    write_demo(path)
    return path


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts similarities computed by the near-duplicate search (one item per call)."""
    from rapidfuzz.distance import Indel

    calls: list[int] = []
    original = Indel.normalized_similarity

    def similarity(*args: Any, **kwargs: Any) -> float:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(Indel, "normalized_similarity", similarity)
    return calls
