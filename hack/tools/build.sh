#!/usr/bin/env bash
# Builds the chart tools into a cache outside the repository, keyed by their pins, and prints the
# bin directory: helm and promtool (from the pinned Go modules in hack/tools/modules/) and
# kubernetes-validate (from PyPI, hack/tools/requirements.txt, in a virtualenv). A warm cache
# builds nothing.   hack/tools/build.sh [--rebuild]
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
TOOLS_SRC="$ROOT/hack/tools"
HELM_VERSION=$(awk '$1 == "helm.sh/helm/v3" {print $2}' "$TOOLS_SRC/modules/helm/go.mod")
[ -n "$HELM_VERSION" ] || die "no helm.sh/helm/v3 pin in hack/tools/modules/helm/go.mod. Fix: git checkout -- hack/tools"
PROM_VERSION=$(awk '$1 == "github.com/prometheus/prometheus" {print $2}' "$TOOLS_SRC/modules/promtool/go.mod")
[ -n "$PROM_VERSION" ] || die "no github.com/prometheus/prometheus pin in hack/tools/modules/promtool/go.mod. Fix: git checkout -- hack/tools"
RECIPE=3   # bump when this script changes what it builds
key=$( { cat "$TOOLS_SRC"/modules/*/go.mod "$TOOLS_SRC"/modules/*/go.sum "$TOOLS_SRC/requirements.txt"; echo "$RECIPE"; } |
  sha256sum | cut -c1-12)
DIR="$CACHE_ROOT/tools-helm-$HELM_VERSION-prom-$PROM_VERSION-$key"
[ "${1:-}" = --rebuild ] && rm -rf "$DIR"
if [ -f "$DIR/COMPLETE" ] && [ -x "$DIR/bin/helm" ] && [ -x "$DIR/bin/promtool" ] && [ -x "$DIR/bin/kubernetes-validate" ]; then
  echo "$DIR/bin"; exit 0
fi

require_go
command -v python3 >/dev/null || die "python3 is needed for kubernetes-validate. Fix: apt-get install python3 python3-venv"
mkdir -p "$CACHE_ROOT"
exec 8>"$DIR.lock"
flock 8
# Built in place (a virtualenv records its own path); COMPLETE, written last, marks it usable.
STAGE="$DIR"
rm -rf "$STAGE" && mkdir -p "$STAGE/bin"
# As helm's own Makefile does: the Kubernetes version `helm template` assumes, from its client-go.
CLIENT_GO=$(awk '$1 == "k8s.io/client-go" {print $2}' "$TOOLS_SRC/modules/helm/go.mod")
HELM_K8S="-X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=$(echo "$CLIENT_GO" | cut -d. -f2)"
log "building helm $HELM_VERSION from its Go module (about a minute the first time)"
( cd "$TOOLS_SRC/modules/helm" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false -trimpath" \
    go build -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION $HELM_K8S"  -o "$STAGE/bin/helm" helm.sh/helm/v3/cmd/helm ) ||
  die "building helm failed (see above)"
"$STAGE/bin/helm" version --short | grep -q "$HELM_VERSION" || die "helm does not report $HELM_VERSION"
# Prometheus's module v0.X.Y is its release 3.(X-300).Y; promtool reports the module version.
log "building promtool $PROM_VERSION from its Go module (a few minutes the first time)"
( cd "$TOOLS_SRC/modules/promtool" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false -trimpath" \
    go build -ldflags "-s -w -X github.com/prometheus/common/version.Version=$PROM_VERSION" -o "$STAGE/bin/promtool" \
    github.com/prometheus/prometheus/cmd/promtool ) || die "building promtool failed (see above)"
"$STAGE/bin/promtool" --version 2>&1 | grep -q "$PROM_VERSION" || die "promtool does not report $PROM_VERSION"
log "installing kubernetes-validate (PyPI) into $STAGE/venv"
python3 -m venv "$STAGE/venv" 2>/dev/null || {
  apt_install python3-venv; python3 -m venv "$STAGE/venv"; } ||
  die "could not make a Python virtualenv. Fix: apt-get install python3-venv"
"$STAGE/venv/bin/pip" install -q --disable-pip-version-check -r "$TOOLS_SRC/requirements.txt" ||
  die "pip could not install hack/tools/requirements.txt"
printf '#!/bin/sh\nexec "%s/venv/bin/kubernetes-validate" "$@"\n' "$DIR" > "$STAGE/bin/kubernetes-validate"
chmod +x "$STAGE/bin/kubernetes-validate"
"$DIR/bin/kubernetes-validate" --version >/dev/null 2>&1 || die "kubernetes-validate does not start from $DIR"
date -u +%FT%TZ > "$STAGE/COMPLETE"
log "chart tools ready: $DIR/bin"
echo "$DIR/bin"
