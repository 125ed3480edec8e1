#!/usr/bin/env bash
# Builds the example app's image tarball (build/images/hikari-app.tar, poolbudget/hikari-app:dev)
# with Jib on the JRE base, when its sources are newer than the tarball.
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
"$ROOT/hack/images/base-images.sh"
app="$ROOT/examples/hikari-app"
tar="$BUILD_AREA/images/hikari-app.tar"
if [ ! -s "$tar" ] || [ -n "$(find "$app/src" "$app/pom.xml" "$BUILD_AREA/images/base/jre-base.tar" -newer "$tar" | head -1)" ]; then
  log "building the example app's image (examples/hikari-app, Jib, no daemon)"
  "$ROOT/mvnw" -B -q -f "$app/pom.xml" package
fi
