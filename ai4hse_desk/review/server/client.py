"""The desk as a review server's client: each method calls one function of the schema.

Nothing here decides what the login may see or write — the database does
(``sql/0002_functions.sql`` and after). This class only turns the CLI's and the window's values
into the functions' arguments (lists parsed as the local review parses them) and their
JSON back into the desk's records and cli.md's objects.

A write (verdict, blind answer, decision) carries a fresh request id. If the
connection breaks during it, the desk reconnects and asks the server whether a
revision with that id was committed (``request_outcome``): the write was one
transaction, so it was stored whole or not at all, and :class:`WriteUnknown` says
which (or that the server could not be reached again to tell). A read whose connection
breaks is asked once more on a new connection (:meth:`ReviewServer._read`), so a server
restart or a dropped network costs a reviewer nothing but the moment it takes.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.review.records import Decision, ReviewVerdict
from ai4hse_desk.review.server.address import ServerError
from ai4hse_desk.review.server.connection import ConnectionLost, ServerSession
from ai4hse_desk.review.values import Answer, parse_list

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.review.server.address import ServerAddress

_VERDICT_ARGS: Final = (
    "text",
    "text[]",
    "boolean",
    "text",
    "text[]",
    "text",
    "text",
    "text",
    "boolean",
    "uuid",
)


class WriteUnknown(ServerError):
    """The connection broke during a write; the message says whether it was stored.

    Attributes:
        stored: True (committed), False (not), ``None`` (the server could not be asked).
        result: what was stored (a verdict or decision), when ``stored``.
    """

    def __init__(self, message: str, stored: bool | None, result: object = None) -> None:
        super().__init__(message)
        self.stored = stored
        self.result = result


def _answer(values: Sequence[str] | str | None, *, unsure: bool, what: str) -> list[str] | None:
    """A LIST argument as the function's ``text[]`` (length and values checked there)."""
    if values is None:
        return None
    if isinstance(values, str):
        return list(parse_list(values, unsure=unsure, what=what))
    return [str(value).strip().upper() for value in values]


def verdict_of(data: dict[str, Any]) -> ReviewVerdict:
    """A verdict object of the server (cli.md's verdict line) as a :class:`ReviewVerdict`."""

    def listed(value: object) -> Answer | None:
        return None if value is None else tuple(str(v) for v in value)  # type: ignore[attr-defined]

    return ReviewVerdict(
        verdict_id=str(data["verdict_id"]),
        question_id=str(data["question_id"]),
        reviewer=str(data["reviewer"]),
        created_at=str(data["created_at"]),
        blind="blind" if data["blind"] else "not_blind",
        blind_answer=listed(data["blind_answer"]),
        blind_at=data["blind_at"],
        verdict=data["verdict"],
        proposed_key=listed(data["proposed_key"]),
        confidence=data["confidence"],
        source=str(data["source"]),
        note=str(data["note"]),
        state=str(data["state"]),
        updated_at=str(data["updated_at"]),
    )


def decision_of(data: dict[str, Any]) -> Decision:
    """A decision object of the server as a :class:`Decision`."""
    key = data["key"]
    return Decision(
        decision_id=str(data["decision_id"]),
        question_id=str(data["question_id"]),
        adjudicator=str(data["adjudicator"]),
        decision=str(data["decision"]),
        corrected_key=None if key is None else tuple("TRUE" if v else "FALSE" for v in key),
        note=str(data["note"]),
        at=str(data["at"]),
    )


