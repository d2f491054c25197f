"""Where an export goes and whether private text goes with it, asked explicitly.

One dialog pair for every export of reviewer data from the window (notes, the
review report): a save-file dialog (in the last folder saved to) whose filter
gives the format when the name has no suffix, then a Yes/No question — No by
default — on question texts, option texts and raw responses, which are private and
leave this machine only when the reviewer says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from ai4hse_desk.gui.dialogs.last_folder import ask_save_file

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtWidgets import QWidget

PRIVATE_TITLE = "Private text"


@dataclass(frozen=True, slots=True)
class ExportTarget:
    """The chosen file, its format (a suffix without the dot) and the private-text choice."""

    path: Path
    fmt: str
    include_private: bool


def ask_export_target(
    parent: QWidget,
    caption: str,
    suggested: str,
    formats: Sequence[tuple[str, str]],
    private_question: str,
) -> ExportTarget | None:
    """Ask for the file and the private-text choice; ``None`` if the reviewer cancels.

    Args:
        formats: (suffix, label) pairs in the order offered, e.g. ``("csv", "CSV")``.
        private_question: what the Yes/No question asks.
    """
    filters = ";;".join(f"{label} (*.{suffix})" for suffix, label in formats)
    path, chosen = ask_save_file(parent, caption, suggested, filters)
    if not path:
        return None
    target = Path(path)
    suffixes = [suffix for suffix, _ in formats]
    fmt = target.suffix.lower().lstrip(".")
    if fmt not in suffixes:
        fmt = next((s for s, label in formats if chosen.startswith(label)), suffixes[0])
        target = target.with_name(f"{target.name}.{fmt}")
    answer = QMessageBox.question(
        parent,
        PRIVATE_TITLE,
        private_question,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return ExportTarget(target, fmt, answer == QMessageBox.StandardButton.Yes)
