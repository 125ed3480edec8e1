#!/usr/bin/env bash
# Builds the local cluster's binaries from the pinned Go modules in hack/cluster/modules,
# into a cache outside the repository keyed by those pins. A warm cache builds nothing.
#
#   hack/cluster/build.sh            build if missing, then print the bin directory
#   hack/cluster/build.sh --rebuild  discard this cache entry and build it again
#
# Environment: POOLBUDGET_CACHE_DIR (default ~/.cache/poolbudget).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

if [ "${1:-}" = "--rebuild" ]; then
  log "discarding $CACHE_DIR"
  rm -rf "$CACHE_DIR" "$CACHE_DIR.partial"
elif [ -n "${1:-}" ]; then
  die "unknown argument '$1'. Usage: hack/cluster/build.sh [--rebuild]"
fi

problem=$(cache_problem)
if [ -z "$problem" ]; then
  echo "$BIN"
  exit 0
fi
if [ "$problem" != missing ]; then
  # A finished cache entry is only ever written by an atomic rename, so damage here came from
  # outside (a deleted file, a full disk while copying). Rebuilding silently could loop; say so.
  die "the cluster binary cache $CACHE_DIR is damaged ($problem). Fix: hack/cluster/build.sh --rebuild"
fi

require_go
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_DIR.lock"
flock -n 9 || die "another build of $CACHE_DIR is running (lock $CACHE_DIR.lock held). Wait for it to finish, or stop it and re-run."

STAGE="$CACHE_DIR.partial"
if [ -d "$STAGE" ]; then
  log "found an interrupted build in $STAGE; discarding it (Go's build cache keeps finished packages, so this resumes quickly)"
  rm -rf "$STAGE"
fi
mkdir -p "$STAGE/bin" "$STAGE/logs"

export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false -trimpath"
START=$SECONDS
log "cold build of the local cluster (Kubernetes $K8S_VERSION, etcd $ETCD_VERSION, KWOK $KWOK_VERSION) into $CACHE_DIR"
log "this takes about 6-10 minutes on 2 cores the first time; later runs reuse it"

# go_build STEP MODULE LDFLAGS OUTPUT PACKAGES...: one `go build` per module so shared packages
# compile once. OUTPUT is the bin directory, or a file name for a single package.
go_build() {
  local step=$1 module=$2 ldflags=$3 out=$4; shift 4
  local logf="$STAGE/logs/$module.log" t0=$SECONDS
  log "[$step] $module: ${*}"
  ( cd "$MODULES/$module" && go build -v -ldflags "$ldflags" -o "$out" "$@" ) >"$logf" 2>&1 &
  local pid=$!
  local ticks=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    ticks=$((ticks + 1))
    [ $((ticks % 20)) -eq 0 ] && kill -0 "$pid" 2>/dev/null &&
      log "      ... $((SECONDS - t0))s, $(grep -vc '^#' "$logf" || true) packages compiled"
  done
  if ! wait "$pid"; then
    tail -n 30 "$logf" >&2
    die "building $module failed (full log: $logf). Fix the cause above, then re-run; if the pins were edited, restore them with: git checkout -- hack/cluster/modules"
  fi
  log "      done in $((SECONDS - t0))s"
}

# Kubernetes reports its version from these variables; clients (fabric8 included) read it,
# so a v0.0.0-master server would be treated as ancient.
K8S_MINOR=$(echo "$K8S_VERSION" | cut -d. -f2)
K8S_LDFLAGS="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  K8S_LDFLAGS+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$K8S_MINOR -X $pkg.gitTreeState=clean"
done

go_build 1/3 kubernetes "$K8S_LDFLAGS" "$STAGE/bin/" \
  k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
  k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl \
  k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy
go_build 2/3 etcd "-s -w" "$STAGE/bin/etcd" go.etcd.io/etcd/server/v3
go_build 3/3 kwok "-s -w" "$STAGE/bin/" \
  sigs.k8s.io/kwok/cmd/kwok sigs.k8s.io/kwok/cmd/kwokctl

# Smoke-check what was built before declaring the cache complete.
"$STAGE/bin/kube-apiserver" --version | grep -q "$K8S_VERSION" ||
  die "kube-apiserver does not report $K8S_VERSION: the version ldflags did not apply (see $STAGE/logs)"
"$STAGE/bin/etcd" --version | grep -q "${ETCD_VERSION#v}" || die "etcd does not report $ETCD_VERSION"
( cd "$STAGE/bin" && sha256sum "${BINARIES[@]}" ) > "$STAGE/SHA256SUMS"
date -u +%FT%TZ > "$STAGE/COMPLETE"
rm -rf "$CACHE_DIR"
mv "$STAGE" "$CACHE_DIR"
log "cluster binaries ready in $((SECONDS - START))s: $BIN"
echo "$BIN"
