#!/usr/bin/env bash
# Installs the operator into the local cluster as users install it: builds its image, imports it
# into the real node, and installs it with helm (default) or kubectl apply -k, then waits for the
# pod. Start the cluster first: hack/cluster/up.sh --real-node
#   hack/install-local.sh [helm|kustomize]     remove: hack/install-local.sh --uninstall
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
cluster_vars
[ -f "$KUBECONFIG_OUT" ] || die "the local cluster is not running. Fix: hack/cluster/up.sh --real-node"
export KUBECONFIG="$KUBECONFIG_OUT"
KUBECTL="$BIN/kubectl"
HELM="$("$ROOT/hack/tools/build.sh")/helm"
NS=poolbudget-system
case "${1:-helm}" in
  --uninstall)
    "$HELM" uninstall poolbudget -n "$NS" --wait 2>/dev/null || "$KUBECTL" delete -k "$ROOT/hack/local-overlay" --ignore-not-found
    exit 0 ;;
  helm|kustomize) ;;
  *) die "unknown way '$1'. Usage: hack/install-local.sh [helm|kustomize|--uninstall]" ;;
esac
"$ROOT/hack/images/operator-image.sh"
"$ROOT/hack/cluster/node.sh" up   # imports build/images/operator.tar into the real node
if [ "${1:-helm}" = helm ]; then
  "$KUBECTL" create namespace "$NS" --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
  "$KUBECTL" label namespace "$NS" pod-security.kubernetes.io/enforce=restricted --overwrite >/dev/null
  "$HELM" upgrade --install poolbudget "$ROOT/charts/poolbudget" -n "$NS" -f "$ROOT/hack/local-values.yaml" --wait --timeout 180s
else
  "$KUBECTL" apply -k "$ROOT/hack/local-overlay"
fi
"$KUBECTL" -n "$NS" rollout status deployment/poolbudget --timeout=180s
log "the operator runs in a pod of namespace $NS: kubectl -n $NS logs deploy/poolbudget"
