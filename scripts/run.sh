#!/usr/bin/env bash
# `make run`: open the window on the built-in demo database; without a display,
# render a screenshot of it instead and say where it is.
set -euo pipefail
bin=${1:-.venv/bin}
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin/ai4hse-desk" --demo
fi
mkdir -p out
out="$(pwd)/out/screenshot.png"
echo "no display found (DISPLAY/WAYLAND_DISPLAY unset): rendering the window offscreen instead"
QT_QPA_PLATFORM=offscreen "$bin/ai4hse-desk" --demo --screenshot "$out"
echo "open $out to see the window; on a desktop, 'make run' opens it for real"
