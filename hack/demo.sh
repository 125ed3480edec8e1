#!/usr/bin/env bash
# The demo: real pods, real pools, a real database. Starts the local cluster and, beside it, builds the operator,
# its image and the example Spring Boot + HikariCP app's image; joins a real node (kubelet + containerd), starts
# PostgreSQL, runs the operator with its agent image (resize Live), applies examples/real/ and shows what each pod's
# HikariCP reports and what PostgreSQL counts, against the budget, then a live resize without a restart. Leaves
# everything running; hack/cluster/down.sh stops it. A user's own Deployment runs on the real node as it is.
#
#   hack/demo.sh              the real-pod demo (needs root: it runs containers)
#   hack/demo.sh --kwok-only  fake nodes only (no container runs): examples/*.yaml, no root needed
#
# Environment: POOLBUDGET_API_PORT (16443), POOLBUDGET_HTTP_PORT (8080), DEMO_NAMESPACE (poolbudget-demo), and the
# operator's own (POOLBUDGET_STABILIZATION_WINDOW: 0s here, ...).
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
cd "$ROOT"
MODE=real
case "${1:-}" in "") ;; --kwok-only) MODE=kwok ;; *) die "usage: hack/demo.sh [--kwok-only]" ;; esac
NS=${DEMO_NAMESPACE:-poolbudget-demo}
DEMO="$BUILD_AREA/demo"
mkdir -p "$DEMO"
step() { echo; echo "==> $*"; }

# The build runs beside the cluster's start: on a new machine, Maven's downloads and build beside the Go build of
# the cluster's binaries. In the real mode it builds the operator's image too (when the sources are newer than it):
# resize Live's init container copies the agent from it, so the demo's operator can run every feature.
build() {
  if [ $MODE = real ]; then
    hack/images/operator-image.sh
    [ -s target/quarkus-app/quarkus-run.jar ] || hack/images/operator-image.sh --force
    hack/images/app-image.sh
  else
    ./mvnw -B -q package -DskipTests -DskipITs -pl src -am
  fi
}
BUILD_LOG="$DEMO/build.log"
export MODE
setsid bash -c "set -euo pipefail; $(declare -f build); build" >"$BUILD_LOG" 2>&1 &
BUILD_PID=$!
trap '[ -z "${BUILD_PID:-}" ] || kill -- -"$BUILD_PID" 2>/dev/null || true' EXIT

step "1/8 local cluster (the first run builds its binaries), and beside it the operator$([ $MODE = real ] && echo ', its image and the example app'"'"'s image') (the first run downloads dependencies; log $BUILD_LOG)"
[ $MODE = kwok ] || hack/cluster/node.sh check   # before anything starts: can this machine run containers?
hack/cluster/up.sh
source "$BUILD_AREA/cluster/env"

step "2/8 waiting for the build$([ $MODE = real ] && echo '; then the real node (it imports the images) and PostgreSQL')"
wait "$BUILD_PID" || { tail -n 30 "$BUILD_LOG" >&2; die "the build failed (log above; full log $BUILD_LOG)"; }
BUILD_PID=""
if [ $MODE = real ]; then
  hack/cluster/up.sh --real-node
  hack/postgres.sh up
  # the operator's own image holds the agent; with it set, resize Live works as where the chart installs it
  export POOLBUDGET_AGENT_IMAGE=${POOLBUDGET_AGENT_IMAGE:-$(image_tag "$BUILD_AREA/images/operator.tar")}
  # raises apply at once, as in hack/local-values.yaml (the operator's default holds them 3 minutes)
  export POOLBUDGET_STABILIZATION_WINDOW=${POOLBUDGET_STABILIZATION_WINDOW:-0s}
fi

step "3/8 installing the CRD and starting the operator$([ $MODE = real ] && echo " (agent image $POOLBUDGET_AGENT_IMAGE)")"
hack/run-operator.sh "$DEMO"

step "4/8 applying examples/$([ $MODE = real ] && echo real/) to namespace $NS"
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

