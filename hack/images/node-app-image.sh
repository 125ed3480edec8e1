#!/usr/bin/env bash
# Builds the Node.js example app's image tarball (build/images/node-app.tar, poolbudget/node-app:dev) when its
# sources are newer: examples/node-app with its locked node-postgres from the npm registry (npm ci), on this
# machine's Node.js and the libraries it links; non-root user 1001.
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
source "$(dirname "$0")/archive.sh"
app="$ROOT/examples/node-app"
tar="$BUILD_AREA/images/node-app.tar"
mkdir -p "$BUILD_AREA/images"
if [ ! -s "$tar" ] || [ -n "$(find "$app" "$0" -newer "$tar" -type f -not -path '*/node_modules/*' | head -1)" ]; then
  command -v node >/dev/null && command -v npm >/dev/null ||
    die "Node.js and npm are needed for the Node example app's image. Fix: apt-get install nodejs npm"
  log "building the Node.js example app's image (examples/node-app, node $(node --version))"
  root=$(mktemp -d)
  mkdir -p "$root/app"
  minimal_rootfs "$root" /app
  cp "$app/package.json" "$app/package-lock.json" "$app/server.js" "$root/app/"
  ( cd "$root/app" && npm ci --omit=dev --no-audit --no-fund --loglevel=error ) ||
    die "npm ci failed for examples/node-app. Fix: see npm's error above"
  node=$(readlink -f "$(command -v node)")
  install -D "$node" "$root/usr/bin/node"
  for lib in $(ldd "$node" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u); do
    cp -L --parents "$lib" "$root"
  done
  "$root/usr/bin/node" --version >/dev/null || die "the copied Node.js does not start"
  docker_archive "$root" poolbudget/node-app:dev \
    '{"Entrypoint":["/usr/bin/node","/app/server.js"],"User":"1001:1001","WorkingDir":"/app"}' "$tar"
  rm -rf "$root"
  log "built $tar (poolbudget/node-app:dev, $(du -m "$tar" | cut -f1) MB)"
fi
