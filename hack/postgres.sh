#!/usr/bin/env bash
# A real PostgreSQL for the real node's pods: its own data directory under build/postgres, a known
# max_connections, listening only on the pod bridge's gateway (10.88.0.1), so no traffic leaves
# this machine. The apps connect as user `app` (password `app`) to database `app`.
#
#   hack/postgres.sh up   [--for-tests|--for-bench|--replica]   start it (after up.sh --real-node: the bridge must exist)
#   hack/postgres.sh down [--for-tests|--for-bench|--replica] stop it and delete its data
#   hack/postgres.sh psql [--for-tests|--for-bench|--replica] [psql args]   psql as the superuser, in database app
#
# --for-tests: the one ./mvnw verify uses (build/postgres-test, port 5434), beside the demo's.
# --for-bench: bench/pool-sizes.sh's (build/postgres-bench, 127.0.0.1:5435, max_connections 300);
#              loopback only, so it needs no real node and never shares a server with the tests.
# --replica:   a read replica of the demo's server: a hot standby streaming from it (build/postgres-replica,
#              10.88.0.1:5436), for examples/primary-replica/. Start the demo's server first.
# Environment: POOLBUDGET_PG_PORT (default 5433), POOLBUDGET_PG_MAX_CONNECTIONS (default 100).
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
cmd=${1:-}; shift || true
LISTEN=$BRIDGE_IP
CLIENTS=$POD_CIDR
PG_MAX=${POOLBUDGET_PG_MAX_CONNECTIONS:-100}
if [ "${1:-}" = --for-tests ]; then
  shift
  PG_DIR="$BUILD_AREA/postgres-test"
  PG_PORT=5434
  # two more databases of user app on the same server: ObservedConnectionsE2E's observe scope (issue 54)
  EXTRA_DATABASES="orders billing"
elif [ "${1:-}" = --for-bench ]; then
  shift
  PG_DIR="$BUILD_AREA/postgres-bench"
  PG_PORT=5435
  LISTEN=127.0.0.1
  CLIENTS=127.0.0.1/32
  PG_MAX=300
elif [ "${1:-}" = --replica ]; then
  shift
  PG_DIR="$BUILD_AREA/postgres-replica"
  PG_PORT=5436
  PRIMARY_DIR="$BUILD_AREA/postgres"
  PRIMARY_PORT=${POOLBUDGET_PG_PORT:-5433}
else
  PG_DIR="$BUILD_AREA/postgres"
  PG_PORT=${POOLBUDGET_PG_PORT:-5433}
fi
PG_VERSION=15

pg_bin() {
  local d="/usr/lib/postgresql/$PG_VERSION/bin"
  if [ ! -x "$d/postgres" ]; then
    apt_install "postgresql-$PG_VERSION"
  fi
  echo "$d"
}

# PostgreSQL refuses to run as root: as root, run it as the postgres user the package creates.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

running() { [ -f "$PG_DIR/data/postmaster.pid" ] && as_pg "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" status >/dev/null 2>&1; }

case "$cmd" in
  up)
    BIN_DIR=$(pg_bin)
    if running; then log "PostgreSQL is already running on $LISTEN:$PG_PORT"; exit 0; fi
    [ "$LISTEN" = 127.0.0.1 ] || ip -4 addr show 2>/dev/null | grep -q "inet $LISTEN/" ||
      die "no interface has $BRIDGE_IP (the pod bridge's gateway). Fix: start the real node first: hack/cluster/up.sh --real-node"
    rm -rf "$PG_DIR"; mkdir -p "$PG_DIR"
    [ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR"
    if [ -n "${PRIMARY_DIR:-}" ]; then
      [ -S "$PRIMARY_DIR/.s.PGSQL.$PRIMARY_PORT" ] ||
        die "the demo's PostgreSQL is not running. Fix: hack/postgres.sh up (then up --replica)"
      # a copy of the primary that keeps streaming from it (-R writes standby.signal and primary_conninfo);
      # roles and database come with it, and it answers read-only queries (hot_standby is on by default)
      as_pg "$BIN_DIR/pg_basebackup" -h "$PRIMARY_DIR" -p "$PRIMARY_PORT" -U postgres -D "$PG_DIR/data" -R -X stream \
        >"$PG_DIR/basebackup.log" 2>&1 || { cat "$PG_DIR/basebackup.log" >&2; die "pg_basebackup failed"; }
      printf "port = %s\nunix_socket_directories = '%s'\n" "$PG_PORT" "$PG_DIR" >> "$PG_DIR/data/postgresql.conf"
      as_pg "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 30 start >/dev/null ||
        { tail -n 20 "$PG_DIR/postgres.log" >&2; die "the replica did not start (log: $PG_DIR/postgres.log)"; }
      log "a read replica of $LISTEN:$PRIMARY_PORT is up on $LISTEN:$PG_PORT (hot standby, streaming; user app)"
      exit 0
    fi
    as_pg "$BIN_DIR/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
      >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; die "initdb failed"; }
    cat >> "$PG_DIR/data/postgresql.conf" <<CONF
listen_addresses = '$LISTEN'
port = $PG_PORT
max_connections = $PG_MAX
unix_socket_directories = '$PG_DIR'
shared_buffers = 64MB
fsync = off
synchronous_commit = off
# A pod whose network vanished before its sockets closed leaves backends behind; probe idle
# clients so the database drops them within seconds instead of the kernel's two hours.
tcp_keepalives_idle = 5
tcp_keepalives_interval = 1
tcp_keepalives_count = 3
CONF
    echo "host all all $CLIENTS scram-sha-256" >> "$PG_DIR/data/pg_hba.conf"
    as_pg "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 30 start >/dev/null ||
      { tail -n 20 "$PG_DIR/postgres.log" >&2; die "PostgreSQL did not start (log: $PG_DIR/postgres.log)"; }
    as_pg psql -h "$PG_DIR" -p "$PG_PORT" -U postgres -qAt -c "CREATE ROLE app LOGIN PASSWORD 'app'" \
      -c "CREATE DATABASE app OWNER app" \
      -c "CREATE ROLE poolbudget_monitor LOGIN PASSWORD 'monitor' IN ROLE pg_monitor" >/dev/null
    for db in ${EXTRA_DATABASES:-}; do
      as_pg psql -h "$PG_DIR" -p "$PG_PORT" -U postgres -qAt -c "CREATE DATABASE $db OWNER app" >/dev/null
    done
    log "PostgreSQL $PG_VERSION is up on $LISTEN:$PG_PORT (max_connections $PG_MAX; user/password/database app)"
    log "  read-only monitoring role for spec.database.observe: poolbudget_monitor / monitor (pg_monitor)"
    log "  connections per application: hack/postgres.sh psql -c 'select application_name, count(*) from pg_stat_activity group by 1'"
    ;;
  down)
    BIN_DIR="/usr/lib/postgresql/$PG_VERSION/bin"
    if [ -x "$BIN_DIR/pg_ctl" ] && running; then
      as_pg "$BIN_DIR/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 30 stop >/dev/null
      log "PostgreSQL stopped"
    fi
    rm -rf "$PG_DIR"
    ;;
  psql)
    exec runuser -u postgres -- psql -h "$PG_DIR" -p "$PG_PORT" -U postgres -d app "$@"
    ;;
  *) die "usage: hack/postgres.sh up|down|psql [--for-tests|--for-bench|--replica] [psql args]" ;;
esac