class ReviewServer:
    """One login's review on a server (see the module docstring)."""

    def __init__(self, session: ServerSession) -> None:
        self.session = session

    @classmethod
    def open(cls, address: ServerAddress | str, **options: Any) -> ReviewServer:
        """Connect to ``address`` (options: :class:`ServerSession`'s)."""
        session = ServerSession(address, **options)
        session.connection()
        return cls(session)

    def close(self) -> None:
        """Close the login's connection."""
        self.session.close()

    @property
    def shown(self) -> str:
        """The server's URL without its password."""
        return self.session.address.shown

    # -- reads ---------------------------------------------------------------------------

    def _read(self, function: str, args: Sequence[object] = (), types: Sequence[str] = ()) -> Any:
        """A read. A connection lost during it (the server restarted, the network dropped)
        is opened again and the read asked once more: a read writes only the record of
        what it showed (a release, recorded the first time; a whole read, logged each time
        the server produced one), so asking again changes no verdict, decision or plan.

        Raises:
            ServerUnavailable: the server cannot be reached again.
        """
        try:
            return self.session.call(function, args, types)
        except ConnectionLost:
            self.session.reconnect()
            return self.session.call(function, args, types)

    def whoami(self) -> dict[str, Any]:
        """The login's role, what it is to the review, the schema version, the audit file."""
        return dict(self._read("whoami"))

    def next(self) -> dict[str, Any]:
        """cli.md ``review next``: ``{"reviewer", "question", "progress"}``."""
        return dict(self._read("next_question"))

    def own_queue(self) -> list[dict[str, Any]]:
        """The login's own queue in its order: ``question_id``, ``position`` and ``state``
        (``None``: nothing recorded yet, ``draft`` or ``submitted``). Ids and states only:
        it releases nothing."""
        return [
            {
                "question_id": str(e["question_id"]),
                "position": int(e["position"]),
                "state": e["state"],
            }
            for e in self._read("own_queue")
        ]

    def show(self, question_id: str) -> dict[str, Any]:
        """cli.md ``review show``: what the login may see of ``question_id`` now."""
        return dict(self._read("show_question", [question_id], ["text"]))

    def progress(self) -> dict[str, Any]:
        """The login's own progress: assigned, submitted, drafts, remaining."""
        return dict(self._read("progress"))

    def status(self) -> dict[str, Any]:
        """cli.md's ``review status`` object (``audit``: the published file's name)."""
        me = self.whoami()
        audit = me.get("audit") or {}
        body = dict(self._read("review_status"))
        return {"audit": {"path": audit.get("name"), "sha256": audit.get("sha256")}, **body}

    def adjudication_queue(self) -> list[dict[str, Any]]:
        """The adjudication queue as this login may read it (questions it did not review)."""
        return list(self._read("adjudication_queue"))

    def export(self) -> dict[str, Any]:
        """The whole review (the coordinator, or an adjudicator who reviews nothing)."""
        return dict(self._read("review_export"))

    # -- writes --------------------------------------------------------------------------

    def _write(self, function: str, args: list[object], types: Sequence[str], what: str) -> Any:
        request = uuid.uuid4()
        try:
            return self.session.call(function, [*args, request], types)
        except ConnectionLost as lost:
            try:
                self.session.reconnect()
                outcome = self.session.call("request_outcome", [request], ["uuid"])
            except ServerError:
                raise WriteUnknown(
                    f"{lost}; the server could not be reached again, so whether the {what} "
                    "was stored is unknown (it was stored whole or not at all: look with "
                    "`review show` once the server is back)",
                    None,
                ) from None
            if outcome:
                raise WriteUnknown(
                    f"{lost}; after reconnecting: the {what} WAS stored", True, outcome
                ) from None
            raise WriteUnknown(
                f"{lost}; after reconnecting: the {what} was NOT stored (nothing was written); "
                "send it again",
                False,
            ) from None

    def save_verdict(
        self,
        question_id: str,
        *,
        verdict: str | None,
        blind_answer: Sequence[str] | str | None = None,
        not_blind: bool = False,
        proposed_key: Sequence[str] | str | None = None,
        confidence: str | None = None,
        source: str = "",
        note: str = "",
        submit: bool = True,
    ) -> ReviewVerdict:
        """Record or revise the login's verdict (cli.md ``review verdict``).

        Raises:
            ReviewError: a LIST that is not a list of TRUE/FALSE (/UNSURE).
            ServerRefused: the database refused it (its message says why).
            WriteUnknown: the connection broke during it.
        """
        args: list[object] = [
            question_id,
            _answer(blind_answer, unsure=True, what="the blind answer"),
            not_blind,
            verdict,
            _answer(proposed_key, unsure=False, what="the proposed key"),
            confidence,
            source,
            note,
            submit,
        ]
        return verdict_of(self._write("save_verdict", args, _VERDICT_ARGS, "verdict"))

    def record_blind(self, question_id: str, answer: Sequence[str] | str | None) -> ReviewVerdict:
        """Record the login's blind answer (``None``: "not blind") as a draft."""
        args: list[object] = [question_id, _answer(answer, unsure=True, what="the blind answer")]
        found = self._write("record_blind", args, ("text", "text[]", "uuid"), "blind answer")
        return verdict_of(found)

    def adjudicate(
        self,
        question_id: str,
        decision: str,
        *,
        key: Sequence[str] | str | None = None,
        note: str = "",
    ) -> Decision:
        """Record the login's decision on ``question_id`` (cli.md ``review adjudicate``)."""
        args: list[object] = [
            question_id,
            decision,
            _answer(key, unsure=False, what="the corrected key"),
            note,
        ]
        types = ("text", "text", "text[]", "text", "uuid")
        return decision_of(self._write("adjudicate", args, types, "decision"))
