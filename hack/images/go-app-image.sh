#!/usr/bin/env bash
# Builds the Go example apps' image tarball (build/images/pgx-app.tar, poolbudget/pgx-app:dev) when their
# sources are newer, static binaries from the Go module proxy, non-root user 1001:
#   /app             examples/pgx-app, ours (the entrypoint)
#   /url_shortener   pgx's own examples/url_shortener, a public app we did not write, built unmodified from the
#                    pgx module examples/pgx-app pins (go.mod): what a user deploys from its README
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
source "$(dirname "$0")/archive.sh"
app="$ROOT/examples/pgx-app"
tar="$BUILD_AREA/images/pgx-app.tar"
mkdir -p "$BUILD_AREA/images"
if [ ! -s "$tar" ] || [ -n "$(find "$app" "$0" -newer "$tar" -type f | head -1)" ]; then
  require_go
  log "building the Go example app's image (examples/pgx-app)"
  root=$(mktemp -d)
  ( cd "$app" && export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false -trimpath" &&
      go build -ldflags "-s -w" -o "$root/app" . &&
      go build -ldflags "-s -w" -o "$root/url_shortener" github.com/jackc/pgx/v5/examples/url_shortener ) || die "could not build examples/pgx-app. Fix: see the Go error above"
  minimal_rootfs "$root" /
  docker_archive "$root" poolbudget/pgx-app:dev '{"Entrypoint":["/app"],"User":"1001:1001"}' "$tar"
  rm -rf "$root"
  log "built $tar (poolbudget/pgx-app:dev, $(du -m "$tar" | cut -f1) MB)"
fi
