#!/usr/bin/env bash
# Smoke test of the packaged desk (make bench): the wheel in a fresh venv, then the
# PyInstaller bundle, each rendering the demo window offscreen to a PNG that is checked.
set -euo pipefail
bin=${1:-.venv/bin}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export QT_QPA_PLATFORM=offscreen AI4HSE_DESK_CACHE_DIR="$work/cache" AI4HSE_DESK_CONFIG_DIR="$work/config"
check_png() {
  "$bin/python" - "$1" <<'PY'
import sys
from PySide6.QtGui import QImage
image = QImage(sys.argv[1])
assert (image.width(), image.height()) == (1600, 1000), (image.width(), image.height())
print(f"ok: {sys.argv[1]} is a 1600x1000 PNG")
PY
}
start=$(date +%s)
echo "== wheel: build, install in a fresh venv, run"
rm -rf dist/*.whl
"$bin/python" -m build --wheel --outdir dist . >/dev/null
python3.11 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check dist/*.whl
"$work/venv/bin/ai4hse-desk" --version
"$work/venv/bin/ai4hse-desk" demo --out "$work/demo.sqlite"
"$work/venv/bin/ai4hse-desk" rescore "$work/demo.sqlite" --table | head -3
# The key audit: its compiled near-duplicate comparison (RapidFuzz) and the EM's numpy.
"$work/venv/bin/ai4hse-desk" keyaudit "$work/demo.sqlite" --top 1 >"$work/keyaudit.json"
grep -q '"question_id": "Q060"' "$work/keyaudit.json"
"$work/venv/bin/ai4hse-desk" --demo --screenshot "$work/wheel.png"
check_png "$work/wheel.png"
echo "wheel smoke: $(( $(date +%s) - start )) s"
start=$(date +%s)
echo "== PyInstaller one-folder bundle"
make --no-print-directory bundle >/dev/null
dist/ai4hse-desk/ai4hse-desk --version
dist/ai4hse-desk/ai4hse-desk keyaudit "$work/demo.sqlite" --top 1 >"$work/keyaudit.json"
grep -q '"question_id": "Q060"' "$work/keyaudit.json"
dist/ai4hse-desk/ai4hse-desk --demo --screenshot "$work/bundle.png"
check_png "$work/bundle.png"
# A review index built by a spawned worker of the frozen program (a fresh cache).
rm -rf "$AI4HSE_DESK_CACHE_DIR"
dist/ai4hse-desk/ai4hse-desk --demo --workers 2 --screenshot "$work/bundle-workers.png"
check_png "$work/bundle-workers.png"
echo "bundle smoke: $(( $(date +%s) - start )) s (bundle size $(du -sh dist/ai4hse-desk | cut -f1))"
