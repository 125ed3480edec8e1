#!/usr/bin/env bash
# Sourced by the image scripts: docker_archive, which packs a root file system as a docker-archive
# tarball the real node imports (no daemon, no registry).

# docker_archive ROOTFS TAG CONFIG_JSON OUT.tar: one layer, written reproducibly (sorted, mtime 0).
docker_archive() {
  local rootfs=$1 tag=$2 config=$3 out=$4 tmp; tmp=$(mktemp -d)
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$rootfs" -cf "$tmp/layer.tar" .
  local layer; layer=$(sha256sum "$tmp/layer.tar" | cut -c1-64)
  mkdir "$tmp/$layer" && mv "$tmp/layer.tar" "$tmp/$layer/layer.tar"
  printf '{"architecture":"amd64","os":"linux","config":%s,"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$config" "$layer" > "$tmp/config.json"
  local cfg; cfg=$(sha256sum "$tmp/config.json" | cut -c1-64)
  mv "$tmp/config.json" "$tmp/$cfg.json"
  printf '[{"Config":"%s.json","RepoTags":["%s"],"Layers":["%s/layer.tar"]}]' "$cfg" "$tag" "$layer" > "$tmp/manifest.json"
  tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$tmp" -cf "$out.partial" manifest.json "$cfg.json" "$layer"
  mv "$out.partial" "$out"
  rm -rf "$tmp"
}

# minimal_rootfs ROOTFS: what a static or self-contained app needs besides itself: /etc/passwd and /etc/group with
# the non-root user 1001 (home HOME, default /app) and a world-writable /tmp.
minimal_rootfs() {
  local root=$1 home=${2:-/app}
  mkdir -p "$root/etc" "$root/tmp"
  chmod 1777 "$root/tmp"
  printf 'root:x:0:0:root:/root:/sbin/nologin\napp:x:1001:1001:app:%s:/sbin/nologin\n' "$home" > "$root/etc/passwd"
  printf 'root:x:0:\napp:x:1001:\n' > "$root/etc/group"
}

# The JRE base image's configuration (base-images.sh): user 1001, /app, the JRE on the PATH.
JRE_CONFIG='"User":"1001:1001","WorkingDir":"/app","Env":["PATH=/opt/java/bin:/usr/bin:/bin","JAVA_HOME=/opt/java","LANG=C.UTF-8"]'

# jvm_archive BASE.tar APP_DIR TAG ENTRYPOINT_JSON OUT.tar: the JRE base image (one layer, docker_archive's) with
# APP_DIR's contents in /app, as one layer.
jvm_archive() {
  local base=$1 app=$2 tag=$3 entry=$4 out=$5 root tmp layer
  root=$(mktemp -d); tmp=$(mktemp -d)
  tar -xf "$base" -C "$tmp" manifest.json
  layer=$(grep -o '"Layers":\["[^"]*' "$tmp/manifest.json" | cut -d'"' -f4)
  tar -xf "$base" -C "$tmp" "$layer"
  tar -xf "$tmp/$layer" -C "$root" --no-same-owner
  cp -r "$app/." "$root/app/"
  docker_archive "$root" "$tag" "{$JRE_CONFIG,\"Entrypoint\":$entry}" "$out"
  rm -rf "$root" "$tmp"
}
