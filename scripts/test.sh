#!/usr/bin/env bash
# `make test`: lint, the docs site built with warnings as errors, then the whole pytest
# suite with Qt offscreen.
set -euo pipefail
bin=${1:-.venv/bin}
export QT_QPA_PLATFORM=offscreen
export PYTHONDONTWRITEBYTECODE=1
echo "== system packages (what Qt needs, when missing)"
bash scripts/ensure-debian-packages.sh qt
echo "== lint (ruff, mypy)"
"$bin/ruff" check ai4hse_desk tests docs/hooks
"$bin/ruff" format --check ai4hse_desk tests docs/hooks
"$bin/mypy"
echo "== docs (mkdocs build --strict into out/site: warnings, broken links and anchors fail)"
NO_MKDOCS_2_WARNING=1 "$bin/mkdocs" build --strict --quiet --site-dir out/site
echo "== PostgreSQL (a throwaway cluster for the notes store tests)"
bash scripts/ensure-debian-packages.sh postgres
pg_dir=$(mktemp -d "${TMPDIR:-/tmp}/ai4hse-pg.XXXXXX")
server_dir=$(mktemp -d "${TMPDIR:-/tmp}/ai4hse-review-server.XXXXXX")
trap 'bash scripts/pg-test-cluster.sh stop "$pg_dir" >/dev/null 2>&1 || true
      bash scripts/review-server.sh stop "$server_dir" >/dev/null 2>&1 || true' EXIT
# The PostgreSQL tests fail (not skip) when the cluster is not there.
export AI4HSE_REQUIRE_PG=1
if AI4HSE_TEST_PG_URL=$(bash scripts/pg-test-cluster.sh start "$pg_dir"); then
  export AI4HSE_TEST_PG_URL
  echo "PostgreSQL at $AI4HSE_TEST_PG_URL"
else
  echo "warning: the PostgreSQL cluster did not start; its tests will fail" >&2
  unset AI4HSE_TEST_PG_URL
fi
echo "== headless Chromium (the review report printed to PDF)"
bash scripts/ensure-debian-packages.sh chromium
# The report's PDF test fails (not skips) when Chromium is not there.
export AI4HSE_REQUIRE_CHROMIUM=1
echo "== review server (scripts/review-server.sh: password logins coord, ann, bo, cy)"
# Its tests fail (not skip) when it is missing, as the store tests do (AI4HSE_REQUIRE_PG=1).
if server_urls=$(AI4HSE_DESK="$bin/ai4hse-desk" bash scripts/review-server.sh start "$server_dir"); then
  while read -r role url; do
    export "AI4HSE_TEST_SERVER_$(echo "$role" | tr '[:lower:]' '[:upper:]')=$url"
  done <<<"$server_urls"
  if [ -f "$server_dir/root.crt" ]; then export AI4HSE_TEST_SERVER_ROOTCERT="$server_dir/root.crt"; fi
  echo "review server at $(sed -n 's/^coord postgresql:\/\/coord:[^@]*@//p' <<<"$server_urls")"
else
  echo "warning: the review server did not start; its tests will fail" >&2
fi
echo "== tests"
# The public-data importer tests fail (not skip) when ../shared/data is missing.
export AI4HSE_REQUIRE_DATA=1
"$bin/pytest" -q
