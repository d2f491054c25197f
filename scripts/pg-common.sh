# Shared by scripts/pg-test-cluster.sh and scripts/review-server.sh (sourced, not run):
# finding the PostgreSQL server binaries, running commands as the cluster's owner, and a
# free loopback port. Both scripts set `dir` (the cluster's folder) before calling
# ensure_owner. PostgreSQL refuses to run as root, so as root the cluster belongs to the
# system user `postgres` (created when missing) and its commands run through runuser (or su).

# The newest /usr/lib/postgresql/<version>/bin, or $PG_BINDIR, or initdb's folder on PATH.
find_bindir() {
  if [ -n "${PG_BINDIR:-}" ] && [ -x "$PG_BINDIR/initdb" ]; then echo "$PG_BINDIR"; return; fi
  local best="" best_version=-1 candidate version
  for candidate in /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] || continue
    version=${candidate#/usr/lib/postgresql/}
    version=${version%/bin}
    [[ "$version" =~ ^[0-9]+$ ]] || continue
    if [ "$version" -gt "$best_version" ]; then best=$candidate; best_version=$version; fi
  done
  if [ -z "$best" ] && command -v initdb >/dev/null 2>&1; then
    best=$(dirname "$(command -v initdb)")
  fi
  if [ -z "$best" ]; then
    echo "error: no PostgreSQL server binaries (scripts/ensure-debian-packages.sh postgres)" >&2
    exit 1
  fi
  echo "$best"
}

# Run a command as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" != 0 ]; then "$@"; return; fi
  if command -v runuser >/dev/null 2>&1; then
    runuser -u postgres -- "$@"
  else
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  fi
}

# As root: make sure the user postgres exists and owns (and can reach) $dir.
ensure_owner() {
  [ "$(id -u)" = 0 ] || return 0
  if ! id postgres >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/postgresql --no-create-home \
      --shell /bin/sh postgres
  fi
  chown postgres: "$dir"
  if ! as_owner test -w "$dir"; then
    echo "error: the user postgres cannot reach $dir (a parent folder is private); use /tmp" >&2
    exit 1
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' \
    2>/dev/null || echo $((20000 + RANDOM % 20000))
}

# Start the cluster of $dir/data with `pg_ctl` on a free loopback port (five tries: a port
# taken meanwhile is tried again), unsafe-but-fast durability settings and the extra server
# options "$1"; sets `port`. Exits with the end of the server log when it cannot start.
start_cluster() {
  local extra=${1:-} started=""
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off $extra" \
      start >/dev/null 2>&1; then
      started=yes
      break
    fi
  done
  if [ -z "$started" ]; then
    echo "error: PostgreSQL did not start; the end of $dir/server.log:" >&2
    tail -n 20 "$dir/server.log" >&2 || true
    exit 1
  fi
}