step "5/8 waiting for the sizes to roll out"
kubectl wait -n "$NS" --for=condition=Ready poolpolicy --all --timeout=60s >/dev/null
kubectl wait -n "$NS" --for=condition=RolloutInProgress=false poolpolicy --all --timeout=180s >/dev/null
kubectl rollout status -n "$NS" deployment --timeout=120s >/dev/null
[ $MODE = real ] && hack/show-pools.sh "$NS" --wait-settled >/dev/null

step "6/8 result"
kubectl get -n "$NS" poolpolicies
echo
if [ $MODE = real ]; then
  hack/show-pools.sh "$NS"
else
  kubectl get -n "$NS" deployments -o custom-columns='DEPLOYMENT:.metadata.name,READY:.status.readyReplicas,MAXIMUMPOOLSIZE:.spec.template.spec.containers[0].env[?(@.name=="SPRING_DATASOURCE_HIKARI_MAXIMUMPOOLSIZE")].value'
fi
echo
kubectl get -n "$NS" poolpolicy -o jsonpath='{range .items[*].status.targets[*]}{.kind}/{.name}: {.explanation}{"\n"}{end}' | fold -s -w 110

if [ $MODE = real ]; then
  step "7/8 resize: Live (examples/real/poolpolicy.yaml): the weights swap (checkout 1, worker 2); the running pools take the new sizes, no pod restarts"
  pods_now() { kubectl get pods -n "$NS" --field-selector=status.phase=Running -o jsonpath='{range .items[*]}{.metadata.uid} {.metadata.name} {.status.containerStatuses[0].restartCount}{"\n"}{end}' | sort; }
  before=$(pods_now)
  kubectl patch -n "$NS" poolpolicy app-db --type json -p \
    '[{"op":"replace","path":"/spec/targets/0/weight","value":1},{"op":"replace","path":"/spec/targets/1/weight","value":2}]' >/dev/null
  # settled: the status is the new spec's, and every pod of every target holds its target's new size
  live_settled() {
    kubectl get -n "$NS" poolpolicy app-db -o jsonpath='{.metadata.generation} {.status.observedGeneration}{range .status.targets[*]} {.name}:{.state}:{.appliedPoolSize}:{.podsHoldingSize}:{.podsPending}{end}' |
      awk -v ns="$NS" '$1 != $2 { exit 1 } { for (i = 3; i <= NF; i++) { split($i, t, ":"); if (t[2] != "Applied" || t[5] != "") exit 1;
        cmd = "kubectl get deployment -n " ns " " t[1] " -o jsonpath={.status.replicas}"; cmd | getline n; close(cmd); if (t[4] != n) exit 1 } }'
  }
  t0=$SECONDS
  for _ in $(seq 120); do live_settled && break; sleep 0.5; done
  live_settled || die "the live resize did not settle within 60 s (kubectl get poolpolicy -n $NS app-db -o yaml; log $DEMO/operator.log)"
  t1=$SECONDS
  hack/show-pools.sh "$NS" --wait-settled
  echo "every pod's agent confirmed its new size in $((t1 - t0)) s; PostgreSQL's count matched the pools $((SECONDS - t0)) s after the change"
  echo "(HikariCP opens the idle connections of a raised minimum at its next housekeeping run, every 30 s):"
  hack/show-pools.sh "$NS"
  after=$(pods_now)
  if [ "$before" = "$after" ]; then
    echo "the same $(echo "$after" | wc -l) pods as before the change (uid, name, restarts): none replaced, none restarted"
  else
    printf 'pods before:\n%s\npods after:\n%s\n' "$before" "$after"
  fi
else
  step "7/8 resize: Live needs the real node (skipped with --kwok-only)"
fi

step "8/8 the budget follows the load: what mode Demand would give (spec.allocation mode Recommend writes nothing)"
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
  follow the load:  kubectl patch -n $NS poolpolicy app-db --type merge -p '{"spec":{"allocation":{"mode":"Demand"}}}'
                    (pools then move live between checkout and worker as their use does; docs/concepts.md)
  your own app:     kubectl apply -n $NS -f your-deployment.yaml   (it runs on the real node; README.md: the local demo)
  operator:         log $DEMO/operator.log, metrics http://localhost:${POOLBUDGET_HTTP_PORT:-8080}/q/metrics
  stop everything:  hack/cluster/down.sh
MSG
