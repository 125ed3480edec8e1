#!/usr/bin/env bash
# The demo: builds the operator, starts the local cluster, runs the operator against it, applies
# examples/ and shows the result. Leaves everything running; hack/cluster/down.sh stops it all.
#
# Environment: POOLBUDGET_API_PORT (16443), POOLBUDGET_HTTP_PORT (8080), DEMO_NAMESPACE (poolbudget-demo).
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
cd "$ROOT"
NS=${DEMO_NAMESPACE:-poolbudget-demo}
HTTP_PORT=${POOLBUDGET_HTTP_PORT:-8080}
DEMO="$BUILD_AREA/demo"
mkdir -p "$DEMO"
step() { echo; echo "==> $*"; }

step "1/5 local cluster"
hack/cluster/up.sh
source "$BUILD_AREA/cluster/env"

step "2/5 building the operator (./mvnw package; the first run downloads dependencies)"
./mvnw -B -q package -DskipTests -DskipITs

step "3/5 installing the CRD and starting the operator"
kubectl apply --server-side -f crds/ >/dev/null
kubectl wait --for=condition=Established crd/poolpolicies.poolbudget.io --timeout=30s >/dev/null
if [ -f "$DEMO/operator.pid" ] && kill -0 "$(cat "$DEMO/operator.pid")" 2>/dev/null; then
  echo "restarting the operator started by an earlier demo run (pid $(cat "$DEMO/operator.pid"))"
  kill "$(cat "$DEMO/operator.pid")"; timeout 20 tail --pid="$(cat "$DEMO/operator.pid")" -f /dev/null || true
fi
if owner=$(ss -Hltnp "sport = :$HTTP_PORT" 2>/dev/null) && [ -n "$owner" ]; then
  die "port $HTTP_PORT is already in use ($(echo "$owner" | grep -o 'users:.*' || echo 'by another process')). Fix: stop that process, or POOLBUDGET_HTTP_PORT=<free port> $0"
fi
POOLBUDGET_HTTP_PORT=$HTTP_PORT nohup java -jar target/quarkus-app/quarkus-run.jar >"$DEMO/operator.log" 2>&1 &
echo $! > "$DEMO/operator.pid"
for _ in $(seq 1 120); do
  curl -fs "http://localhost:$HTTP_PORT/q/health/ready" >/dev/null 2>&1 && break
  kill -0 "$(cat "$DEMO/operator.pid")" 2>/dev/null || { tail -n 30 "$DEMO/operator.log" >&2; die "the operator exited (log above, full log $DEMO/operator.log)"; }
  sleep 0.5
done
curl -fs "http://localhost:$HTTP_PORT/q/health/ready" >/dev/null || die "the operator was not ready within 60s (log: $DEMO/operator.log)"
echo "operator running (pid $(cat "$DEMO/operator.pid")), log $DEMO/operator.log"

step "4/5 applying examples/ to namespace $NS"
kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl apply -n "$NS" -f examples/workloads.yaml -f examples/poolpolicy.yaml
kubectl wait -n "$NS" --for=condition=Ready poolpolicy --all --timeout=60s >/dev/null
# The operator writes the pool sizes, which rolls the Deployments; wait until that has settled.
kubectl wait -n "$NS" --for=condition=RolloutInProgress=false poolpolicy --all --timeout=120s >/dev/null
kubectl rollout status -n "$NS" deployment --timeout=90s >/dev/null

step "5/5 result"
kubectl get -n "$NS" poolpolicies
echo
kubectl get -n "$NS" deployments -o custom-columns='DEPLOYMENT:.metadata.name,READY:.status.readyReplicas,MAXIMUMPOOLSIZE:.spec.template.spec.containers[0].env[?(@.name=="SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")].value,MINIMUMIDLE:.spec.template.spec.containers[0].env[?(@.name=="SPRING_DATASOURCE_HIKARI_MINIMUMIDLE")].value'
echo
kubectl get -n "$NS" poolpolicy -o jsonpath='{range .items[*].status.targets[*]}{.kind}/{.name}: {.explanation}{"\n"}{end}' | fold -s -w 110

cat <<EOF

The cluster and the operator keep running.
  use the cluster:  source build/cluster/env     (sets KUBECONFIG and puts kubectl on PATH)
                    kubectl get poolpolicies -n $NS -o yaml
  operator:         log $DEMO/operator.log
                    health http://localhost:$HTTP_PORT/q/health, metrics http://localhost:$HTTP_PORT/q/metrics
  stop everything:  hack/cluster/down.sh
EOF
