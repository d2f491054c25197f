"""``ai4hse-desk --server URL``: the window on a review server, straight on its Review page.

No audit file: the window logs in (the password from the URL, ``PGPASSWORD``,
``~/.pgpass``, or a password dialog — never kept, never shown), then holds the
:class:`~.server_page.ServerReviewPage` wired to a
:class:`~.server_controller.ServerReviewController`. What the server refuses is shown
in the status bar as one plain line; a login that fails is one plain message and exit 2.
The URL is shown only without its password (the title bar included).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMainWindow, QMessageBox, QWidget

from ai4hse_desk.gui.review.server_controller import ServerReviewController
from ai4hse_desk.gui.review.server_page import ServerReviewPage
from ai4hse_desk.gui.widgets.plain_status import PlainStatusBar
from ai4hse_desk.gui.workers.runner import TaskRunner

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from PySide6.QtGui import QCloseEvent

    from ai4hse_desk.review.server.client import ReviewServer

#: Ends with the application's name, which Qt then does not append again.
TITLE = "review server — AI4HSE Desk"


class ServerReviewWindow(QMainWindow):
    """The Review page of one login to a review server."""

    def __init__(self, server: ReviewServer, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{server.shown} — {TITLE}")
        self.setStatusBar(PlainStatusBar())  # ids and refusals from the server made visible
        self.tasks = TaskRunner(self)
        self.controller = ServerReviewController(server, self.tasks, self)
        self.page = ServerReviewPage()
        self.setCentralWidget(self.page)
        page, control = self.page, self.controller
        control.identity.connect(page.set_identity)
        control.progress.connect(page.set_progress)
        control.question.connect(page.set_question)
        control.own_queue.connect(page.set_own_queue)
        control.queue.connect(page.set_adjudication_queue)
        control.detail.connect(page.adjudication.set_detail)
        control.stored.connect(lambda text: self.statusBar().showMessage(text, 8000))
        control.problem.connect(lambda text: self.statusBar().showMessage(text))
        self.page.refused.connect(lambda text: self.statusBar().showMessage(text, 8000))
        page.next_requested.connect(control.load_next)
        page.question_picked.connect(control.load_question)
        page.blind_requested.connect(control.record_blind)
        page.verdict_requested.connect(
            lambda qid, values, submit: control.save_verdict(qid, values, submit=submit)
        )
        page.adjudication.detail_requested.connect(control.load_detail)
        page.adjudication.decision_requested.connect(control.adjudicate)
        control.start()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Close the login, let the last writes finish, stop the worker."""
        self.controller.close()
        self.tasks.shutdown()
        super().closeEvent(event)


def ask_password(parent: QWidget | None = None) -> Callable[[str], str | None]:
    """A password prompt for :class:`~ai4hse_desk.review.server.connection.ServerSession`:
    a dialog with hidden echo; ``None`` when cancelled."""

    def ask(question: str) -> str | None:
        text, ok = QInputDialog.getText(parent, TITLE, question, QLineEdit.EchoMode.Password)
        return text if ok and text else None

    return ask


def open_server_window(url: str) -> ServerReviewWindow | None:
    """Log in to ``url`` and make the window; on failure one plain message, ``None``."""
    from ai4hse_desk.review.server.address import ServerError
    from ai4hse_desk.review.server.client import ReviewServer

    try:
        server = ReviewServer.open(url, prompt=ask_password())
    except ServerError as exc:
        box = QMessageBox(QMessageBox.Icon.Critical, TITLE, str(exc))
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.exec()
        return None
    return ServerReviewWindow(server)


def run_server_window(url: str, qt_arguments: Sequence[str]) -> int:
    """Open the window on ``url`` and run until it closes; 2 if the login fails."""
    from ai4hse_desk.gui.application import application, give_icon, within_screen

    app = application(qt_arguments)
    window = open_server_window(url)
    if window is None:
        return 2
    within_screen(window, (1200, 850))
    window.show()
    give_icon()
    status = app.exec()
    del window
    return status
