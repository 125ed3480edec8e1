#!/usr/bin/env bash
# Installs the CRD and (re)starts the packaged operator against the demo cluster, in the background.
#   hack/run-operator.sh DIR    pid in DIR/operator.pid, log in DIR/operator.log
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
DIR=${1:?usage: hack/run-operator.sh DIR}
HTTP_PORT=${POOLBUDGET_HTTP_PORT:-8080}
source "$BUILD_AREA/cluster/env"
kubectl apply --server-side -f "$ROOT/crds/" >/dev/null
kubectl wait --for=condition=Established crd/poolpolicies.poolbudget.io --timeout=30s >/dev/null
if [ -f "$DIR/operator.pid" ] && kill -0 "$(cat "$DIR/operator.pid")" 2>/dev/null; then
  echo "restarting the operator started by an earlier run (pid $(cat "$DIR/operator.pid"))"
  kill "$(cat "$DIR/operator.pid")"; timeout 20 tail --pid="$(cat "$DIR/operator.pid")" -f /dev/null || true
fi
if owner=$(ss -Hltnp "sport = :$HTTP_PORT" 2>/dev/null) && [ -n "$owner" ]; then
  die "port $HTTP_PORT is already in use ($(echo "$owner" | grep -o 'users:.*' || echo 'by another process')). Fix: stop that process, or POOLBUDGET_HTTP_PORT=<free port> $0"
fi
POOLBUDGET_HTTP_PORT=$HTTP_PORT nohup java -jar "$ROOT/target/quarkus-app/quarkus-run.jar" operator >"$DIR/operator.log" 2>&1 &
echo $! > "$DIR/operator.pid"
for _ in $(seq 1 120); do
  curl -fs "http://localhost:$HTTP_PORT/q/health/ready" >/dev/null 2>&1 && break
  kill -0 "$(cat "$DIR/operator.pid")" 2>/dev/null || { tail -n 30 "$DIR/operator.log" >&2; die "the operator exited (log above, full log $DIR/operator.log)"; }
  sleep 0.5
done
curl -fs "http://localhost:$HTTP_PORT/q/health/ready" >/dev/null || die "the operator was not ready within 60s (log: $DIR/operator.log)"
echo "operator running (pid $(cat "$DIR/operator.pid")), log $DIR/operator.log"
