#!/usr/bin/env bash
# N tenant namespaces (default 200), each with one PoolPolicy drawing on one DatabaseBudget, created at once on
# the local KWOK cluster with the packaged operator: how long after the last policy's creation until every
# policy plans with its final share and its target is Applied, and how many reconcile passes failed. Deployments
# have 0 replicas, so the measurement is the operator's, not the fake kubelet's.
#
#   bench/shared-budget-tenants.sh [N]      (after ./mvnw package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-200}
BUDGET=$((N * 2))   # cores N -> budget 2N: 2 connections a tenant
hack/cluster/up.sh >/dev/null
source build/cluster/env
LABEL=poolbudget.io/bench-tenants
cleanup_ns() { kubectl delete ns -l "$LABEL" --wait=false >/dev/null 2>&1 || true; }
cleanup_ns
while [ "$(kubectl get ns -l "$LABEL" -o name | wc -l)" != 0 ]; do sleep 1; done
kubectl apply -f crds/ --server-side >/dev/null
kubectl delete databasebudget bench-tenants --ignore-not-found >/dev/null
gen=$(mktemp -d)
for i in $(seq -w 1 "$N"); do
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: tenant-%s, labels: {%s: "yes"}}\n---\n' "$i" "$LABEL"
done > "$gen/namespaces.yaml"
for i in $(seq -w 1 "$N"); do
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api, namespace: tenant-%s}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: app, image: pause}]}\n---\n' "$i"
done > "$gen/deployments.yaml"
for i in $(seq -w 1 "$N"); do
  printf 'apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: db, namespace: tenant-%s}\nspec: {databaseRef: {name: bench-tenants}, injection: {preset: hikari-env}, targets: [{name: api}]}\n---\n' "$i"
done > "$gen/policies.yaml"
kubectl apply -f "$gen/namespaces.yaml" --server-side >/dev/null
kubectl apply -f "$gen/deployments.yaml" --server-side >/dev/null
cat <<YAML | kubectl apply --server-side -f - >/dev/null
apiVersion: poolbudget.io/v1alpha1
kind: DatabaseBudget
metadata: {name: bench-tenants}
spec:
  database: {name: tenants-pg, cores: $N}
  namespaceSelector: {matchLabels: {$LABEL: "yes"}}
YAML
port=18091
POOLBUDGET_HTTP_PORT=$port POOLBUDGET_STABILIZATION_WINDOW=0s \
  java -XX:MaxRAMPercentage=70 -XX:+UseSerialGC -Xmx384m -jar target/quarkus-app/quarkus-run.jar operator \
  > build/bench-tenants-operator.log 2>&1 &
op=$!
trap '[ -n "${KEEP:-}" ] || { kill $op 2>/dev/null; cleanup_ns; kubectl delete databasebudget bench-tenants --wait=false >/dev/null 2>&1; }; rm -rf "$gen"' EXIT
until curl -sf "localhost:$port/q/health/ready" >/dev/null; do sleep 0.5; done
ms() { echo $(( $(date +%s%N) / 1000000 )); }
secs() { awk -v ms="$1" 'BEGIN {printf "%.1f", ms / 1000}'; }
t0=$(ms)
kubectl apply -f "$gen/policies.yaml" --server-side >/dev/null
t1=$(ms)
echo "created $N policies in $(secs $((t1 - t0))) s"
# Settled: every policy plans with a share, the shares add up to the budget, every target is Applied, and the
# DatabaseBudget's own status counts every policy.
settled() {
  kubectl get poolpolicies -A -o jsonpath='{range .items[*]}{.status.budget.term} {.status.budget.connections} {.status.targetStates.Applied}{"\n"}{end}' \
    | awk -v n="$N" -v b="$BUDGET" '$1=="Share" && $3==1 {k++; s+=$2} END {exit !(k==n && s==b)}' &&
  [ "$(kubectl get databasebudget bench-tenants -o jsonpath='{.status.policyCount}')" = "$N" ]
}
until settled; do
  if [ $(( $(ms) - t1 )) -gt $(( ${TIMEOUT:-300} * 1000 )) ]; then echo "not settled after ${TIMEOUT:-300} s"; break; fi
  sleep 0.5
done
t2=$(ms)
echo "settled $(secs $((t2 - t1))) s after the last policy was created (every share planned, adding up to $BUDGET;" \
  "every target Applied; the DatabaseBudget counts $N)"
metrics=$(curl -sf "localhost:$port/q/metrics")
printf 'reconcile passes: %s, failed: %s\n' "$(echo "$metrics" | awk '/^poolbudget_reconciles_total/ {print int($2)}')" \
  "$(echo "$metrics" | awk '/^poolbudget_reconcile_errors_total/ {print int($2)}')"
printf 'errors and timeouts in the operator log: %s\n' "$(grep -c -E 'ERROR|timed out|Timeout' build/bench-tenants-operator.log || true)"
echo "operator RSS: $(ps -o rss= -p $op | awk '{printf "%d MiB", $1/1024}')"
