#!/usr/bin/env bash
# `make bench`: the benchmarks whose figures go into the issue notes.
set -uo pipefail
bin=${1:-.venv/bin}
export QT_QPA_PLATFORM=offscreen
status=0
for bench in tests/benchmarks/bench_*.py; do
  echo "== $bench"
  "$bin/python" "$bench" || status=1
done
echo "== packaging smoke (wheel in a fresh venv, PyInstaller bundle)"
bash scripts/bundle-smoke.sh "$bin" || status=1
exit $status
