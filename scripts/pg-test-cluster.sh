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

# find_bindir, as_owner, ensure_owner, free_port
# shellcheck source=scripts/pg-common.sh
source "$(dirname "$0")/pg-common.sh"

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
  local bindir port=""
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
  start_cluster
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
