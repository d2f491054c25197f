#!/usr/bin/env bash
# A throwaway review server to try the desk on (and the one `make test` uses).
#
#   scripts/review-server.sh start DIR [--no-publish]
#       initdb into DIR/data; start it on 127.0.0.1 at a free port with scram-sha-256
#       password authentication (nothing else is accepted over TCP); make the LOGIN roles
#       coord (owner of the database ai4hse_review; CREATEDB and CREATEROLE so that it can
#       make the review's group roles and, in tests, more review databases), ann, bo and cy,
#       each with a random password; write DIR/pgpass (mode 600) with them; publish the
#       built-in demo (reviewers ann and bo, two per question, adjudicator cy) unless
#       --no-publish; print one line per role: `ROLE URL` (the URL holds the password:
#       this server is a throwaway on loopback, and the desk masks passwords itself).
#       When openssl is there the server offers TLS with a throwaway certificate; its
#       authority is DIR/root.crt (for sslmode=verify-full).
#   scripts/review-server.sh stop DIR
#       stop that cluster and delete DIR.
#
# Needs the Debian PostgreSQL server (scripts/ensure-debian-packages.sh postgres). The
# desk is run as $AI4HSE_DESK, else .venv/bin/ai4hse-desk, else ai4hse-desk on PATH.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the system user
# `postgres` and every server command runs through runuser (or su).
set -euo pipefail

usage() { echo "usage: $0 start DIR [--no-publish] | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
action=$1
dir=$2
publish=yes
if [ $# -eq 3 ] && [ "$3" = "--no-publish" ]; then publish=""; elif [ $# -ne 2 ]; then usage; fi
marker=.ai4hse-review-server
db=ai4hse_review
roles="coord ann bo cy"

# find_bindir, as_owner, ensure_owner, free_port
# shellcheck source=scripts/pg-common.sh
source "$(dirname "$0")/pg-common.sh"

new_password() {
  python3 -c 'import secrets; print(secrets.token_urlsafe(18))' 2>/dev/null \
    || head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n'
}

desk() {
  if [ -n "${AI4HSE_DESK:-}" ]; then "$AI4HSE_DESK" "$@"; return; fi
  local here
  here=$(cd "$(dirname "$0")/.." && pwd)
  if [ -x "$here/.venv/bin/ai4hse-desk" ]; then "$here/.venv/bin/ai4hse-desk" "$@"; return; fi
  ai4hse-desk "$@"
}

write_hba() {
  # The superuser only through the socket inside DIR (peer: the cluster's own system user);
  # every TCP login on loopback by scram-sha-256 password; everything else refused.
  printf '%s\n' \
    "local all postgres                peer" \
    "local all all                     reject" \
    "host  all all      127.0.0.1/32   scram-sha-256" \
    "host  all all      0.0.0.0/0      reject" \
    "host  all all      ::/0           reject" >"$dir/data/pg_hba.conf"
  if [ "$(id -u)" = 0 ]; then chown postgres: "$dir/data/pg_hba.conf"; fi
}

make_tls() {
  # A throwaway certificate authority and a server certificate for 127.0.0.1, so that the
  # server offers TLS (libpq's default sslmode=prefer uses it; DIR/root.crt lets a client
  # ask for sslmode=verify-full). The key belongs to the cluster's owner, mode 600.
  local tls="$dir/tls"
  mkdir -p "$tls"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=ai4hse throwaway CA" \
    -keyout "$tls/ca.key" -out "$dir/root.crt" >/dev/null 2>&1
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" \
    -keyout "$tls/server.key" -out "$tls/server.csr" >/dev/null 2>&1
  printf 'subjectAltName=IP:127.0.0.1\n' >"$tls/san.ext"
  openssl x509 -req -in "$tls/server.csr" -CA "$dir/root.crt" -CAkey "$tls/ca.key" \
    -CAcreateserial -CAserial "$tls/root.srl" -days 2 -extfile "$tls/san.ext" -out "$tls/server.crt" >/dev/null 2>&1
  chmod 600 "$tls/server.key"
  if [ "$(id -u)" = 0 ]; then chown -R postgres: "$tls"; fi
  chmod 644 "$dir/root.crt"
}

psql_super() {
  as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres -d "${1:-postgres}"
}

start() {
  bindir=$(find_bindir)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [ -e "$dir/data" ]; then echo "error: $dir/data exists; stop that server first" >&2; exit 1; fi
  touch "$dir/$marker"
  chmod 700 "$dir"
  ensure_owner
  if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres -E UTF8 --no-locale \
    --auth-local=peer --auth-host=scram-sha-256 >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    exit 1
  fi
  write_hba
  local tls_options=""
  if command -v openssl >/dev/null 2>&1; then
    make_tls
    tls_options="-c ssl=on -c ssl_cert_file=$dir/tls/server.crt -c ssl_key_file=$dir/tls/server.key"
  fi
  start_cluster "-c password_encryption=scram-sha-256 $tls_options"
  echo "$port" >"$dir/port"
  local role password sql="" pgpass="$dir/pgpass"
  : >"$pgpass"
  chmod 600 "$pgpass"
  for role in $roles; do
    password=$(new_password)
    if [ "$role" = coord ]; then
      sql+="CREATE ROLE coord LOGIN CREATEDB CREATEROLE PASSWORD '$password';"
    else
      sql+="CREATE ROLE $role LOGIN PASSWORD '$password';"
    fi
    echo "127.0.0.1:$port:*:$role:$password" >>"$pgpass"
    echo "$role postgresql://$role:$password@127.0.0.1:$port/$db" >>"$dir/urls"
  done
  chmod 600 "$dir/urls"
  echo "$sql CREATE DATABASE $db OWNER coord;" | psql_super
  if [ -n "$publish" ]; then
    desk demo --out "$dir/demo.sqlite" >/dev/null
    desk review publish "$dir/demo.sqlite" --server "$(awk '$1 == "coord" {print $2}' "$dir/urls")" \
      --reviewers ann,bo --per-question 2 --adjudicators cy >/dev/null
  fi
  cat "$dir/urls"
}

stop() {
  [ -d "$dir" ] || return 0
  if [ ! -e "$dir/$marker" ]; then
    echo "error: $dir was not made by $0; not touching it" >&2
    exit 1
  fi
  if [ -f "$dir/data/postmaster.pid" ]; then
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
