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
