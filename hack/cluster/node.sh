#!/usr/bin/env bash
# A real node for the local cluster: kubelet + containerd + runc + CNI bridge + kube-proxy, joined to
# the running control plane beside the KWOK nodes. Real containers run here; KWOK keeps only its fakes.
#
#   hack/cluster/node.sh up   [--for-tests]   start it (the cluster must be up), import build/images/*.tar
#   hack/cluster/node.sh down [--for-tests]   stop it and leave the host as it was
#   hack/cluster/node.sh check                can this machine run containers? (cause and fix if not)
#
# All state lives under build/node. Needs root. Where pods land (node-lib.sh, node_real_taints):
#   on the test cluster, the node is tainted poolbudget.io/real-node=true:NoSchedule: only the E2E tier's pods, which
#   tolerate it (and select it), land here; the rest keep the fast fake nodes;
#   on the demo cluster, any pod lands here, and the fake nodes are tainted kwok.x-k8s.io/node=fake:NoSchedule
#   while the node is joined, so a user's own Deployment runs for real without a selector or a toleration.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source "$CLUSTER_SRC/node-lib.sh"
cmd=${1:-}; shift || true
case "$cmd" in
  check) node_preflight; log "this machine can run the real node"; exit 0 ;;
  up|down) ;;
  *) die "usage: hack/cluster/node.sh up|down [--for-tests] | check" ;;
esac
case "${1:-}" in ""|--for-tests) ;; *) die "unknown argument '$1'. Usage: hack/cluster/node.sh $cmd [--for-tests]" ;; esac
cluster_vars "${1:-}"

if [ "$cmd" = down ]; then
  # the demo cluster's fake nodes take pods again (when the cluster still answers; down.sh deletes it next anyway)
  [ "$CLUSTER_NAME" != poolbudget ] || [ ! -f "$KUBECONFIG_OUT" ] || node_taint_fakes off
  node_down
  exit 0
fi

node_preflight
[ -f "$KUBECONFIG_OUT" ] || die "cluster '$CLUSTER_NAME' is not running. Fix: hack/cluster/up.sh ${1:-} first (or up.sh --real-node)"
if [ -f "$NODE_DIR/cluster" ] && [ "$(cat "$NODE_DIR/cluster")" != "$CLUSTER_NAME" ] && node_running; then
  die "the real node already belongs to cluster '$(cat "$NODE_DIR/cluster")' (one per machine: fixed ports 10250, 10256). Fix: hack/cluster/node.sh down$([ "$(cat "$NODE_DIR/cluster")" = poolbudget-test ] && echo ' --for-tests')"
fi
if node_running && "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" get node "$NODE_NAME" >/dev/null 2>&1; then
  log "real node '$NODE_NAME' is already running"
  [ "$CLUSTER_NAME" != poolbudget ] || node_taint_fakes on
  node_import_images
  exit 0
fi
node_down >/dev/null 2>&1 || true
t0=$SECONDS
node_start
[ "$CLUSTER_NAME" != poolbudget ] || node_taint_fakes on
node_import_images
log "real node '$NODE_NAME' is Ready in $((SECONDS - t0))s (pods: 10.88.0.0/16 on bridge $BRIDGE, gateway $BRIDGE_IP)"
if [ "$CLUSTER_NAME" = poolbudget ]; then
  log "  every pod lands on it; the fake nodes take only pods that tolerate the taint $FAKE_TAINT_KEY=fake:NoSchedule"
else
  log "  pods land on it with: nodeSelector {poolbudget.io/real-node: \"true\"} and a toleration for the taint of that name"
fi
log "  stop it: hack/cluster/node.sh down ${1:-} (down.sh does this too)"
