"""Fixtures every test tier shares: the thread guard and the audit database factory.

* Every test, and every test module (its module-scoped fixtures), fails if it
  leaves a Python thread running (:mod:`thread_guard`).
* ``make_audit_db(name="audit.sqlite", directory=None, **options) -> Path`` writes a
  fresh audit database into its own new temporary directory (or ``directory``);
  ``options`` are those of :func:`audit_factory.build_audit_db`. ``audit_db`` is a
  default database's path; ``audit_content`` its content as plain data, and
  ``make_audit_content(extra_questions=0)`` builds such content without writing it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.audit_factory import AuditContent, build_audit_db, build_content
from tests.thread_guard import no_new_threads

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


@pytest.fixture(autouse=True)
def _no_dangling_threads(request: pytest.FixtureRequest) -> Iterator[None]:
    with no_new_threads(request.node.nodeid):
        yield


@pytest.fixture(autouse=True, scope="module")
def _no_dangling_module_threads(request: pytest.FixtureRequest) -> Iterator[None]:
    with no_new_threads(f"module {request.node.nodeid}"):
        yield


@pytest.fixture
def make_audit_db(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """Factory: ``make_audit_db(name="audit.sqlite", directory=None, **options)``."""

    def make(name: str = "audit.sqlite", directory: Path | None = None, **options: Any) -> Path:
        folder = directory if directory is not None else tmp_path_factory.mktemp("audit")
        folder.mkdir(parents=True, exist_ok=True)
        return build_audit_db(folder / name, **options)

    return make


@pytest.fixture
def audit_content() -> AuditContent:
    """The default content written by ``make_audit_db()``."""
    return build_content()


@pytest.fixture
def make_audit_content() -> Callable[..., AuditContent]:
    """Factory: ``make_audit_content(extra_questions=0)`` (see ``build_content``)."""
    return build_content


@pytest.fixture
def audit_db(make_audit_db: Callable[..., Path]) -> Path:
    """Path of a database with the default content."""
    return make_audit_db()
