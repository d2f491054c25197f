#!/usr/bin/env bash
# `make run`: write the demo database (once) and show its re-derived scores.
set -euo pipefail
bin=${1:-.venv/bin}
mkdir -p out
db=out/demo.sqlite
[ -f "$db" ] || "$bin/ai4hse-desk" demo --out "$db"
"$bin/ai4hse-desk" rescore "$db" --table
