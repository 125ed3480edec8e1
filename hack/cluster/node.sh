#!/usr/bin/env bash
# A real node for the local cluster: kubelet + containerd + runc + CNI bridge + kube-proxy, joined to
# the running control plane beside the KWOK nodes. Real containers run here; KWOK keeps only its fakes.
#
#   hack/cluster/node.sh up   [--for-tests]   start it (the cluster must be up), import build/images/*.tar
#   hack/cluster/node.sh down [--for-tests]   stop it and leave the host as it was
#   hack/cluster/node.sh check                can this machine run containers? (cause and fix if not)
#
# All state lives under build/node. The node is tainted poolbudget.io/real-node=true:NoSchedule, so
# only pods that tolerate it (and select it) land here; ITs keep the fast fake nodes. Needs root.
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
  node_import_images
  exit 0
fi
node_down >/dev/null 2>&1 || true
t0=$SECONDS
node_start
node_import_images
log "real node '$NODE_NAME' is Ready in $((SECONDS - t0))s (pods: 10.88.0.0/16 on bridge $BRIDGE, gateway $BRIDGE_IP)"
log "  pods land on it with: nodeSelector {poolbudget.io/real-node: \"true\"} and a toleration for the taint of that name"
log "  stop it: hack/cluster/node.sh down ${1:-} (down.sh does this too)"
