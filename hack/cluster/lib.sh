# Shared by the hack/cluster scripts. Source it; do not run it.
# Everything here is read-only: it names paths and versions and checks prerequisites.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CLUSTER_SRC="$ROOT/hack/cluster"
MODULES="$CLUSTER_SRC/modules"
BUILD_AREA="$ROOT/build"                 # ignored by git, survives `mvn clean`

die() { echo "ERROR: $*" >&2; exit 1; }
log() { echo "[cluster] $*" >&2; }   # progress on stderr; stdout carries results

# Pinned versions are read from the committed go.mod files, the single source of truth.
modver() {
  awk -v m="$2" '{ if ($1 == "require") { $1 = ""; $0 = $0 } } $1 == m && $2 ~ /^v/ { print $2; exit }' "$MODULES/$1/go.mod"
}
K8S_VERSION=$(modver kubernetes k8s.io/kubernetes)
ETCD_VERSION=$(modver etcd go.etcd.io/etcd/server/v3)
KWOK_VERSION=$(modver kwok sigs.k8s.io/kwok)
[ -n "$K8S_VERSION" ] && [ -n "$ETCD_VERSION" ] && [ -n "$KWOK_VERSION" ] ||
  die "could not read pinned versions from $MODULES/*/go.mod; restore them with: git checkout -- hack/cluster/modules"

# kubelet and kube-proxy run the optional real node (hack/cluster/node.sh).
BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubectl kubelet kube-proxy etcd kwok kwokctl)

require_go() {
  command -v go >/dev/null 2>&1 ||
    die "Go is not installed (needed once, to build the local cluster's binaries). Fix: install Go 1.26+ (https://go.dev/doc/install or 'apt-get install golang-go' where it is 1.26+) and re-run."
  local v; v=$(go env GOVERSION 2>/dev/null | sed 's/^go//')
  local major=${v%%.*} rest=${v#*.}; local minor=${rest%%.*}
  { [ "${major:-0}" -gt 1 ] || { [ "${major:-0}" -eq 1 ] && [ "${minor:-0}" -ge 26 ]; }; } ||
    die "Go $v is too old: KWOK $KWOK_VERSION and etcd $ETCD_VERSION need Go 1.26+. Fix: install Go 1.26+ and re-run."
}

# The cache key changes whenever a pin or the build recipe changes, so a stale cache is never
# reused. (Not the Go version: a built cache must keep working on a machine without Go.) Bump BUILD_RECIPE when build.sh changes what it produces (flags, names).
BUILD_RECIPE=1
cache_key() {
  local h
  h=$( { cat "$MODULES"/*/go.mod "$MODULES"/*/go.sum; echo "recipe=$BUILD_RECIPE"; } | sha256sum | cut -c1-12)
  echo "k8s-$K8S_VERSION-etcd-$ETCD_VERSION-kwok-$KWOK_VERSION-$h"
}
CACHE_ROOT="${POOLBUDGET_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/poolbudget}"
CACHE_DIR="$CACHE_ROOT/$(cache_key)"
BIN="$CACHE_DIR/bin"

# A complete cache has every binary, executable and non-empty, and the marker written last.
cache_problem() {
  [ -d "$CACHE_DIR" ] || { echo "missing"; return; }
  [ -f "$CACHE_DIR/COMPLETE" ] || { echo "no COMPLETE marker"; return; }
  local b
  for b in "${BINARIES[@]}"; do
    [ -s "$BIN/$b" ] && [ -x "$BIN/$b" ] || { echo "binary $b is missing or empty"; return; }
  done
}

# Addresses. Services, the pods of the real node (its CNI bridge) and KWOK's fake pods each get a
# range of their own; PostgreSQL listens on the bridge's gateway, so pod traffic stays on this machine.
SERVICE_CIDR=10.0.0.0/24
SERVICE_IP=10.0.0.1                      # the `kubernetes` Service
POD_CIDR=10.88.0.0/16
BRIDGE_IP=10.88.0.1
FAKE_POD_CIDR=10.240.0.0/16
FAKE_NODE_POD_CIDR=10.240.0.0/24                # the first fake node's; the i-th node's is the i-th /24 after it
PAUSE_IMAGE=registry.k8s.io/pause:3.10      # the real node's sandbox image, built by hack/images/base-images.sh

# image_tag TAR: the name:tag a docker-archive tarball (build/images/*.tar) holds.
image_tag() { tar -xOf "$1" manifest.json | sed -E 's/.*"RepoTags":\["([^"]*)".*/\1/'; }

# Cluster identities: the demo cluster and the one `./mvnw verify` uses are separate,
# so running the tests never tears down a demo someone is looking at.
cluster_vars() {
  if [ "${1:-}" = "--for-tests" ]; then
    CLUSTER_NAME=poolbudget-test
    API_PORT=${POOLBUDGET_TEST_API_PORT:-0}     # 0: kwokctl picks a free port
  elif [ "${1:-}" = "--for-its" ]; then
    CLUSTER_NAME=poolbudget-its                 # the *IT tier's own: it runs beside the *E2E tier
    API_PORT=0
  else
    CLUSTER_NAME=poolbudget
    API_PORT=${POOLBUDGET_API_PORT:-16443}
  fi
  export KWOK_WORKDIR="$BUILD_AREA/kwok"         # kwokctl's state stays in the project
  CLUSTER_STATE="$KWOK_WORKDIR/clusters/$CLUSTER_NAME"
  KUBECONFIG_OUT="$BUILD_AREA/cluster/kubeconfig"
  [ "$CLUSTER_NAME" = poolbudget-test ] && KUBECONFIG_OUT="$BUILD_AREA/cluster/test.kubeconfig"
  [ "$CLUSTER_NAME" = poolbudget-its ] && KUBECONFIG_OUT="$BUILD_AREA/cluster/its.kubeconfig"
  return 0
}

# Installs Debian packages. Without systemd as PID 1, a policy-rc.d keeps their scripts from
# starting services (we start what we need ourselves); it is removed again if we made it.
apt_install() {
  command -v apt-get >/dev/null || die "missing $* and no apt-get to install them. Fix: install them with your package manager"
  log "installing $* from Debian"
  local made="" ok=1
  [ -e /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; made=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; } || ok=""
  [ -z "$made" ] || rm -f /usr/sbin/policy-rc.d
  [ -n "$ok" ] || die "could not install $* with apt-get. Fix: install them by hand and re-run"
}
