# bench/operator-scale.sh's fleet, sourced by it: POLICIES namespaces, each with PER_POLICY Deployments a policy
# selects, and spread over them EXTRA Deployments, CRONJOBS CronJobs and ROLLOUTS Argo Rollouts that no policy
# selects (the operator caches every workload of these kinds; these measure what it holds of one nobody targets).
# Argo Rollouts' CRD is installed for them (its controller is not: they sit as created, as the Deployments do with
# no pods). Kept between runs with KEEP_OBJECTS=1 and the same parameters (the namespaces' label says which).
CRONJOBS=${CRONJOBS:-2000}; ROLLOUTS=${ROLLOUTS:-2000}
FLEET="$SHAPE.$PER_POLICY.$EXTRA.$CRONJOBS.$ROLLOUTS"
zcat src/test/resources/argo-rollouts/rollout-crd-v1.9.2.yaml.gz | kubectl apply --server-side -f - >/dev/null
for _ in $(seq 120); do   # (kubectl wait fails on a CRD whose status has no conditions yet)
  [ "$(kubectl get crd rollouts.argoproj.io -o jsonpath='{.status.conditions[?(@.type=="Established")].status}')" = True ] && break
  sleep 0.5
done
if [ "$(kubectl get ns -l "$LABEL=$FLEET" -o name | wc -l)" != "$POLICIES" ] || [ -z "${KEEP_OBJECTS:-}" ]; then
  kubectl delete ns -l "$LABEL" --wait=true >/dev/null 2>&1 || true
  t0=$(ms)
  for p in $(seq 1 "$POLICIES"); do
    printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s, labels: {%s: "%s"}}\n---\n' "$(ns_of "$p")" "$LABEL" "$FLEET"
  done > "$work/ns.yaml"
  kubectl apply --server-side -f "$work/ns.yaml" >/dev/null
  container='{containers: [{name: app, image: pause, env: [{name: DATABASE_URL, value: "jdbc:postgresql://db/app"}]}]}'
  deploy() {   # namespace name labels
    printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: %s, labels: {%s}}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec: %s\n---\n' \
      "$2" "$1" "$3" "$2" "$2" "$container"
  }
  # SHAPE=app: the Deployments nobody targets carry what a real service's do (init container, probes, resources,
  # volumes, security contexts, affinity: bench/app-pod-spec.yaml)
  app() {   # namespace name labels
    printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: %s, labels: {%s}, annotations: {team: checkout}}\nspec:\n  replicas: 0\n  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}, annotations: {prometheus.io/scrape: "true"}}\n    spec:\n%s\n---\n' \
      "$2" "$1" "$3" "$2" "$2" "${app_spec//APP/$2}"
  }
  cronjob() {   # namespace name labels (suspended: the cluster runs no Job of them)
    printf 'apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: %s, namespace: %s, labels: {%s}}\nspec:\n  schedule: "*/5 * * * *"\n  suspend: true\n  jobTemplate:\n    spec:\n      template:\n        spec: {restartPolicy: OnFailure, containers: [{name: job, image: pause, env: [{name: DATABASE_URL, value: "jdbc:postgresql://db/app"}]}]}\n---\n' \
      "$2" "$1" "$3"
  }
  rollout() {   # namespace name labels
    printf 'apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: %s, namespace: %s, labels: {%s}}\nspec:\n  replicas: 0\n  selector: {matchLabels: {app: %s}}\n  strategy: {canary: {steps: [{setWeight: 50}, {pause: {duration: 10}}]}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec: %s\n---\n' \
      "$2" "$1" "$3" "$2" "$2" "$container"
  }
  app_spec=$(sed 's/^/      /' bench/app-pod-spec.yaml)
  [ "$SHAPE" = app ] && other=app || other=deploy
  # four files applied by four kubectl processes at once: the API server, not kubectl, is the limit then
  n=0
  for p in $(seq 1 "$POLICIES"); do
    for d in $(seq 1 "$PER_POLICY"); do deploy "$(ns_of "$p")" "svc-$d" "db: orders" >> "$work/d.$((n++ % 4)).yaml"; done
  done
  spread() {   # kind count: count objects of the kind nobody targets, over the namespaces
    for e in $(seq 1 "$2"); do
      $1 "$(ns_of $(( (e - 1) % POLICIES + 1 )))" "other-$e" "tier: other" >> "$work/d.$((n++ % 4)).yaml"
    done
  }
  spread "$other" "$EXTRA"; spread cronjob "$CRONJOBS"; spread rollout "$ROLLOUTS"
  for f in "$work"/d.*.yaml; do kubectl apply --server-side -f "$f" >/dev/null & done
  wait
  echo "created $POLICIES namespaces, $((POLICIES * PER_POLICY)) targeted and $EXTRA other ($SHAPE) Deployments," \
    "$CRONJOBS CronJobs and $ROLLOUTS Argo Rollouts nobody targets in $(secs $(( $(ms) - t0 ))) s"
fi
