"""`make mutate`: mutation testing (mutmut) of the rules, one module group at a time.

Each group of :data:`GROUPS` (``scripts/mutate_groups.py``) names the modules to mutate
and the tests that judge them. For each group this script

1. lays out ``build/mutate/<group>/``: the package and the tests (linked), this
   plugin (``scripts/mutate_plugin.py``), and a ``pyproject.toml`` that is the
   project's with the ``[tool.mutmut]`` table extended by the group's modules
   (``only_mutate``) and tests (``pytest_add_cli_args_test_selection``);
2. runs ``mutmut run`` there (at the lowest CPU priority, two workers). mutmut runs
   the group's tests once to learn which tests reach which function, then each
   mutant in a process forked from a server that has only collected the tests,
   with the tests that reach the mutated function; the plugin empties every memo
   before each test and fixes hypothesis' examples;
3. counts the verdicts per module and writes ``docs/dev/mutation.md``: the table,
   the time taken, the equivalent mutants of :mod:`mutate_equivalents` (each
   checked against the mutant's current diff, so a stale entry counts as a
   survivor) and every other mutant that was not killed, with its diff.

Usage::

    python scripts/mutate.py [GROUP ...]          # fresh runs (all groups by default)
    python scripts/mutate.py --recheck [GROUP ...]  # rerun its non-killed, non-equivalent ones
    python scripts/mutate.py --report [GROUP ...]  # count the last runs again, rewrite the page

The groups (:data:`GROUPS`, which modules with which tests) are in
``scripts/mutate_groups.py``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from mutate_groups import GROUPS, Group

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutate"
DOC = ROOT / "docs" / "dev" / "mutation.md"
PLUGIN = ROOT / "scripts" / "mutate_plugin.py"
WORKERS = 2
#: What every group needs: the package, its tests and the resources the test factories
#: read (the audit file schema); ``also_copy`` of ``[tool.mutmut]`` copies the last two
#: into mutmut's ``mutants/`` folder beside the mutated package.
LINKED = ("ai4hse_desk", "tests", "resources")


#: mutmut's exit codes as it reads them (mutmut.stats.status_by_exit_code), folded.
_KILLED = {1, 3, 37}
_SURVIVED = {0}
_TIMEOUT = {36, -24, 24, 152, 255}
_NO_TESTS = {5, 33}


def _group_tests(group: Group) -> list[str]:
    found: list[str] = []
    for pattern in group.tests:
        found.extend(str(p.relative_to(ROOT)) for p in sorted(ROOT.glob(pattern)))
    if not found:
        raise SystemExit(f"error: group {group.name} has no tests")
    for node in group.deselect:
        found += ["--deselect", node]
    if group.marks:
        found += ["-m", group.marks]
    return found


def _toml_value(value: object) -> str:
    """A TOML value of a string, number, Boolean or list of strings (JSON spells them alike)."""
    return json.dumps(value)


def _group_pyproject(group: Group) -> str:
    """The project's pyproject.toml with the group's ``[tool.mutmut]`` table."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    settings = dict(tomllib.loads(text)["tool"]["mutmut"])
    settings["only_mutate"] = list(group.modules)
    settings["pytest_add_cli_args_test_selection"] = _group_tests(group)
    # The project's table, cut out: it ends where the next table starts.
    kept: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("["):
            inside = line.strip() == "[tool.mutmut]"
        if not inside:
            kept.append(line)
    table = [f"{key} = {_toml_value(value)}" for key, value in settings.items()]
    return "\n".join([*kept, "", "[tool.mutmut]", *table, ""])


def _prepare(group: Group) -> Path:
    """A fresh work folder for ``group`` (its earlier one removed: it is build output)."""
    work = WORK / group.name
    if work.exists():
        shutil.rmtree(work)
    (work / "scripts").mkdir(parents=True)
    for name in LINKED:
        (work / name).symlink_to(ROOT / name, target_is_directory=True)
    shutil.copy2(PLUGIN, work / "scripts" / PLUGIN.name)
    (work / "pyproject.toml").write_text(_group_pyproject(group), encoding="utf-8")
    return work


def _refresh(group: Group) -> Path:
    """The existing work folder of ``group`` with the current plugin and config."""
    work = WORK / group.name
    if not (work / "mutants").is_dir():
        raise SystemExit(f"error: group {group.name} has not run yet (make mutate)")
    shutil.copy2(PLUGIN, work / "scripts" / PLUGIN.name)
    (work / "pyproject.toml").write_text(_group_pyproject(group), encoding="utf-8")
    return work


