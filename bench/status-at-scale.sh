#!/usr/bin/env bash
# A PoolPolicy whose selector matches N Deployments (default 5,000), on the local KWOK cluster, with
# the packaged operator: how long until every target is sized, and how large the status is.
# Deployments have 0 replicas, so the measurement is the operator's, not the fake kubelet's.
#
#   bench/status-at-scale.sh [N]      (after ./mvnw package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5000}
hack/cluster/up.sh >/dev/null
source build/cluster/env
NS=bench-scale
kubectl delete ns "$NS" --ignore-not-found --wait=true >/dev/null
kubectl create ns "$NS" >/dev/null
gen=$(mktemp)
for i in $(seq -w 1 "$N"); do
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: svc-%s, labels: {db: orders}}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: svc-%s}}\n  template:\n    metadata: {labels: {app: svc-%s}}\n    spec: {containers: [{name: app, image: pause}]}\n---\n' "$i" "$i" "$i"
done > "$gen"
t0=$(date +%s)
kubectl apply -n "$NS" -f "$gen" --server-side >/dev/null
echo "created $N Deployments in $(( $(date +%s) - t0 )) s"
# Every raise waits while any target is still rolling out, so first let the Deployment controller
# observe them all (kube-controller-manager's own API rate limit makes this take a while).
until [ "$(kubectl get deploy -n "$NS" -o jsonpath='{range .items[*]}{.metadata.generation}={.status.observedGeneration}{"\n"}{end}' \
          | awk -F= '$1==$2' | wc -l)" = "$N" ]; do sleep 2; done
echo "the Deployment controller observed them all after $(( $(date +%s) - t0 )) s"
kubectl apply -f crds/ --server-side >/dev/null
port=18089
POOLBUDGET_HTTP_PORT=$port POOLBUDGET_STABILIZATION_WINDOW=0s POOLBUDGET_WATCH_NAMESPACES=$NS \
  java -Xmx512m -jar target/quarkus-app/quarkus-run.jar operator > build/bench-scale-operator.log 2>&1 &
op=$!
trap '[ -n "${KEEP:-}" ] || { kill $op 2>/dev/null; kubectl delete ns $NS --wait=false >/dev/null 2>&1; }; rm -f "$gen"' EXIT
until curl -sf "localhost:$port/q/health/ready" >/dev/null; do sleep 0.5; done
t0=$(date +%s)
cat <<YAML | kubectl apply -n "$NS" -f - >/dev/null
apiVersion: poolbudget.io/v1alpha1
kind: PoolPolicy
metadata: {name: orders-db}
spec:
  database: {cores: 16}
  injection: {preset: hikari-env}
  targets: [{selector: {matchLabels: {db: orders}}}]
YAML
state() { kubectl get poolpolicy orders-db -n "$NS" -o jsonpath="{.status.targetStates.$1}" 2>/dev/null || true; }
written=""
while :; do
  applied=$(state Applied); rolling=$(state Rolling)
  if [ -z "$written" ] && [ $(( ${applied:-0} + ${rolling:-0} )) = "$N" ]; then
    written=$(( $(date +%s) - t0 )); echo "every size written after $written s (the operator's part)"
  fi
  [ "${applied:-0}" = "$N" ] && { echo "every target Applied after $(( $(date +%s) - t0 )) s" \
      "(includes the Deployment controller rolling each one out)"; break; }
  [ $(( $(date +%s) - t0 )) -gt "${TIMEOUT:-900}" ] && { echo "not settled after ${TIMEOUT:-900} s:" \
      "$(kubectl get poolpolicy orders-db -n "$NS" -o jsonpath='{.status.targetStates}')"; break; }
  sleep 2
done
echo "status: $(kubectl get poolpolicy orders-db -n "$NS" -o jsonpath='{.status}' | wc -c) bytes," \
     "$(kubectl get poolpolicy orders-db -n "$NS" -o jsonpath='{range .status.targets[*]}{.name}{"\n"}{end}' | wc -l) targets listed," \
     "$(kubectl get poolpolicy orders-db -n "$NS" -o jsonpath='{.status.targetsOmitted}') omitted"
echo "operator RSS: $(ps -o rss= -p $op | awk '{printf "%d MiB", $1/1024}')"
