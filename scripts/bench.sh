#!/usr/bin/env bash
# `make bench`: every benchmark, each figure beside a floor measured in the same run, and
# one current table of them written to docs/dev/bench-results.md (docs/dev/benchmarks.md).
set -uo pipefail
bin=${1:-.venv/bin}
export QT_QPA_PLATFORM=offscreen
mkdir -p out/bench
export AI4HSE_BENCH_TABLE=out/bench/table.jsonl
rm -f "$AI4HSE_BENCH_TABLE"
status=0
# The benchmarks' own environment: the key audit's library baselines (crowd-kit,
# cleanlab), never dependencies of the desk nor of its tests.
bench_venv=.venv-bench
if [ ! -x "$bench_venv/bin/python" ] || ! "$bench_venv/bin/python" -c "import crowdkit, cleanlab" 2>/dev/null; then
  echo "== creating $bench_venv (crowd-kit, cleanlab)"
  "${PYTHON:-python3.11}" -m venv "$bench_venv" \
    && "$bench_venv/bin/python" -m pip install -q --disable-pip-version-check \
         "crowd-kit==1.4.2" "cleanlab==2.9.0" || status=1
fi
export AI4HSE_BENCH_PYTHON="$PWD/$bench_venv/bin/python"
for bench in tests/benchmarks/bench_*.py; do
  echo "== $bench"
  "$bin/python" "$bench" || status=1
done
echo "== the bench table"
"$bin/python" tests/benchmarks/results_table.py "$AI4HSE_BENCH_TABLE" docs/dev/bench-results.md \
  || status=1
echo "== packaging smoke (wheel in a fresh venv, PyInstaller bundle)"
bash scripts/bundle-smoke.sh "$bin" || status=1
exit $status
