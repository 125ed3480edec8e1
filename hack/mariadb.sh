#!/usr/bin/env bash
# A real MariaDB (Debian's package) for the real node's pods, beside the test PostgreSQL: its own data directory
# under build/, a known max_connections, performance_schema on (connections per program_name), listening only on the
# pod bridge's gateway, so no traffic leaves this machine. Apps connect as user `app` (password `app`) to database
# `app` (it may also make calibrate's database, poolbudget_calibrate); the read-only account for spec.database.observe is poolbudget_monitor / monitor (PROCESS, and SELECT on
# performance_schema).
#
#   hack/mariadb.sh up    [--for-tests]   start it (after up.sh --real-node: the bridge must exist)
#   hack/mariadb.sh down  [--for-tests]   stop it and delete its data
#   hack/mariadb.sh sql   [--for-tests] [mariadb args]   the client as root, in database app
#
# --for-tests: the one ./mvnw verify uses (build/mariadb-test, port 3307); without it the demo's (build/mariadb, 3306).
# Environment: POOLBUDGET_MARIADB_MAX_CONNECTIONS (default 100).
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
cmd=${1:-}; shift || true
LISTEN=$BRIDGE_IP
MAX=${POOLBUDGET_MARIADB_MAX_CONNECTIONS:-100}
if [ "${1:-}" = --for-tests ]; then
  shift
  DIR="$BUILD_AREA/mariadb-test"
  PORT=3307
else
  DIR="$BUILD_AREA/mariadb"
  PORT=3306
fi
SOCK="$DIR/mariadb.sock"

running() { [ -S "$SOCK" ] && mariadb-admin --socket="$SOCK" -uroot ping >/dev/null 2>&1; }

case "$cmd" in
  up)
    command -v mariadbd >/dev/null || apt_install mariadb-server
    if running; then log "MariaDB is already running on $LISTEN:$PORT"; exit 0; fi
    ip -4 addr show 2>/dev/null | grep -q "inet $LISTEN/" ||
      die "no interface has $BRIDGE_IP (the pod bridge's gateway). Fix: start the real node first: hack/cluster/up.sh --real-node"
    rm -rf "$DIR"; mkdir -p "$DIR"
    mariadb-install-db --no-defaults --datadir="$DIR/data" --user="$(id -un)" --auth-root-authentication-method=socket \
      --skip-test-db >"$DIR/install.log" 2>&1 || { cat "$DIR/install.log" >&2; die "mariadb-install-db failed"; }
    # --no-defaults: nothing of the host's /etc/mysql applies; the server is ours alone
    nohup mariadbd --no-defaults --user="$(id -un)" --datadir="$DIR/data" --socket="$SOCK" --pid-file="$DIR/mariadbd.pid" \
      --port="$PORT" --bind-address="$LISTEN" --max-connections="$MAX" --performance-schema=ON --skip-name-resolve \
      --innodb-buffer-pool-size=64M --innodb-flush-log-at-trx-commit=0 --log-error="$DIR/mariadb.log" \
      >/dev/null 2>&1 &
    for _ in $(seq 1 60); do running && break; sleep 0.5; done
    running || { tail -n 20 "$DIR/mariadb.log" >&2; die "MariaDB did not start (log: $DIR/mariadb.log)"; }
    mariadb --socket="$SOCK" -uroot -e "
      CREATE DATABASE app;
      CREATE USER 'app'@'%' IDENTIFIED BY 'app';
      GRANT ALL ON app.* TO 'app'@'%';
      GRANT ALL ON poolbudget_calibrate.* TO 'app'@'%';
      CREATE USER 'poolbudget_monitor'@'%' IDENTIFIED BY 'monitor';
      GRANT PROCESS ON *.* TO 'poolbudget_monitor'@'%';
      GRANT SELECT ON performance_schema.* TO 'poolbudget_monitor'@'%';"
    log "MariaDB $(mariadbd --version | awk '{print $3}') is up on $LISTEN:$PORT (max_connections $MAX; user/password/database app)"
    log "  read-only monitoring account for spec.database.observe: poolbudget_monitor / monitor (PROCESS)"
    ;;
  down)
    if [ -f "$DIR/mariadbd.pid" ]; then
      pid=$(cat "$DIR/mariadbd.pid")
      # only the server this script started: its pid file, in our directory
      if kill -0 "$pid" 2>/dev/null && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "--datadir=$DIR/data"; then
        kill "$pid"
        for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
        log "MariaDB stopped"
      fi
    fi
    rm -rf "$DIR"
    ;;
  sql)
    exec mariadb --socket="$SOCK" -uroot app "$@"
    ;;
  *) die "usage: hack/mariadb.sh up|down|sql [--for-tests] [mariadb args]" ;;
esac
