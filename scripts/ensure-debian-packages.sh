#!/usr/bin/env bash
# Install the Debian packages a feature needs, only those missing.
#   qt        — what PySide6's xcb platform needs to open a real window
#   postgres  — the PostgreSQL server for the team notes store tests
#   packaging — desktop-file-validate and appstreamcli, to validate packaging/
#   chromium  — headless Chromium and poppler's pdfinfo/pdftotext: the review report is
#               printed to PDF (A4) in the tests
set -euo pipefail
case "${1:-}" in
  qt) wanted="libegl1 libgl1 libfontconfig1 libxkbcommon0 libxkbcommon-x11-0 libdbus-1-3 libglib2.0-0
              libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
              libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 libxcb-randr0" ;;
  postgres) wanted="postgresql" ;;
  packaging) wanted="desktop-file-utils appstream" ;;
  chromium) wanted="chromium poppler-utils" ;;
  *) echo "usage: $0 qt|postgres|packaging|chromium" >&2; exit 2 ;;
esac
missing=""
for pkg in $wanted; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "warning: missing Debian packages:$missing (install them with apt-get as root)" >&2
  exit 0
fi
echo "installing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
