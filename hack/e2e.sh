#!/usr/bin/env bash
# What the end-to-end tier (*E2E) needs beside the test cluster, started and stopped by ./mvnw verify:
# the image tarballs (the example app and the operator), the real node joined to the test cluster, and the test PostgreSQL.
#
#   hack/e2e.sh up     after hack/cluster/up.sh --for-tests
#   hack/e2e.sh down   before hack/cluster/down.sh --for-tests (which would stop the node anyway)
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
case "${1:-}" in
  up)
    "$ROOT/hack/images/app-image.sh"
    "$ROOT/hack/images/operator-image.sh"
    "$ROOT/hack/cluster/node.sh" up --for-tests
    "$ROOT/hack/postgres.sh" up --for-tests
    ;;
  down)
    "$ROOT/hack/postgres.sh" down --for-tests
    "$ROOT/hack/cluster/node.sh" down --for-tests
    ;;
  *) die "usage: hack/e2e.sh up|down" ;;
esac
