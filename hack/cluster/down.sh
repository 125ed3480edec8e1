#!/usr/bin/env bash
# Stops and removes the local cluster (and, for the demo cluster, the operator the demo started).
# Idempotent: nothing running is fine.
#
#   hack/cluster/down.sh               the demo cluster
#   hack/cluster/down.sh --for-tests   the test cluster of the *E2E tier
#   hack/cluster/down.sh --for-its     the test cluster of the *IT tier
set -euo pipefail
source "$(dirname "$0")/lib.sh"
case "${1:-}" in ""|--for-tests|--for-its) ;; *) die "unknown argument '$1'. Usage: hack/cluster/down.sh [--for-tests|--for-its]" ;; esac
cluster_vars "${1:-}"

if [ "$CLUSTER_NAME" = poolbudget ] && [ -f "$BUILD_AREA/demo/operator.pid" ]; then
  pid=$(cat "$BUILD_AREA/demo/operator.pid")
  if kill -0 "$pid" 2>/dev/null; then
    log "stopping the demo operator (pid $pid)"
    kill "$pid"; timeout 20 tail --pid="$pid" -f /dev/null || kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$BUILD_AREA/demo/operator.pid"
fi

# PostgreSQL (hack/postgres.sh) serves this cluster's real pods; stop it with them (its replica first).
# (The --for-its cluster has no real pods and no PostgreSQL.)
if [ "$CLUSTER_NAME" = poolbudget ] && [ -d "$BUILD_AREA/postgres-replica" ]; then
  "$ROOT/hack/postgres.sh" down --replica
fi
if [ "$CLUSTER_NAME" != poolbudget-its ] && [ -d "$BUILD_AREA/postgres$([ "$CLUSTER_NAME" = poolbudget-test ] && echo -test)" ]; then
  "$ROOT/hack/postgres.sh" down ${1:-}
fi

# The real node first, if it joined this cluster: it must not outlive its control plane.
if [ -f "$BUILD_AREA/node/cluster" ] && [ "$(cat "$BUILD_AREA/node/cluster")" = "$CLUSTER_NAME" ]; then
  "$CLUSTER_SRC/node.sh" down ${1:-}
fi

if [ ! -d "$CLUSTER_STATE" ]; then
  log "cluster '$CLUSTER_NAME' is not running; nothing to do"
  rm -f "$KUBECONFIG_OUT"
  exit 0
fi

# Prefer the kwokctl that created it; any cached kwokctl can delete a cluster.
kwokctl="$BIN/kwokctl"
[ -x "$kwokctl" ] || kwokctl=$(ls "$CACHE_ROOT"/*/bin/kwokctl 2>/dev/null | head -n 1 || true)
if [ -n "$kwokctl" ] && timeout 60 "$kwokctl" delete cluster --name "$CLUSTER_NAME" >/dev/null 2>&1; then
  log "cluster '$CLUSTER_NAME' deleted"
else
  # Without a working kwokctl, stop the components by the pid files kwokctl keeps, then forget the state.
  for f in "$CLUSTER_STATE"/pids/*.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true
  done
  log "cluster '$CLUSTER_NAME' stopped by its pid files"
fi
rm -rf "$CLUSTER_STATE" "$KUBECONFIG_OUT"
