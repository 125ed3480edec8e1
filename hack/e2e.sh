#!/usr/bin/env bash
# What the end-to-end tier (*E2E) needs beside the test cluster, started and stopped by ./mvnw verify:
# the image tarballs (the example apps, JVM, Go and Node.js, the public JVM apps, PgBouncer, and the operator), the real node joined to the test cluster, and the test PostgreSQL and MariaDB.
#
#   hack/e2e.sh up     after hack/cluster/up.sh --for-tests
#   hack/e2e.sh down   before hack/cluster/down.sh --for-tests (which would stop the node anyway)
#   hack/e2e.sh check-host   after both: fails if the teardown touched the host sentinel (host-sentinel.sh)
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
case "${1:-}" in
  up)
    "$ROOT/hack/cluster/host-sentinel.sh" plant
    "$ROOT/hack/images/app-image.sh"
    "$ROOT/hack/images/go-app-image.sh"
    "$ROOT/hack/images/node-app-image.sh"
    "$ROOT/hack/images/pgbouncer-image.sh"
    "$ROOT/hack/images/public-apps-image.sh"
    "$ROOT/hack/images/operator-image.sh"
    "$ROOT/hack/cluster/node.sh" up --for-tests
    "$ROOT/hack/postgres.sh" up --for-tests
    "$ROOT/hack/mariadb.sh" up --for-tests
    ;;
  down)
    "$ROOT/hack/mariadb.sh" down --for-tests
    "$ROOT/hack/postgres.sh" down --for-tests
    "$ROOT/hack/cluster/node.sh" down --for-tests
    ;;
  check-host)
    "$ROOT/hack/cluster/host-sentinel.sh" check
    ;;
  *) die "usage: hack/e2e.sh up|down|check-host" ;;
esac
