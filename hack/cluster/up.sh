#!/usr/bin/env bash
# Starts the local Kubernetes cluster: a real kube-apiserver, controller-manager, scheduler and
# etcd, run by `kwokctl --runtime binary`, with KWOK fake nodes so pods schedule and turn Ready.
# Idempotent: a healthy cluster is left as it is.
#
#   hack/cluster/up.sh               the demo cluster, API on port $POOLBUDGET_API_PORT (16443)
#   hack/cluster/up.sh --for-tests   the cluster `./mvnw verify` runs the *E2E tier on, on a free port
#   hack/cluster/up.sh --for-its     the one it runs the *IT tier on, beside it (KWOK nodes only)
#   add --real-node                  plus one real node (kubelet + containerd) for real pods; needs root
#                                    (not with --for-its)
#
# Then: export KUBECONFIG=build/cluster/kubeconfig (or test.kubeconfig), or source build/cluster/env.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
which="" real=""
for a in "$@"; do
  case "$a" in --for-tests|--for-its) which=$a ;; --real-node) real=1 ;;
    *) die "unknown argument '$a'. Usage: hack/cluster/up.sh [--for-tests|--for-its] [--real-node]" ;; esac
done
[ "$which" != --for-its ] || [ -z "$real" ] ||
  die "the real node joins the demo cluster or the --for-tests one, not --for-its. Fix: drop --real-node"
set -- $which
cluster_vars "$which"
# Say now, not after the control plane is up, when this machine cannot run the real node.
[ -z "$real" ] || ( source "$CLUSTER_SRC/node-lib.sh"; node_preflight )
NODES=${POOLBUDGET_NODES:-3}
[[ "$NODES" =~ ^[1-9][0-9]*$ ]] && [ "$NODES" -le 256 ] ||
  die "POOLBUDGET_NODES=$NODES: give 1 to 256 fake nodes (each takes a /24 of $FAKE_POD_CIDR for its pods)"

"$CLUSTER_SRC/build.sh" >/dev/null
KUBECTL=("$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" --request-timeout=5s)

healthy() { [ -f "$KUBECONFIG_OUT" ] && "${KUBECTL[@]}" get --raw /readyz >/dev/null 2>&1; }

write_env() {
  local env="$BUILD_AREA/cluster/${CLUSTER_NAME}.env"
  printf 'export KUBECONFIG=%q\nexport PATH=%q:"$PATH"\n' "$KUBECONFIG_OUT" "$BIN" > "$env"
  [ "$CLUSTER_NAME" = poolbudget ] && cp "$env" "$BUILD_AREA/cluster/env"
  return 0
}

if healthy; then
  log "cluster '$CLUSTER_NAME' is already running ($("${KUBECTL[@]}" config view --minify -o jsonpath='{.clusters[0].cluster.server}'))"
  write_env
  [ -z "$real" ] || "$CLUSTER_SRC/node.sh" up $which
  exit 0
fi

if [ -d "$CLUSTER_STATE" ]; then
  log "cluster '$CLUSTER_NAME' exists but does not answer (stopped, or the machine restarted); recreating it"
  "$CLUSTER_SRC/down.sh" ${1:-} >/dev/null
fi

if [ "$API_PORT" != 0 ]; then
  if owner=$(ss -Hltnp "sport = :$API_PORT" 2>/dev/null) && [ -n "$owner" ]; then
    die "port $API_PORT is already in use ($(echo "$owner" | grep -o 'users:.*' || echo 'by another process')). Fix: stop that process, or choose another port: POOLBUDGET_API_PORT=<free port> $0 $*"
  fi
fi

mkdir -p "$BUILD_AREA/cluster"
rm -f "$KUBECONFIG_OUT"
log "starting cluster '$CLUSTER_NAME' (Kubernetes $K8S_VERSION) with $NODES KWOK nodes"
port_args=()
[ "$API_PORT" != 0 ] && port_args=(--kube-apiserver-port "$API_PORT")
# Ready for a real node beside the fake ones (hack/cluster/node.sh): KWOK manages only the nodes it
# made (they carry kwok.x-k8s.io/node=fake) and gives fake pods addresses outside the Service range;
# the apiserver reaches a kubelet by IP with a client certificate, and its certificate covers the
# `kubernetes` Service IP that in-cluster clients dial. No client QPS limits: the Deployment
# controller otherwise needs minutes to roll out thousands of Deployments. The Deployment status's
# terminatingReplicas (on by default from Kubernetes 1.35, alpha behind its gate in 1.34) is on, as on
# the clusters users run now: the operator counts the pods it did not size by it while they shut down.
PKI="$CLUSTER_STATE/pki"
KWOKCTL_CONFIG="$BUILD_AREA/cluster/${CLUSTER_NAME}-kwokctl.yaml"
cat > "$KWOKCTL_CONFIG" <<YAML
apiVersion: config.kwok.x-k8s.io/v1alpha1
kind: KwokctlConfiguration
options:
  kubeApiserverCertSANs: ["$SERVICE_IP"]
  disableQPSLimits: true
  kubeFeatureGates: "DeploymentReplicaSetTerminatingReplicas=true"
