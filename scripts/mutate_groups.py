"""What `make mutate` mutates: each group's modules and the tests that judge them.

:data:`GROUPS` is the one list (``scripts/mutate.py`` runs it, ``scripts/mutate_report.py``
writes its table): a group names the modules mutated together, the test files that judge
them, slow tests left out whose rule the others hold, and a marker expression. To mutate
more of the desk, add a :class:`Group` here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Group:
    """Modules mutated together and the tests that judge them (globs, from the root)."""

    name: str
    modules: tuple[str, ...]
    tests: tuple[str, ...]
    #: Tests of those files left out (pytest node ids): slow ones whose rule the others hold.
    deselect: tuple[str, ...] = ()
    #: A pytest marker expression (``-m``) the group's tests must match ("" for all).
    marks: str = ""


#: Review tests that run the desk in other processes: those import the unmutated code, so
#: no mutant can fail them; they hold races (nothing lost), which the store's tests
#: of the same rules in one process do not need.
_RACES = (
    "tests/core/test_review_integrity.py::test_a_refused_command_racing_a_plan_never_loses_it",
    "tests/core/test_review_integrity.py::test_a_refused_command_racing_a_verdict_never_loses_it",
    "tests/core/test_cli_review.py::test_three_reviewers_submitting_at_once_lose_nothing",
    "tests/core/test_cli_review.py::test_a_reviewer_killed_mid_submit_keeps_every_saved_verdict",
)
#: The review tests parametrised over SQLite and PostgreSQL run on SQLite only: the rules
#: under mutation are the same Python on both, and the PostgreSQL cases (their walls in
#: the database itself) run under ``make test``.
_SQLITE_ONLY = "not postgres"

GROUPS: tuple[Group, ...] = (
    Group(
        "extraction",
        modules=(
            "ai4hse_desk/protocol/answer_only.py",
            "ai4hse_desk/protocol/extract.py",
            "ai4hse_desk/protocol/lists.py",
            "ai4hse_desk/protocol/outcome.py",
            "ai4hse_desk/protocol/reasoning.py",
            "ai4hse_desk/protocol/single_choice.py",
            "ai4hse_desk/protocol/structured.py",
        ),
        tests=(
            "tests/core/test_extraction_*.py",
            "tests/core/test_extract_differential.py",
            "tests/core/test_protocol_rules_extraction*.py",
        ),
        # Differential runs over the demo writers' 30,000 + 6,000 responses (about 60 % of
        # the group's test time; the writers are not under test): the hostile, any-text and
        # pathological differential tests and the rule tables stay.
        deselect=(
            "tests/core/test_extract_differential.py::test_realistic_demo_verdicts_are_unchanged",
            "tests/core/test_extract_differential.py"
            "::test_single_choice_chain_of_thought_verdicts_are_unchanged",
        ),
    ),
    Group(
        "metrics",
        modules=("ai4hse_desk/protocol/metrics.py", "ai4hse_desk/protocol/wilson.py"),
        tests=(
            "tests/core/test_metrics.py",
            "tests/core/test_wilson.py",
            "tests/core/test_protocol_rules_metrics*.py",
        ),
    ),
    Group(
        "compare",
        modules=("ai4hse_desk/protocol/compare.py",),
        tests=(
            "tests/core/test_compare.py",
            "tests/core/test_protocol_rules_compare*.py",
        ),
    ),
    Group(
        "review-rules",
        modules=("ai4hse_desk/review/rules.py", "ai4hse_desk/review/visibility.py"),
        tests=(
            "tests/core/test_review_rules_mutants.py",
            "tests/core/test_review_visibility*.py",
            "tests/core/test_review_store.py",
            "tests/core/test_review_adjudication_queue.py",
            "tests/core/test_review_integrity.py",
        ),
        deselect=_RACES,
        marks=_SQLITE_ONLY,
    ),
    Group(
        "review-values",
        modules=("ai4hse_desk/review/values.py",),
        tests=(
            "tests/core/test_review_rules_mutants.py",
            "tests/core/test_review_values*.py",
            "tests/core/test_review_store.py",
            "tests/core/test_review_plan_stats.py",
            "tests/core/test_review_integrity.py",
            "tests/core/test_cli_review.py",
        ),
        deselect=_RACES,
        marks=_SQLITE_ONLY,
    ),
    Group(
        "review-queue",
        modules=(
            "ai4hse_desk/review/queue.py",
            "ai4hse_desk/review/final_state.py",
            "ai4hse_desk/review/marks.py",
        ),
        tests=(
            "tests/core/test_review_queue*.py",
            "tests/core/test_review_final_state*.py",
            "tests/core/test_notes_store.py",
            "tests/core/test_review_adjudication_queue.py",
            "tests/core/test_review_report_json.py",
        ),
        marks=_SQLITE_ONLY,
    ),
    Group(
        "review-plan",
        modules=("ai4hse_desk/review/plan.py",),
        tests=(
            "tests/core/test_review_plan*.py",
            "tests/core/test_review_store.py",
        ),
        marks=_SQLITE_ONLY,
    ),
    Group(
        "people",
        modules=("ai4hse_desk/notes/people.py",),
        tests=(
            "tests/core/test_people_*.py",
            "tests/core/test_review_integrity.py",
            "tests/core/test_notes_exports_people.py",
        ),
        deselect=_RACES,
        marks=_SQLITE_ONLY,
    ),
    Group(
        "chain",
        modules=("ai4hse_desk/notes/chain.py", "ai4hse_desk/notes/changes.py"),
        tests=(
            "tests/core/test_chain_*.py",
            "tests/core/test_revision_changes.py",
            "tests/core/test_review_exchange.py",
            "tests/core/test_review_integrity.py",
        ),
        deselect=_RACES,
        marks=_SQLITE_ONLY,
    ),
)
