#!/usr/bin/env bash
# Builds the two images that are not Java apps, as docker-archive tarballs the real node imports
# (no daemon, no registry), into build/images:
#   pause.tar     registry.k8s.io/pause:3.10   the sandbox image: Kubernetes' own pause.c, static
#   base/jre-base.tar poolbudget/jre:17            a jlink'ed JRE 17 + the libraries it links, non-root
#                                              user 1001; Jib builds the operator and the example
#                                              app on it (tar:// base image)
# A tarball newer than its inputs is kept. Needs gcc (static glibc) and a JDK 17 with jlink.
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
OUT="$BUILD_AREA/images"
mkdir -p "$OUT/base"
# One at a time: the demo builds the images beside the real node's start, and both want these tarballs.
exec 8>"$OUT/base/.lock"
flock 8

source "$(dirname "$0")/archive.sh"

PAUSE_SRC="$(cd "$MODULES/kubernetes" && GOFLAGS=-mod=mod go list -m -f '{{.Dir}}' k8s.io/kubernetes 2>/dev/null || true)/build/pause/linux/pause.c"
if [ ! -s "$OUT/pause.tar" ]; then
  [ -f "$PAUSE_SRC" ] || die "pause.c not found in the pinned k8s.io/kubernetes module ($PAUSE_SRC). Fix: hack/cluster/build.sh (it downloads the module)"
  command -v gcc >/dev/null || die "gcc is needed to build the pause image. Fix: apt-get install gcc libc6-dev"
  root=$(mktemp -d)
  gcc -Os -static -Wall -Werror -DVERSION="v3.10-poolbudget" -o "$root/pause" "$PAUSE_SRC" ||
    die "could not compile pause.c statically. Fix: apt-get install libc6-dev"
  strip "$root/pause"
  docker_archive "$root" "$PAUSE_IMAGE" '{"Entrypoint":["/pause"],"User":"65535:65535"}' "$OUT/pause.tar"
  rm -rf "$root"
  log "built $OUT/pause.tar ($PAUSE_IMAGE)"
fi

# jdk.jfr: frameworks load jdk.jfr.Event classes (Micronaut 4.10 fails every request without the module).
# The tarball is rebuilt when this list changes (a stamp beside it).
JRE_MODULES=java.se,jdk.crypto.ec,jdk.unsupported,jdk.zipfs,jdk.management,jdk.naming.dns,jdk.jfr
if [ ! -s "$OUT/base/jre-base.tar" ] || [ "$(cat "$OUT/base/jre-base.modules" 2>/dev/null)" != "$JRE_MODULES" ]; then
  command -v jlink >/dev/null || die "jlink is needed for the JRE base image. Fix: install a full JDK 17 (openjdk-17-jdk-headless)"
  root=$(mktemp -d)
  jlink --add-modules "$JRE_MODULES" \
    --strip-debug --no-man-pages --no-header-files --compress=2 --output "$root/opt/java"
  # The shared libraries the JVM links, from this machine (glibc, libstdc++, zlib, the loader).
  for lib in $( { ldd "$root/opt/java/bin/java"; find "$root/opt/java/lib" -name '*.so' -exec ldd {} \; 2>/dev/null; } |
                awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u); do
    cp -L --parents "$lib" "$root"
  done
  mkdir -p "$root/etc" "$root/tmp" "$root/app"
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\napp:x:1001:1001:app:/app:/sbin/nologin\n' > "$root/etc/passwd"
  printf 'root:x:0:\napp:x:1001:\n' > "$root/etc/group"
  "$root/opt/java/bin/java" -version 2>&1 | head -1 >/dev/null || die "the jlink'ed JRE does not start"
  docker_archive "$root" poolbudget/jre:17 \
    '{"User":"1001:1001","WorkingDir":"/app","Env":["PATH=/opt/java/bin:/usr/bin:/bin","JAVA_HOME=/opt/java","LANG=C.UTF-8"]}' \
    "$OUT/base/jre-base.tar"
  echo "$JRE_MODULES" > "$OUT/base/jre-base.modules"
  rm -rf "$root"
  log "built $OUT/base/jre-base.tar (poolbudget/jre:17, $(du -m "$OUT/base/jre-base.tar" | cut -f1) MB)"
fi
