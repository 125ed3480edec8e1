#!/usr/bin/env bash
# Builds the operator's image tarball, build/images/operator.tar (poolbudget/operator:<version>),
# with Quarkus' Jib extension on the JRE base, without a daemon or a registry: Jib's hand-over to
# `docker load` is caught by hack/images/docker-to-tar. Rebuilt when the sources are newer.
#   hack/images/operator-image.sh [--force]
# To build and push to your own registry instead (same build, any machine with registry access):
#   ./mvnw package -DskipTests -Dquarkus.container-image.push=true \
#     -Dquarkus.container-image.registry=registry.example.com -Dquarkus.container-image.group=platform
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
"$ROOT/hack/images/base-images.sh"
tar="$BUILD_AREA/images/operator.tar"
if [ "${1:-}" = --force ] || [ ! -s "$tar" ] ||
   [ -n "$(find "$ROOT/src/main" "$ROOT/src/pom.xml" "$ROOT/agent/src" "$ROOT/agent/pom.xml" "$ROOT/pom.xml" "$ROOT/load" "$BUILD_AREA/images/base/jre-base.tar" \
      -newer "$tar" -not -path "*/src/main/jib/*" | head -1)" ]; then
  log "building the operator's image (Quarkus Jib extension, no daemon)"
  POOLBUDGET_IMAGE_TAR="$tar" "$ROOT/mvnw" -B -q -f "$ROOT/pom.xml" -pl agent,src -am package -DskipTests \
    -Dquarkus.container-image.build=true \
    -Dquarkus.jib.base-jvm-image="tar://$BUILD_AREA/images/base/jre-base.tar" \
    -Dquarkus.jib.docker-executable-name="$ROOT/hack/images/docker-to-tar" \
    -Dquarkus.jib.docker-environment.POOLBUDGET_IMAGE_TAR="$tar"
  [ -s "$tar" ] || die "the build did not hand an image to hack/images/docker-to-tar"
  log "built $tar ($(image_tag "$tar"), $(du -m "$tar" | cut -f1) MB)"
fi
