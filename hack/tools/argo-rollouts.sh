#!/usr/bin/env bash
# Argo Rollouts' controller and CRDs, built from its public Go module at a pinned version into the cache outside the
# repository (once per machine), for ArgoRolloutsIT: the operator sizing Rollouts that Argo's own controller rolls.
# Run by ./mvnw verify before the integration tests; a no-op when the cache holds them.
#   hack/tools/argo-rollouts.sh        build if missing; print the directory (rollouts-controller, crds/)
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
# v1.9.3 and later ask for Go 1.26.10+; this machine's pin is 1.26.8
ARGO_ROLLOUTS_VERSION=v1.9.2
DIR="$CACHE_ROOT/argo-rollouts-$ARGO_ROLLOUTS_VERSION"
if [ ! -x "$DIR/rollouts-controller" ]; then
  mkdir -p "$CACHE_ROOT"
  exec 9>"$DIR.lock"
  flock 9
  if [ ! -x "$DIR/rollouts-controller" ]; then
    log "building Argo Rollouts $ARGO_ROLLOUTS_VERSION's controller from its Go module (once per machine, a few minutes)"
    stage=$(mktemp -d "$CACHE_ROOT/argo-rollouts.partial.XXXXXX")
    trap 'rm -rf "$stage"' EXIT
    src=$(cd "$stage" && GOTOOLCHAIN=local GOFLAGS= go mod download -json \
      "github.com/argoproj/argo-rollouts@$ARGO_ROLLOUTS_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
    [ -n "$src" ] && [ -d "$src" ] || die "the Go module proxy did not serve github.com/argoproj/argo-rollouts@$ARGO_ROLLOUTS_VERSION. Fix: check GOPROXY (go env GOPROXY)"
    cp -r "$src" "$stage/src"
    chmod -R u+w "$stage/src"
    mkdir -p "$stage/out/crds"
    (cd "$stage/src" && CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-mod=mod -buildvcs=false -trimpath" \
      go build -o "$stage/out/rollouts-controller" ./cmd/rollouts-controller) \
      || die "building Argo Rollouts' controller failed (see above). Fix: re-run; Go's caches keep what was built"
    cp "$stage/src"/manifests/crds/*-crd.yaml "$stage/out/crds/"
    rm -rf "$DIR"
    mv "$stage/out" "$DIR"
  fi
fi
"$DIR/rollouts-controller" --help >/dev/null || die "$DIR/rollouts-controller does not run. Fix: rm -rf $DIR and re-run"
log "Argo Rollouts $ARGO_ROLLOUTS_VERSION: $DIR"
echo "$DIR"