#: mutmut's first step of ``mutmut run``, alone (run in a group's folder): copy the
#: sources and write every mutant and the meta files that will hold the verdicts.
_GENERATE = """
import os, sys
from mutmut.__main__ import create_mutants
from mutmut.mutation.trampoline import set_mutant_under_test
from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir()
copy_also_copy_files()
setup_source_paths()
create_mutants(int(sys.argv[1]))
"""
#: mutmut's exit code "skipped": what a listed equivalent mutant that was not run holds.
_SKIPPED = 34


def _env() -> dict[str, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", AI4HSE_REQUIRE_DATA="1")
    # The public data beside the project, as the tests find it from the real tests folder.
    env.setdefault("AI4HSE_PUBLIC_DATA", str(ROOT.parent / "shared" / "data"))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _timed(command: list[str], work: Path) -> float:
    """Run ``command`` in ``work``; the CPU seconds it and its children took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, cwd=work, env=_env(), check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _mutmut(work: Path, *args: str) -> float:
    """Run mutmut in ``work``; the CPU seconds it and its workers took."""
    return _timed([str(Path(sys.executable).with_name("mutmut")), *args], work)


def _generate(work: Path) -> float:
    """Write the group's mutants without running any (mutmut's own generation step)."""
    return _timed([sys.executable, "-c", _GENERATE, str(WORKERS)], work)


def _skip_equivalents(group: Group, work: Path) -> int:
    """Mark the listed equivalent mutants whose diff still makes the listed change as
    skipped, so that ``mutmut run`` lets that verdict stand and does not run them (a
    stale entry is left to run). The number marked."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from mutate_equivalents import EQUIVALENTS

    os.chdir(work)
    try:
        from mutmut.configuration import reset_config
        from mutmut.mutation.data import SourceFileMutationData
        from mutmut.mutation.diff_apply import get_diff_for_mutant

        reset_config()
        marked = 0
        for module in group.modules:
            data = SourceFileMutationData(path=module)
            data.load()
            for name in data.exit_code_by_key:
                entry = EQUIVALENTS.get(name)
                if entry is None:
                    continue
                if entry[0] == _mutated_lines(get_diff_for_mutant(name, path=module)):
                    data.exit_code_by_key[name] = _SKIPPED
                    marked += 1
            data.save()
    finally:
        os.chdir(ROOT)
    return marked


def _ensure_mutmut() -> None:
    """Install the ``mutate`` extra's pinned mutmut into this venv when missing."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    wanted = tomllib.loads(text)["project"]["optional-dependencies"]["mutate"]
    missing = []
    for requirement in wanted:
        name, _, version = requirement.partition("==")
        try:
            if importlib.metadata.version(name) == version:
                continue
        except importlib.metadata.PackageNotFoundError:
            pass
        missing.append(requirement)
    if missing:
        pip = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, *missing], check=True)


def _codes(group: Group, work: Path) -> dict[str, dict[str, int | None]]:
    """Every mutant's verdict (exit code) in ``work``, by module."""
    os.chdir(work)
    try:
        from mutmut.configuration import reset_config
        from mutmut.mutation.data import SourceFileMutationData

        reset_config()
        codes = {}
        for module in group.modules:
            data = SourceFileMutationData(path=module)
            data.load()
            codes[module] = dict(data.exit_code_by_key)
        return codes
    finally:
        os.chdir(ROOT)


def _restore(group: Group, work: Path, before: dict[str, dict[str, int | None]]) -> int:
    """Put back the verdicts mutmut dropped in a recheck: when the test selection grew
    (new test files) it resets every verdict and runs only the mutants named. A killed
    mutant stays killed when tests are only added, and a skipped equivalent stays
    skipped. The number put back."""
    os.chdir(work)
    try:
        from mutmut.mutation.data import SourceFileMutationData

        restored = 0
        for module in group.modules:
            data = SourceFileMutationData(path=module)
            data.load()
            for name, code in before[module].items():
                if data.exit_code_by_key.get(name, 0) is None and code is not None:
                    data.exit_code_by_key[name] = code
                    restored += 1
            data.save()
        return restored
    finally:
        os.chdir(ROOT)


def _rerun_crashed(group: Group, work: Path) -> float:
    """Run once more, by name, the mutants whose test process crashed (mutmut's exit 255:
    pytest raised instead of returning, which mutmut counts as a timeout) — rare, and
    seen only under a heavy load — so that a crash never passes for a detection. The CPU
    seconds it took."""
    codes = _codes(group, work)
    crashed = [name for module in codes.values() for name, code in module.items() if code == 255]
    if not crashed:
        return 0.0
    print(f"{group.name}: running {len(crashed)} crashed mutants again")
    cpu = _mutmut(work, "run", "--max-children", str(WORKERS), *crashed)
    _restore(group, work, codes)
    return cpu


