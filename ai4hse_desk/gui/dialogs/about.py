"""Help ▸ About: the desk's version, the audit schema it reads, Qt, PySide6, the licence."""

from __future__ import annotations

from typing import TYPE_CHECKING

import PySide6
from PySide6.QtCore import qVersion

from ai4hse_desk import AUDIT_SCHEMA_VERSION, __version__
from ai4hse_desk.gui.plain_text import Icon, plain_message

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget


def about_text() -> str:
    """What the About box says."""
    return (
        f"AI4HSE Desk {__version__}\n"
        f"Reads AI4HSE audit databases, schema version {AUDIT_SCHEMA_VERSION}, read-only.\n"
        f"Qt {qVersion()}, PySide6 {PySide6.__version__}\n"
        "Licence: MIT"
    )


def show_about(parent: QWidget | None) -> None:
    """Help ▸ About (plain text)."""
    plain_message(parent, Icon.Information, "About AI4HSE Desk", about_text())


__all__ = ["about_text", "show_about"]
