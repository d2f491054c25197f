"""A package's public names, imported from their modules on first use (PEP 562).

``from ai4hse_desk.index import ReviewIndex`` keeps working, but importing
``ai4hse_desk.index.query`` (say, for the window's first rows) no longer runs every
module the package re-exports first: the index build, the rescoring rules and their
compiled patterns are imported when a name of theirs is first asked for. The package
lists its names twice, as ``TYPE_CHECKING`` imports for the type checker and in the
table given here; a test checks that both agree with ``__all__``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable


def lazy_exports(
    namespace: dict[str, Any], table: dict[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose names load on first use.

    Args:
        namespace: the package's ``globals()`` (a loaded name is kept there, so the
            next look-up is a plain attribute).
        table: module (relative to the package, e.g. ``".query"``) → the names it gives.

    Returns:
        The package's module-level ``__getattr__`` and ``__dir__``.
    """
    package = str(namespace["__name__"])
    where = {name: module for module, names in table.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__


__all__ = ["lazy_exports"]
