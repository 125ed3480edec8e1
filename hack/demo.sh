#!/usr/bin/env bash
# The demo: real pods, real pools, a real database. Starts the local cluster with a real node
# (kubelet + containerd) and PostgreSQL, builds the operator and the example Spring Boot + HikariCP
# app, runs the operator, applies examples/real/ and shows what each pod's HikariCP reports and
# what PostgreSQL counts, against the budget. Leaves everything running; hack/cluster/down.sh stops it.
#
#   hack/demo.sh              the real-pod demo (needs root: it runs containers)
#   hack/demo.sh --kwok-only  fake nodes only (no container runs): examples/*.yaml, no root needed
#
# Environment: POOLBUDGET_API_PORT (16443), POOLBUDGET_HTTP_PORT (8080), DEMO_NAMESPACE (poolbudget-demo).
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
cd "$ROOT"
MODE=real
case "${1:-}" in "") ;; --kwok-only) MODE=kwok ;; *) die "usage: hack/demo.sh [--kwok-only]" ;; esac
NS=${DEMO_NAMESPACE:-poolbudget-demo}
DEMO="$BUILD_AREA/demo"
mkdir -p "$DEMO"
step() { echo; echo "==> $*"; }

if [ $MODE = real ]; then
  step "1/7 local cluster with a real node, and PostgreSQL"
  hack/cluster/up.sh --real-node
  hack/postgres.sh up
else
  step "1/7 local cluster (KWOK nodes only)"
  hack/cluster/up.sh
fi
source "$BUILD_AREA/cluster/env"

step "2/7 building the operator$([ $MODE = real ] && echo ' and the example app image') (the first run downloads dependencies)"
./mvnw -B -q package -DskipTests -DskipITs
if [ $MODE = real ]; then
  hack/images/app-image.sh
  hack/cluster/node.sh up >/dev/null 2>&1   # imports the new image
fi

step "3/7 installing the CRD and starting the operator"
hack/run-operator.sh "$DEMO"

step "4/7 applying examples/$([ $MODE = real ] && echo real/) to namespace $NS"
kubectl create namespace "$NS" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
if [ $MODE = real ]; then
  kubectl apply -n "$NS" -f examples/real/apps.yaml
  echo "each pod starts at HikariCP's default pool of 10; PostgreSQL counts (before the policy):"
  kubectl rollout status -n "$NS" deployment --timeout=120s >/dev/null
  hack/show-pools.sh "$NS" --wait-settled
  hack/postgres.sh psql -qAt -c "select '  ' || application_name || ': ' || count(*) from pg_stat_activity where usename = 'app' group by application_name order by 1"
  kubectl apply -n "$NS" -f examples/real/monitor-secret.yaml -f examples/real/poolpolicy.yaml
else
  kubectl apply -n "$NS" -f examples/workloads.yaml -f examples/poolpolicy.yaml
fi

step "5/7 waiting for the sizes to roll out"
kubectl wait -n "$NS" --for=condition=Ready poolpolicy --all --timeout=60s >/dev/null
kubectl wait -n "$NS" --for=condition=RolloutInProgress=false poolpolicy --all --timeout=180s >/dev/null
kubectl rollout status -n "$NS" deployment --timeout=120s >/dev/null
[ $MODE = real ] && hack/show-pools.sh "$NS" --wait-settled >/dev/null

step "6/7 result"
kubectl get -n "$NS" poolpolicies
echo
if [ $MODE = real ]; then
  hack/show-pools.sh "$NS"
else
  kubectl get -n "$NS" deployments -o custom-columns='DEPLOYMENT:.metadata.name,READY:.status.readyReplicas,MAXIMUMPOOLSIZE:.spec.template.spec.containers[0].env[?(@.name=="SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")].value'
fi
echo
kubectl get -n "$NS" poolpolicy -o jsonpath='{range .items[*].status.targets[*]}{.kind}/{.name}: {.explanation}{"\n"}{end}' | fold -s -w 110

step "7/7 the budget follows the load: what mode Demand would give (spec.allocation mode Recommend writes nothing)"
for policy in $(kubectl get -n "$NS" poolpolicy -o name); do
  kubectl patch -n "$NS" "$policy" --type merge -p '{"spec":{"allocation":{"mode":"Recommend"}}}' >/dev/null
done
for _ in $(seq 60); do
  kubectl get -n "$NS" poolpolicy -o jsonpath='{.items[*].status.targets[*].recommendedPoolSize}' | grep -q . && break
  sleep 1
done
kubectl get -n "$NS" poolpolicy -o jsonpath='{range .items[*].status.targets[*]}{.kind}/{.name}: nominal {.nominalPoolSize}, {.allocation}{"\n"}{end}' | fold -s -w 110

cat <<MSG

Everything keeps running.
  use the cluster:  source build/cluster/env     (sets KUBECONFIG and puts kubectl on PATH)
                    kubectl get poolpolicies -n $NS -o yaml
  pools and the DB: hack/show-pools.sh $NS      (what each HikariCP reports, what PostgreSQL counts)
  try a change:     kubectl scale -n $NS deployment/checkout --replicas=3; then hack/show-pools.sh $NS
  follow the load:  kubectl patch -n $NS poolpolicy app-db --type merge -p \\
                      '{"spec":{"injection":{"resize":"Live"},"allocation":{"mode":"Demand"}}}'
                    (pools then move live between checkout and worker as their use does; docs/concepts.md)
  operator:         log $DEMO/operator.log, metrics http://localhost:${POOLBUDGET_HTTP_PORT:-8080}/q/metrics
  stop everything:  hack/cluster/down.sh
MSG
