#!/usr/bin/env bash
# Create the project's virtualenv (if needed) and install the project with its test and docs extras.
set -euo pipefail
venv=${1:-.venv}
python=${PYTHON:-python3.11}
command -v "$python" >/dev/null 2>&1 || python=python3
if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv with $($python --version)"
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[test,docs]"
