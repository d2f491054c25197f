"""Writes ``docs/dev/mutation.md`` from the summaries of ``scripts/mutate.py``'s runs."""

from __future__ import annotations

import fnmatch
import json
import platform
import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mutate_equivalents import DEFERRED, EQUIVALENTS

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

_INTRO = """\
# Mutation testing

A mutation test changes the code one small step at a time (a `<` for a `<=`, a
`+= 1` for a `= 1`, a constant for `None`) and runs the tests that reach the
changed function. A change the tests do not notice (a *survivor*) is a rule a user
relies on that no test holds. `make mutate` runs [mutmut](https://github.com/boxed/mutmut)
{version} over the protocol's modules and the review's rules (the blind rule and
independent adjudication, the review values, the visibility policy, the adjudication
queue and final states, the plan, one person one name, imports extending history);
it is **not** part of `make test` (about a quarter of an hour on 2 cores; the times are
below).

## How to run it

```sh
make mutate                          # every group, from scratch
make mutate MUTATE=metrics           # one group (GROUPS in scripts/mutate_groups.py)
# after adding tests: rerun the group's mutants that were not killed
.venv/bin/python scripts/mutate.py --recheck metrics
# run the mutants listed as equivalent too (they are not run by default)
.venv/bin/python scripts/mutate.py --with-equivalents metrics
# count the last runs again and rewrite this page
.venv/bin/python scripts/mutate.py --report
# one mutant's diff (in build/mutate/GROUP/)
../../../.venv/bin/mutmut show NAME
```

The pinned mutmut is the `mutate` extra of `pyproject.toml`; `scripts/mutate.py`
installs it into `.venv` when it is missing. The runs go to `build/mutate/GROUP/`.
This page is written from the last run of every group there: while a group has
none (a fresh clone, say), the script leaves the page as it is and says which.

## How it works

* **One list.** `GROUPS` in `scripts/mutate_groups.py` names, per group, the modules to
  mutate and the test files that judge them. Each group runs in its own
  `build/mutate/GROUP/` with the `[tool.mutmut]` table of `pyproject.toml` plus the
  group's modules and tests (and the `resources/` the audit-file factory of the
  tests reads).
* **Tight test selections.** mutmut first runs the group's tests once to learn
  which tests reach which function; a mutant is then judged only by the tests that
  reach its function, quickest first, stopping at the first failure. A group may
  leave out slow tests whose rules other tests hold, in the mutation runs only
  (`make test` runs them all):
  * extraction leaves out the two differential runs over the demo writers' 36,000
    responses (about 60 % of its test time; the hostile, any-text and pathological
    differential tests stay);
  * the review groups run on SQLite only (`-m "not postgres"`): the rules under
    mutation are the same Python on SQLite and PostgreSQL, and the PostgreSQL cases
    (where the database itself holds the walls) run under `make test`. They also
    leave out the four race tests that run the desk in other processes (two refused
    commands racing a plan or a verdict, three reviewers submitting at once, a
    reviewer killed mid-submit): another process imports the unmutated code, so no
    mutant can fail them.
* **Fresh processes, no memo inherited.** Each mutant runs in a process forked from
  a server that has only *collected* the tests (`process_isolation = "forkserver"`),
  never from one that ran them. The pytest plugin `scripts/mutate_plugin.py` also
  empties every memo of the mutated code before each test (the strict-content,
  final-line and single-choice verdict memos, the parsed `extracted` texts, the
  option-count table; `protocol/extract.py` holds none since its memo went), so a verdict
  computed by unmutated code is never read back. No product code was changed for
  this; `tests/core/test_protocol_memos.py` fails when a module-level memo is
  added to the protocol without being listed there, and
  `tests/core/test_review_memos_mutants.py` the same for every other mutated module
  (the review modules hold none today: their tables are constants).
* **Load never decides.** Hypothesis runs derandomized, with no example database
  and no deadline. Each test has a CPU-time budget (the plugin): 10 × its time in
  mutmut's stats run + 5 s; past it the test process ends with mutmut's *timeout*
  code, so a mutant that makes a loop run for ever is told in seconds (it used to
  run to mutmut's own bounds: `(estimated time of every test of the function + 1 s)
  × 30` of CPU or half that of wall time, minutes each). A mutant that hits a limit
  counts as *timeout* (the tests did not pass: detected), unless it is listed as
  equivalent. A mutant whose test process crashed (mutmut's exit 255, which mutmut
  also reads as a timeout; seen only under a heavy load) is run once more by name,
  so a crash never passes for a detection.
* **Equivalent mutants** (no behaviour a user could notice changes: a memo bound,
  a short cut that gives the same result, a line no input reaches) are listed below
  with the reason, in `scripts/mutate_equivalents.py`, each with the line the mutant
  puts in. A fresh run writes the mutants first, marks each listed one whose diff
  still puts in that line as *skipped* and does not run it (about 110 of the
  protocol's mutants, each of which would run every test that reaches its function
  to the end); an entry whose mutant no longer makes that change is stale: the
  mutant runs, and counts as a survivor unless a test kills it. `--with-equivalents`
  runs them all: on 2026-12-06, on the code of the run below, every one of the 131
  listed mutants ran and survived (no test tells any of them from the code), and the
  three timeouts were the same endless loops (single choice's search from the end with
  `while end >= 0` or a window starting at 1, and structured output's duplicate-key
  search with `node = None`); that run took 14.2 min of wall time, 25.1 min of CPU.

## Issue 36's mutants and the tests that hold them

Each test asserts the rule as a user meets it; each was also run in its group's
`build/mutate/GROUP/mutants/` with `MUTANT_UNDER_TEST` set to the mutant named, and
fails there.

1. *An assigned reviewer who has not given a verdict yet does not adjudicate their
   own question*: `test_an_assigned_reviewer_without_a_verdict_may_not_adjudicate` kills
   `rules.x_question_reviewers__mutmut_1` (the plan header read as `None`).
2. *The report's corrected keys read back as entered*:
   `test_a_corrected_key_reads_back_as_it_was_entered` and
   `test_keys_and_answers_convert_both_ways_unchanged` kill `values.x_key_of__mutmut_2`
   (`item != TRUE`); `answer_of` beyond the GUI form:
   `test_a_correction_that_keeps_the_official_key_is_refused` kills
   `values.x_answer_of__mutmut_1` to `_3`.
3. *A blind answer given as text may hold `UNSURE`; a proposed or corrected key may
   not*: `test_a_blind_answer_given_as_text_may_be_unsure`,
   `test_a_proposed_or_corrected_key_given_as_text_may_not_be_unsure` and
   `test_answers_are_read_from_text_or_lists` kill `values.x_check_answer__mutmut_3`
   and `_10` (`unsure` lost on the way).
4. *A question outside the reviewer's queue is refused by the blind rule
   (`BlindRuleError`), and no plan is no `TypeError`*:
   `test_a_question_outside_the_queue_is_refused_by_the_blind_rule` kills
   `rules.x_others_submitted__mutmut_13`;
   `test_without_a_plan_anyone_but_the_questions_reviewers_adjudicates` kills
   `rules.x_question_reviewers__mutmut_3` (`assigned = None`: mutmut 3.8 makes no
   `()` → `None` mutant of today's code, this is the nearest).
5. *A decision is stored with the sha256 of its audit file* (read back, and in the
   export): `test_a_decision_is_stored_with_the_audit_files_sha256` kills
   `rules.x_decide__mutmut_14`.
6. *Slices* (protocol §6), first round, in `tests/core/test_protocol_rules_metrics.py`:
   `test_two_questions_in_one_slice_one_correct_give_one_half`,
   `test_consistency_index_uses_the_accuracy_of_whole_slices`.
7. *Runs without a score are sorted last*, first round:
   `test_unscored_runs_come_after_a_run_scored_zero_whatever_their_ids`.
8. *A list continued on a later line is non-final* (§4), first round:
   `test_a_list_continued_on_a_later_line_is_non_final` (in
   `tests/core/test_protocol_rules_extraction.py`).
9. *Text on earlier lines never makes the final line malformed*, first round:
   `test_text_on_earlier_lines_never_makes_the_final_line_malformed`.
10. *Repeated identical wrong selections count each time*, first round:
    `test_repeated_identical_wrong_selections_are_counted_each_time`.

The tests of items 1 to 5 are in `tests/core/test_review_rules_mutants.py`.
`RunScorer.merge` (the issue's 16 mutants held only by the parallel rescore): *a run
scored in parts gives the numbers of the run scored whole*, for every cut of a small
run, part by part into an empty scorer, and another run's scorer refused
(`tests/core/test_protocol_rules_metrics_merge.py`).
"""


