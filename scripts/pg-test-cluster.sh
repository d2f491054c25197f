#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the notes store tests.
#
#   scripts/pg-test-cluster.sh start DIR   initdb into DIR/data, start it on 127.0.0.1 at a
#                                          free port (trust auth on loopback only), create the
#                                          database ai4hse_test and print its SQLAlchemy URL
#                                          postgresql+psycopg://postgres@127.0.0.1:PORT/ai4hse_test
#   scripts/pg-test-cluster.sh stop DIR    stop that cluster and delete DIR
#
# Needs the Debian PostgreSQL server (scripts/ensure-debian-packages.sh postgres installs it);
# the binaries are taken from /usr/lib/postgresql/<newest version>/bin, or from $PG_BINDIR.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the system user
# `postgres` (created when missing) and every server command runs through runuser (or su).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2
marker=.ai4hse-pg-test-cluster
db=ai4hse_test

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

write_hba() {
  # Trust on loopback (and the socket inside DIR) only; everything else is refused.
  printf '%s\n' \
    "local all all              trust" \
    "host  all all 127.0.0.1/32 trust" \
    "host  all all 0.0.0.0/0    reject" \
    "host  all all ::/0         reject" >"$dir/data/pg_hba.conf"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir/data/pg_hba.conf"; fi
}

start() {
  local bindir port="" started=""
  bindir=$(find_bindir)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ -e "$dir/data" ]; then echo "error: $dir/data exists; stop that cluster first" >&2; exit 1; fi
  touch "$dir/$marker"
  chmod 700 "$dir"
  ensure_owner
  if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres -E UTF8 --no-locale \
    --auth-local=trust --auth-host=reject >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    exit 1
  fi
  write_hba
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off" \
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
  as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres "$db"
  echo "$port" >"$dir/port"
  echo "postgresql+psycopg://postgres@127.0.0.1:$port/$db"
}

stop() {
  [ -d "$dir" ] || return 0
  if [ ! -e "$dir/$marker" ]; then
    echo "error: $dir was not made by $0; not touching it" >&2
    exit 1
  fi
  if [ -f "$dir/data/postmaster.pid" ]; then
    local bindir
    bindir=$(find_bindir)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null 2>&1 \
      || as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 \
      || true
  fi
  rm -rf "$dir"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
