#!/usr/bin/env bash
# `make test`: lint, then the whole pytest suite with Qt offscreen.
set -euo pipefail
bin=${1:-.venv/bin}
export QT_QPA_PLATFORM=offscreen
export PYTHONDONTWRITEBYTECODE=1
echo "== lint (ruff, mypy)"
"$bin/ruff" check ai4hse_desk tests
"$bin/ruff" format --check ai4hse_desk tests
"$bin/mypy"
echo "== tests"
"$bin/pytest" -q