def _load(work: Path, group: str) -> dict[str, Any] | None:
    path = work / group / "summary.json"
    if not path.exists():
        return None
    summary: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return summary


def _deferred(name: str) -> str | None:
    for pattern, reason in DEFERRED.items():
        if fnmatch.fnmatchcase(name, pattern):
            return reason
    return None


def _natural(line: str) -> list[object]:
    """Sort key: mutant 9 before mutant 10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", line)]


def _fence(diff: str) -> list[str]:
    body = [line for line in diff.splitlines() if not line.startswith(("---", "+++"))]
    return ["```diff", *body, "```"]


def write_page(
    groups: Sequence[Any], work: Path, page: Path, mutated: Callable[[str], str]
) -> None:
    """Write the page: the table, the times, the equivalent and every other non-killed mutant."""
    from importlib.metadata import version

    lines = [_INTRO.format(version=version("mutmut")), "## Results", ""]
    rows = [
        "| group | module | mutants | killed | timeout | equivalent | deferred | survived "
        "| no tests | detected of the rest |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    equivalent_lines: list[str] = []
    deferred_lines: list[str] = []
    other_lines: list[str] = []
    used: set[str] = set()
    total_seconds = total_cpu = 0.0
    times: list[str] = []
    for group in groups:
        summary = _load(work, group.name)
        if summary is None:
            rows.append(f"| {group.name} | (not run) | | | | | | | | |")
            continue
        seconds = summary["seconds"] or 0.0
        total_seconds += seconds
        cpu = summary.get("cpu_seconds")
        total_cpu += cpu or 0.0
        cpu_text = f" (CPU {cpu / 60:.1f} min)" if cpu else ""
        times.append(f"{group.name} {seconds / 60:.1f} min{cpu_text}")
        for module, data in summary["modules"].items():
            counts = dict(data["counts"])
            killed = counts.pop("killed", 0)
            timeout = counts.pop("timeout", 0)
            equivalent = deferred = survived = no_tests = 0
            for name, mutant in data["not_killed"].items():
                status = mutant["status"]
                entry = EQUIVALENTS.get(name)
                put_in = mutated(mutant["diff"])
                if (
                    status in ("survived", "timeout", "not run")
                    and entry is not None
                    and entry[0] == put_in
                ):
                    # An equivalent mutant that hit the time limit was not detected either;
                    # one not run was marked so because its entry matched (mutate.py).
                    used.add(name)
                    equivalent += 1
                    timeout -= status == "timeout"
                    late = " (it hit the CPU-time limit)" if status == "timeout" else ""
                    equivalent_lines.append(f"* `{name}`{late}: `{put_in}`: {entry[1]}")
                    continue
                if status == "timeout":
                    continue
                reason = _deferred(name)
                if reason is not None:
                    deferred += 1
                    deferred_lines.append(f"* `{name}` ({status}): `{put_in}`")
                    continue
                if status == "no tests":
                    no_tests += 1
                else:
                    survived += 1
                stale = " (its equivalence entry is stale)" if entry is not None else ""
                other_lines += [f"* `{name}`: {status}{stale}", "", *_fence(mutant["diff"]), ""]
            rest = data["mutants"] - equivalent - deferred
            detected = killed + timeout
            share = f"{100 * detected / rest:.1f} %" if rest else "n/a"
            rows.append(
                f"| {group.name} | `{module}` | {data['mutants']} | {killed} | {timeout} "
                f"| {equivalent} | {deferred} | {survived} | {no_tests} | {share} |"
            )
    when = datetime.now(UTC).strftime("%Y-%m-%d")
    lines += [
        f"Last written {when} on {platform.machine()} (2 cores shared with other work; mutmut "
        "with two workers at the lowest CPU priority). The counts are those of each group's "
        "last fresh run, updated by any `--recheck` after tests were added; the times are "
        "those of the fresh runs. *Detected of the rest* is (killed + timeout) / (mutants − "
        "equivalent − deferred).",
        "",
        *rows,
        "",
        f"Time: {', '.join(times)}; **{total_seconds / 60:.1f} min** in all, CPU "
        f"**{total_cpu / 60:.1f} min** (the fair figure on a shared machine: the wall time "
        "grows with the other work on it, the CPU time does not; on 2 free cores the wall "
        "time is about half the CPU time).",
        "",
        "## Equivalent mutants",
        "",
        *(sorted(equivalent_lines, key=_natural) or ["None."]),
        "",
    ]
    unused = sorted(set(EQUIVALENTS) - used)
    if unused:
        lines += [
            "Entries of `scripts/mutate_equivalents.py` that matched no surviving mutant "
            "(killed since, renamed, or not run):",
            "",
            *(f"* `{name}`" for name in unused),
            "",
        ]
    lines += ["## Deferred", ""]
    if deferred_lines:
        reasons = sorted(set(DEFERRED.values()))
        lines += [*reasons, "", *sorted(deferred_lines, key=_natural), ""]
    else:
        lines += ["None.", ""]
    lines += ["## Not killed", "", *(other_lines or ["None: every other mutant was killed.", ""])]
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text("\n".join(lines).rstrip("\n") + "\n", encoding="utf-8")
