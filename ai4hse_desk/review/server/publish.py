"""``review publish``: the coordinator copies what the review needs to the server and plans it.

One transaction, run by the database's owner: migrate the review schema
(:mod:`.migrations`), record the publication (the audit file's sha256 and name, who,
when, how much of the responses), insert the new questions' rows (:mod:`.payload`),
record the plan, and give the named roles what they need (:mod:`.roles`). A refusal
anywhere writes nothing.

The plan is made as ``review plan`` makes it (:func:`~ai4hse_desk.review.plan.plan_review`):
each question to exactly K distinct reviewers, balanced. Publishing again (the same
audit file, the same reviewers and K) adds the questions not yet published: they are
ordered by this publication's ``--order`` and appended to the plan in force, whose
rotation continues — every earlier question keeps its reviewers and place, the plan
stays balanced, and no verdict is touched (nothing on the server is ever deleted).
Adjudicators may be added at any publication.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.people import distinct_people, person_key
from ai4hse_desk.review.plan import ORDERS, Plan, plan_review
from ai4hse_desk.review.server import roles
from ai4hse_desk.review.server.address import ServerError
from ai4hse_desk.review.server.migrations import SCHEMA, migrate
from ai4hse_desk.review.server.payload import COLUMNS, RESPONSES, Payload, read_payload
from ai4hse_desk.review.values import check_seed

if TYPE_CHECKING:
    from collections.abc import Sequence

    import psycopg

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.review.server.connection import ServerSession


@dataclass(frozen=True, slots=True)
class PublishRequest:
    """What ``review publish`` was asked (cli.md, "Review server")."""

    reviewers: Sequence[str]
    per_question: int
    adjudicators: Sequence[str] = ()
    order: str = "corpus"
    seed: int | None = None
    questions: Sequence[str] | None = None
    responses: str = "full"


@dataclass(frozen=True, slots=True)
class _Published:
    """The server's review before this publication (empty on a new server)."""

    sha256: str | None
    questions: frozenset[str]
    plan: Plan | None


def _people(request: PublishRequest) -> tuple[list[str], list[str]]:
    """The reviewers and adjudicators, each one person once; a role in both lists is one
    person (the database keeps them apart per question), two spellings of one person in
    the two lists are refused."""
    reviewers = distinct_people(request.reviewers)
    adjudicators = distinct_people(request.adjudicators)
    spelled = {person_key(name): name for name in reviewers}
    for name in adjudicators:
        other = spelled.get(person_key(name))
        if other is not None and other != name:
            raise ReviewError(
                f"{other!r} and {name!r} are one person's name (compared without case, width "
                "or invisible characters); name one role"
            )
    return reviewers, adjudicators


def _check(request: PublishRequest, audit: AuditDB) -> list[str]:
    """The selected question ids in corpus order, after the request's own checks."""
    check_seed(request.seed)
    if request.order not in ORDERS:
        raise ReviewError(f"unknown plan order {request.order!r} (one of {', '.join(ORDERS)})")
    if request.responses not in RESPONSES:
        raise ReviewError(
            f"--responses is one of {', '.join(RESPONSES)}, not {request.responses!r}"
        )
    corpus = [q.question_id for q in audit.questions()]
    if request.questions is None:
        return corpus
    known = set(corpus)
    wanted = list(dict.fromkeys(request.questions))
    unknown = [qid for qid in wanted if qid not in known]
    if unknown:
        raise ReviewError(f"unknown question: {unknown[0]}")
    chosen = set(wanted)
    return [qid for qid in corpus if qid in chosen]