def _non_killed(work: Path) -> list[str]:
    """The group's mutants not killed, less those listed as equivalent (they survived)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from mutate_equivalents import EQUIVALENTS

    names: list[str] = []
    for meta in (work / "mutants").rglob("*.py.meta"):
        codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        names.extend(
            name for name, code in codes.items() if code not in _KILLED and name not in EQUIVALENTS
        )
    return sorted(names)


def _summary(
    group: Group, work: Path, seconds: float | None, cpu: float | None = None
) -> dict[str, Any]:
    """Verdicts per module (with the diff of every mutant not killed), saved beside the run."""
    os.chdir(work)
    from mutmut.configuration import reset_config
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    reset_config()
    modules: dict[str, Any] = {}
    for module in group.modules:
        data = SourceFileMutationData(path=module)
        data.load()
        counts: Counter[str] = Counter()
        others: dict[str, dict[str, str]] = {}
        for name, code in sorted(data.exit_code_by_key.items()):
            status = _status(code)
            counts[status] += 1
            if status != "killed":
                others[name] = {"status": status, "diff": get_diff_for_mutant(name, path=module)}
        modules[module] = {"counts": dict(counts), "mutants": len(data.exit_code_by_key)}
        modules[module]["not_killed"] = others
    os.chdir(ROOT)
    summary_path = work / "summary.json"
    if seconds is None and summary_path.exists():
        earlier = json.loads(summary_path.read_text(encoding="utf-8"))
        seconds, cpu = earlier["seconds"], earlier.get("cpu_seconds")
    summary: dict[str, Any] = {
        "group": group.name,
        "seconds": seconds,
        "cpu_seconds": cpu,
        "modules": modules,
    }
    summary_path.write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary


def _status(code: int | None) -> str:
    if code == _SKIPPED:
        return "not run"
    if code in _KILLED:
        return "killed"
    if code in _SURVIVED:
        return "survived"
    if code in _TIMEOUT:
        return "timeout"
    if code in _NO_TESTS:
        return "no tests"
    return "not run" if code is None else f"suspicious (exit {code})"


def _mutated_lines(diff: str) -> str:
    """The lines a mutant puts in, stripped and joined: what an equivalence entry names."""
    lines = diff.splitlines()
    added = [
        line[1:].strip() for line in lines if line.startswith("+") and not line.startswith("+++")
    ]
    return " / ".join(added)


def _page_problem() -> str | None:
    """Why the page may not be written: a group without a run in ``build/mutate`` would
    lose its rows, which the page holds."""
    missing = [g.name for g in GROUPS if not (WORK / g.name / "summary.json").exists()]
    if not missing:
        return None
    return (
        f"no run of {', '.join(missing)} in {WORK.relative_to(ROOT)}: "
        f"{DOC.relative_to(ROOT)} is left as it is (its table would lose those rows); "
        "run every group once (make mutate) to write it"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("groups", nargs="*", help="group names (default: all)")
    parser.add_argument(
        "--recheck",
        action="store_true",
        help="rerun the non-killed mutants not listed as equivalent",
    )
    parser.add_argument(
        "--report", action="store_true", help="only count the last runs again and rewrite the page"
    )
    parser.add_argument(
        "--with-equivalents",
        action="store_true",
        help="run the mutants listed as equivalent too (by default they are not run)",
    )
    options = parser.parse_args()
    by_name = {group.name: group for group in GROUPS}
    unknown = [name for name in options.groups if name not in by_name]
    if unknown:
        print(f"error: unknown group {unknown[0]!r}; groups: {', '.join(by_name)}", file=sys.stderr)
        return 2
    chosen = [by_name[name] for name in options.groups] or list(GROUPS)
    if options.report and (problem := _page_problem()):
        print(f"error: {problem}", file=sys.stderr)
        return 2
    _ensure_mutmut()
    for group in chosen:
        if options.report:
            work = WORK / group.name
            if (work / "mutants").is_dir():
                _summary(group, work, None)
            continue
        started = time.monotonic()
        if options.recheck:
            work = _refresh(group)
            names = _non_killed(work)
            if names:
                before = _codes(group, work)
                _mutmut(work, "run", "--max-children", str(WORKERS), *names)
                _restore(group, work, before)
            _summary(group, work, None)
        else:
            work = _prepare(group)
            cpu = 0.0
            if not options.with_equivalents:
                cpu += _generate(work)
                print(f"{group.name}: {_skip_equivalents(group, work)} listed equivalents not run")
            cpu += _mutmut(work, "run", "--max-children", str(WORKERS))
            cpu += _rerun_crashed(group, work)
            _summary(group, work, time.monotonic() - started, cpu)
    if problem := _page_problem():
        print(f"error: {problem}", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT / "scripts"))
    from mutate_report import write_page

    write_page(GROUPS, WORK, DOC, _mutated_lines)
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
