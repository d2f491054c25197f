#!/usr/bin/env bash
# Install the desktop entry, AppStream metadata and icons for this user (~/.local/share),
# with Exec pointing at this checkout's ai4hse-desk.
set -euo pipefail
bin=$(cd "${1:-.venv/bin}" && pwd)
share=${XDG_DATA_HOME:-$HOME/.local/share}
install -d "$share/applications" "$share/metainfo"
sed "s|^Exec=ai4hse-desk|Exec=$bin/ai4hse-desk|; s|^TryExec=ai4hse-desk|TryExec=$bin/ai4hse-desk|" \
  packaging/org.ai4hse.Desk.desktop > "$share/applications/org.ai4hse.Desk.desktop"
install -m644 packaging/org.ai4hse.Desk.metainfo.xml "$share/metainfo/"
for size in 16 24 32 48 64 128 256 512; do
  install -Dm644 "resources/icons/ai4hse-desk-$size.png" \
    "$share/icons/hicolor/${size}x${size}/apps/org.ai4hse.Desk.png"
done
install -Dm644 resources/icons/ai4hse-desk.svg "$share/icons/hicolor/scalable/apps/org.ai4hse.Desk.svg"
echo "installed AI4HSE Desk into $share (application menu entry org.ai4hse.Desk)"