def _published(conn: psycopg.Connection[Any]) -> _Published:
    row = conn.execute(
        f"SELECT audit_sha256 FROM {SCHEMA}.publications ORDER BY published_at DESC LIMIT 1"
    ).fetchone()
    questions = frozenset(
        str(r[0]) for r in conn.execute(f"SELECT question_id FROM {SCHEMA}.questions")
    )
    head = conn.execute(
        f"SELECT plan_id, per_question, plan_order, seed, reviewers FROM {SCHEMA}.plans "
        "ORDER BY created_at DESC LIMIT 1"
    ).fetchone()
    plan = None
    if head is not None:
        assigned: dict[str, list[str]] = {}
        for qid, who in conn.execute(
            f"SELECT question_id, reviewer FROM {SCHEMA}.assignments WHERE plan_id = %s "
            "ORDER BY position, reviewer",
            (head[0],),
        ):
            assigned.setdefault(str(qid), []).append(str(who))
        plan = Plan(
            int(head[1]),
            str(head[2]),
            head[3],
            tuple(head[4]),
            tuple(assigned),
            {qid: tuple(sorted(who)) for qid, who in assigned.items()},
        )
    return _Published(None if row is None else str(row[0]), questions, plan)


def continued_plan(
    old: Plan | None,
    new: Sequence[str],
    reviewers: Sequence[str],
    request: PublishRequest,
    ranking: Sequence[str] | None,
) -> Plan:
    """The plan in force after adding the questions ``new`` (module docstring).

    Raises:
        ServerError: other reviewers or another K than the published plan's.
    """
    added = plan_review(
        new,
        reviewers if old is None else old.reviewers,
        request.per_question,
        order=request.order,
        seed=request.seed,
        ranking=ranking,
    )
    if old is None:
        return added
    _same_people(old, reviewers, request)
    whole = plan_review([*old.questions, *added.questions], old.reviewers, old.per_question)
    if any(whole.assignments[qid] != old.assignments[qid] for qid in old.questions):
        raise ServerError("the published plan does not follow the desk's rotation; not continued")
    return Plan(
        old.per_question, added.order, added.seed, old.reviewers, whole.questions, whole.assignments
    )


def _insert(
    conn: psycopg.Connection[Any],
    table: str,
    rows: list[dict[str, Any]],
    extra: dict[str, Any] | None = None,
) -> None:
    """Insert ``rows`` (their keys are :data:`COLUMNS` of ``table``) in one statement."""
    if not rows:
        return
    columns = COLUMNS[table]
    names = ", ".join(part.split()[0] for part in columns.split(", "))
    fixed = extra or {}
    targets = ", ".join([names, *fixed])
    values = ", ".join([names, *("%s" for _ in fixed)])
    conn.execute(
        f"INSERT INTO {SCHEMA}.{table} ({targets}) SELECT {values} "
        f"FROM jsonb_to_recordset(%s::jsonb) AS x({columns})",
        [*fixed.values(), json.dumps(rows)],
    )


def _write(
    conn: psycopg.Connection[Any],
    audit: AuditDB,
    sha: str,
    payload: Payload,
    plan: Plan | None,
    request: PublishRequest,
    people: tuple[list[str], list[str]],
) -> None:
    """Insert this publication's rows (inside the publish transaction)."""
    row = conn.execute(
        f"INSERT INTO {SCHEMA}.publications (published_at, audit_sha256, audit_name, responses, "
        "questions_added) VALUES (greatest(now(), (SELECT max(published_at) + interval '1 "
        f"microsecond' FROM {SCHEMA}.publications)), %s, %s, %s, %s) RETURNING publication_id",
        (sha, audit.path.name, request.responses, len(payload.questions)),
    ).fetchone()
    assert row is not None
    publication = row[0]
    conn.execute(
        f"INSERT INTO {SCHEMA}.members (role_name, kind, publication_id) "
        "SELECT m.name, m.kind, %s FROM unnest(%s::text[], %s::text[]) AS m(name, kind) "
        "ON CONFLICT DO NOTHING",
        (
            publication,
            [*people[0], *people[1]],
            ["reviewer"] * len(people[0]) + ["adjudicator"] * len(people[1]),
        ),
    )
    conn.execute(
        f"INSERT INTO {SCHEMA}.runs SELECT * FROM jsonb_to_recordset(%s::jsonb) AS x("
        f"{COLUMNS['runs']}) ON CONFLICT (run_id) DO NOTHING",
        (json.dumps(payload.runs),),
    )
    _insert(conn, "questions", payload.questions, {"publication_id": publication})
    _insert(conn, "options", payload.options)
    _insert(conn, "keys", payload.keys)
    _insert(conn, "attempts", payload.attempts)
    if plan is None:
        return
    row = conn.execute(
        f"INSERT INTO {SCHEMA}.plans (created_at, per_question, plan_order, seed, reviewers, "
        "questions, audit_sha256, publication_id) VALUES (greatest(now(), (SELECT max(created_at)"
        f" + interval '1 microsecond' FROM {SCHEMA}.plans)), %s, %s, %s, %s, %s, %s, %s) "
        "RETURNING plan_id",
        (
            plan.per_question,
            plan.order,
            plan.seed,
            list(plan.reviewers),
            len(plan.questions),
            sha,
            publication,
        ),
    ).fetchone()
    assert row is not None
    assignments = [
        {"question_id": qid, "reviewer": who, "position": position}
        for position, qid in enumerate(plan.questions)
        for who in plan.assignments[qid]
    ]
    conn.execute(
        f"INSERT INTO {SCHEMA}.assignments (plan_id, question_id, reviewer, position) "
        "SELECT %s, question_id, reviewer, position FROM jsonb_to_recordset(%s::jsonb) "
        "AS x(question_id text, reviewer text, position integer)",
        (row[0], json.dumps(assignments)),
    )


