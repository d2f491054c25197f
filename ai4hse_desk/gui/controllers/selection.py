"""The selected attempt: read once, turned into an :class:`AttemptDetail`, announced.

The panels, the compare grid and the notes controller subscribe to
:attr:`AttemptSelection.changed`; none of them reads the attempt itself. The
desk's verdict comes from the review index (stored when the index was built);
only the character spans it rests on are derived again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.qt_guard import READ_ERRORS, problem_text
from ai4hse_desk.verdicts.attempt_detail import AttemptDetail, build_detail

if TYPE_CHECKING:
    from ai4hse_desk.index.session import AuditSession


def cannot_show(attempt_id: int) -> str:
    """Where a problem is, for the status bar."""
    return f"Attempt {attempt_id} cannot be shown"


class AttemptSelection(QObject):
    """The attempt shown in the detail panels.

    Signals:
        changed: the :class:`~ai4hse_desk.verdicts.attempt_detail.AttemptDetail` now shown.
        cleared: nothing is shown (another file, the empty window).
        unreadable: (message, where) when an attempt cannot be read; what was
            shown stays shown.
    """

    changed = Signal(object)
    cleared = Signal()
    unreadable = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session: AuditSession | None = None
        self._detail: AttemptDetail | None = None

    @property
    def detail(self) -> AttemptDetail | None:
        """The attempt shown."""
        return self._detail

    @property
    def attempt_id(self) -> int | None:
        """The id of the attempt shown."""
        return None if self._detail is None else self._detail.attempt_id

    @property
    def question_id(self) -> str | None:
        """The question of the attempt shown."""
        return None if self._detail is None else self._detail.question_id

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none): nothing is shown."""
        self._session = session
        self.clear()

    def clear(self) -> None:
        """Show nothing."""
        self._detail = None
        self.cleared.emit()

    def show(self, attempt_id: int) -> bool:
        """Read ``attempt_id`` and announce it; False (and ``unreadable``) if it cannot be."""
        session = self._session
        if session is None:
            return False
        try:
            detail = self._read(session, attempt_id)
        except KeyError as exc:  # an attempt of a run or question the file does not list
            message = f"it refers to an unknown run or question {exc}"
            self.unreadable.emit(message, cannot_show(attempt_id))
            return False
        except READ_ERRORS as exc:  # a value the schema forbids (text in an integer column …)
            self.unreadable.emit(problem_text(exc), cannot_show(attempt_id))
            return False
        if detail is None:
            return False
        self._detail = detail
        self.changed.emit(detail)
        return True

    @staticmethod
    def _read(session: AuditSession, attempt_id: int) -> AttemptDetail | None:
        attempt = session.attempt(attempt_id)
        if attempt is None:
            return None
        question = session.questions[attempt.question_id]
        run = session.runs[attempt.run_id]
        verdict = None if session.index is None else session.index.verdict(attempt_id)
        return build_detail(attempt, question, run, verdict)


__all__ = ["AttemptSelection", "cannot_show"]