componentsPatches:
- name: kube-apiserver
  extraArgs:
  - {key: kubelet-preferred-address-types, value: "InternalIP,Hostname"}
  - {key: kubelet-client-certificate, value: "$PKI/admin.crt"}
  - {key: kubelet-client-key, value: "$PKI/admin.key"}
  - {key: service-cluster-ip-range, value: "$SERVICE_CIDR"}
- name: kwok-controller
  extraArgs:
  - {key: manage-all-nodes, value: "false", override: true}
  - {key: manage-nodes-with-annotation-selector, value: "kwok.x-k8s.io/node=fake"}
  - {key: cidr, value: "$FAKE_POD_CIDR"}
YAML
# The API server's audit log records what the operator installed in poolbudget-system calls (and
# nothing else): InstallE2E derives the permissions it needs from it (logs/audit.log).
AUDIT_POLICY="$BUILD_AREA/cluster/${CLUSTER_NAME}-audit-policy.yaml"
cat > "$AUDIT_POLICY" <<YAML
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  userGroups: ["system:serviceaccounts:poolbudget-system"]
- level: None
YAML
t0=$SECONDS
# KWOK_KUBE_VERSION tells kwokctl which flags this apiserver takes; KWOK_KUBECTL_BINARY keeps it
# from downloading a kubectl of its own. Authorization (RBAC) and admission stay on.
if ! KWOK_KUBE_VERSION="$K8S_VERSION" KWOK_KUBECTL_BINARY="$BIN/kubectl" timeout 180 "$BIN/kwokctl" \
      create cluster --name "$CLUSTER_NAME" --runtime binary "${port_args[@]}" --config "$KWOKCTL_CONFIG" \
      --kube-apiserver-binary "$BIN/kube-apiserver" \
      --kube-controller-manager-binary "$BIN/kube-controller-manager" \
      --kube-scheduler-binary "$BIN/kube-scheduler" \
      --etcd-binary "$BIN/etcd" \
      --kwok-controller-binary "$BIN/kwok" \
      --kube-authorization=true --kube-admission=true --kube-audit-policy "$AUDIT_POLICY" \
      --kubeconfig "$KUBECONFIG_OUT" --wait 90s --timeout 150s \
      >"$BUILD_AREA/cluster/${CLUSTER_NAME}-create.log" 2>&1; then
  tail -n 20 "$BUILD_AREA/cluster/${CLUSTER_NAME}-create.log" >&2
  for f in "$CLUSTER_STATE"/logs/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -n 5 "$f" >&2; }; done
  "$CLUSTER_SRC/down.sh" ${1:-} >/dev/null 2>&1 || true
  die "the cluster did not start (output above; full log $BUILD_AREA/cluster/${CLUSTER_NAME}-create.log). If a port is named, free it; otherwise hack/cluster/build.sh --rebuild and try again."
fi

# Each fake node's pod range is a /24 of FAKE_POD_CIDR, the i-th node's the i-th (KWOK's node template would give 10.0.<i>.0/24, which overlaps
# the Service range: a fake pod had the `kubernetes` Service's address)
KWOK_KUBE_VERSION="$K8S_VERSION" timeout 60 "$BIN/kwokctl" scale node --name "$CLUSTER_NAME" --replicas "$NODES" \
    --param ".podCIDRs=[\"$FAKE_NODE_POD_CIDR\"]" >>"$BUILD_AREA/cluster/${CLUSTER_NAME}-create.log" 2>&1 ||
  die "could not create the KWOK nodes (see: $BIN/kwokctl logs kwok-controller --name $CLUSTER_NAME)"
"$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" wait --for=condition=Ready node --all --timeout=60s >/dev/null ||
  die "the KWOK nodes did not turn Ready within 60s (see: $BIN/kwokctl logs kwok-controller --name $CLUSTER_NAME)"
write_env

server=$("${KUBECTL[@]}" config view --minify -o jsonpath='{.clusters[0].cluster.server}')
log "cluster '$CLUSTER_NAME' is up in $((SECONDS - t0))s at $server with $NODES Ready nodes"
log "  kubeconfig: $KUBECONFIG_OUT   (or: source $BUILD_AREA/cluster/${CLUSTER_NAME}.env)"
log "  stop it:    hack/cluster/down.sh ${1:-}"
[ -z "$real" ] || "$CLUSTER_SRC/node.sh" up $which
