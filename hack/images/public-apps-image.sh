#!/usr/bin/env bash
# Builds the images of the public JVM apps we did not write (third_party/, README.md there), each from its own
# sources, unmodified, with its own build, on the JRE base image, when their sources are newer than the tarball:
#   build/images/petclinic.tar  poolbudget/petclinic:dev  Spring's spring-petclinic (Spring Boot, HikariCP)
#   build/images/fruits.tar     poolbudget/fruits:dev     Quarkus' hibernate-orm-panache-quickstart (Quarkus, Agroal)
# In a git checkout the sources are first checked against the upstream trees they were copied from.
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
source "$(dirname "$0")/archive.sh"
"$ROOT/hack/images/base-images.sh"
base="$BUILD_AREA/images/base/jre-base.tar"
public="$ROOT/third_party"
# The Quarkus version served by the registries here (the quickstart names a newer one; a build property, no edit).
QUARKUS="-Dquarkus.platform.group-id=io.quarkus -Dquarkus.platform.version=3.33.2"
# Agroal counts connections in use only with the datasource's metrics on, a build-time property (set when the app runs,
# Quarkus ignores it): without it the agent reports no demand for the app (DemandAllocationE2E). A build property too.
QUARKUS_METRICS="-Dquarkus.datasource.jdbc.metrics.enabled=true"
FLAGS='"-XX:+UseSerialGC","-XX:TieredStopAtLevel=1","-XX:MaxRAMPercentage=60"'

unmodified() { # DIR TREE: the directory is byte for byte the upstream tree it was copied from
  local tree
  if tree=$(git -C "$ROOT" rev-parse "HEAD:third_party/$1" 2>/dev/null) && [ -z "$(git -C "$ROOT" status --porcelain -- "$public/$1")" ]; then
    [ "$tree" = "$2" ] || die "third_party/$1 differs from its upstream tree $2. Fix: the public apps stay unmodified (third_party/README.md)"
  fi
}

build() { # NAME DIR TREE TAG ENTRYPOINT MAVEN_ARGS...
  local name=$1 rel=$2 dir=$public/$2 tree=$3 tag=$4 entry=$5; shift 5
  local tar="$BUILD_AREA/images/$name.tar"
  if [ ! -s "$tar" ] || [ -n "$(find "$dir" "$0" "$base" -newer "$tar" -type f -not -path '*/target/*' | head -1)" ]; then
    unmodified "$rel" "$tree"
    log "building $tag from third_party/$rel (its own Maven build, tests skipped)"
    "$ROOT/mvnw" -B -q -f "$dir/pom.xml" package -DskipTests "$@" || die "could not build third_party/$rel. Fix: see Maven's error above"
    local app; app=$(mktemp -d)
    case "$name" in
      petclinic) cp "$dir"/target/spring-petclinic-*.jar "$app/app.jar" ;;
      fruits) cp -r "$dir/target/quarkus-app/." "$app/" ;;
    esac
    jvm_archive "$base" "$app" "$tag" "$entry" "$tar"
    rm -rf "$app"
    log "built $tar ($tag, $(du -m "$tar" | cut -f1) MB)"
  fi
}

mkdir -p "$BUILD_AREA/images"
build petclinic spring-petclinic b637cfe016f548a73201f1d29a7ec2260f7fe95a poolbudget/petclinic:dev \
  "[\"java\",$FLAGS,\"-jar\",\"/app/app.jar\"]"
# shellcheck disable=SC2086
build fruits quarkus-quickstarts/hibernate-orm-panache-quickstart 0d3b4829ea267d8533077e5296b2e728ad635090 poolbudget/fruits:dev \
  "[\"java\",$FLAGS,\"-jar\",\"/app/quarkus-run.jar\"]" $QUARKUS $QUARKUS_METRICS
