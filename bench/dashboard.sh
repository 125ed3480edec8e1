#!/usr/bin/env bash
# The dashboard at N PoolPolicies (default 1,000) on the local KWOK cluster, with the packaged
# operator managing them: prints the JSON endpoint's time per page (plain, last page, 100 per page,
# a search, problems only, one namespace), Chromium's time from navigation to the first page drawn,
# and the operator's memory. Each policy sizes one Deployment of 0 replicas, in 10 namespaces.
#
#   bench/dashboard.sh [N]      (after ./mvnw package -DskipTests; installs chromium if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}
hack/tools/chromium.sh >/dev/null
hack/cluster/up.sh >/dev/null
source build/cluster/env
kubectl apply -f crds/ --server-side >/dev/null
for ns in $(seq 0 9); do kubectl delete ns "bench-dash-$ns" --ignore-not-found --wait=true >/dev/null; done # an earlier run's
gen=$(mktemp)
for ns in $(seq 0 9); do
  kubectl create ns "bench-dash-$ns" --dry-run=client -o yaml
  echo ---
done > "$gen"
for i in $(seq -f "%04g" 0 $((N - 1))); do
  ns=bench-dash-$(( 10#$i % 10 ))
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: svc-%s, namespace: %s}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: svc-%s}}\n  template:\n    metadata: {labels: {app: svc-%s}}\n    spec: {containers: [{name: app, image: pause}]}\n---\n' "$i" "$ns" "$i" "$i"
  printf 'apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: db-%s, namespace: %s}\nspec:\n  database: {name: db-%s, cores: %d}\n  injection: {preset: hikari-env}\n  targets: [{name: svc-%s, minPoolSize: 2}]\n---\n' "$i" "$ns" "$i" $(( 10#$i % 7 == 0 ? 0 + 1 : 4 )) "$i"
done >> "$gen"
port=18090
POOLBUDGET_HTTP_PORT=$port POOLBUDGET_STABILIZATION_WINDOW=0s \
  java -Xmx512m -jar target/quarkus-app/quarkus-run.jar operator > build/bench-dashboard-operator.log 2>&1 &
op=$!
trap 'kill $op 2>/dev/null; for ns in $(seq 0 9); do kubectl delete ns bench-dash-$ns --wait=false >/dev/null 2>&1; done; rm -f "$gen"' EXIT
until curl -sf "localhost:$port/q/health/ready" >/dev/null; do sleep 0.5; done
t0=$(date +%s)
kubectl apply -f "$gen" --server-side >/dev/null
echo "applied $N Deployments and $N PoolPolicies in $(( $(date +%s) - t0 )) s"
until [ "$(kubectl get poolpolicies -A -o jsonpath='{range .items[*]}{.status.observedGeneration}{"\n"}{end}' | grep -c .)" = "$N" ]; do
  [ $(( $(date +%s) - t0 )) -gt 600 ] && { echo "not every policy has a status after 600 s"; exit 1; }
  sleep 2
done
echo "every policy has a status after $(( $(date +%s) - t0 )) s"
java -cp "$(bench/classpath.sh)" io.poolbudget.bench.DashboardBench "$port" "$N"
echo "operator RSS: $(ps -o rss= -p $op | awk '{printf "%d MiB", $1/1024}')"