def publish(audit: AuditDB, session: ServerSession, request: PublishRequest) -> dict[str, object]:
    """Publish ``request``'s questions of ``audit`` (module docstring); the
    ``review status`` object after it.

    Raises:
        ReviewError: a bad request (names, K, order, seed, questions, responses).
        ServerError: not the database's owner, a role the walls would not hold, another
            audit file or other reviewers than the published review's, a newer schema.
    """
    reviewers, adjudicators = _people(request)
    selected = _check(request, audit)
    conn = session.connection()
    row = conn.execute(
        "SELECT current_database(), session_user, pg_get_userbyid(datdba) "
        "FROM pg_database WHERE datname = current_database()"
    ).fetchone()
    assert row is not None
    database, me, owner = (str(value) for value in row)
    if me != owner:
        raise ServerError(
            f"{me} does not own the database {database} (its owner, {owner}, publishes)"
        )
    roles.check_roles(conn, [*reviewers, *adjudicators], owner)
    roles.group_roles(database)
    import psycopg

    sha = audit.fingerprint()
    ranking = None
    if request.order == "keyaudit":
        from ai4hse_desk.keyaudit import compute_key_audit

        ranking = [item.question_id for item in compute_key_audit(audit).questions]
    payload = read_payload(audit, selected, request.responses)
    try:
        with conn.transaction():
            migrate(conn)
            before = _published(conn)
            if before.sha256 is not None and before.sha256 != sha:
                raise ServerError(
                    f"this review was published from another audit file (sha256 "
                    f"{before.sha256[:16]}…); {audit.path.name} is sha256 {sha[:16]}…"
                )
            if before.plan is not None:
                _same_people(before.plan, reviewers, request)
            new = [qid for qid in selected if qid not in before.questions]
            plan = continued_plan(before.plan, new, reviewers, request, ranking) if new else None
            _write(
                conn, audit, sha, payload.only(set(new)), plan, request, (reviewers, adjudicators)
            )
            roles.grant(conn, database, reviewers, adjudicators)
    except psycopg.Error as exc:
        raise session.error(exc, conn) from None
    status = session.call("review_status")
    return {"audit": {"path": str(audit.path), "sha256": sha}, **status}


def _same_people(plan: Plan, reviewers: Sequence[str], request: PublishRequest) -> None:
    if set(plan.reviewers) != set(reviewers) or plan.per_question != request.per_question:
        raise ServerError(
            f"the published review has reviewers {', '.join(plan.reviewers)} and "
            f"{plan.per_question} per question; publishing again adds questions to it with "
            "the same reviewers and --per-question"
        )
