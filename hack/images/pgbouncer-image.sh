#!/usr/bin/env bash
# Builds the test PgBouncer image (build/images/pgbouncer.tar, poolbudget/pgbouncer:dev) when its inputs are newer:
# Debian's pgbouncer package (installed here if missing) with the libraries it links, a POSIX shell (dash) and
# hack/images/pgbouncer/entrypoint.sh, which writes pgbouncer.ini from variables; non-root user 1001.
set -euo pipefail
source "$(dirname "$0")/../cluster/lib.sh"
source "$(dirname "$0")/archive.sh"
tar="$BUILD_AREA/images/pgbouncer.tar"
entry="$(dirname "$0")/pgbouncer/entrypoint.sh"
mkdir -p "$BUILD_AREA/images"
if [ ! -s "$tar" ] || [ -n "$(find "$entry" "$0" -newer "$tar" -type f | head -1)" ]; then
  [ -x /usr/sbin/pgbouncer ] || apt_install pgbouncer
  command -v dash >/dev/null || die "dash (a POSIX shell) is needed for the PgBouncer image. Fix: apt-get install dash"
  root=$(mktemp -d)
  minimal_rootfs "$root" /tmp
  install -D /usr/sbin/pgbouncer "$root/usr/sbin/pgbouncer"
  install -D "$(readlink -f "$(command -v dash)")" "$root/bin/sh"
  for tool in tr; do install -D "$(readlink -f "$(command -v $tool)")" "$root/bin/$tool"; done
  for lib in $( { ldd /usr/sbin/pgbouncer; ldd "$root/bin/sh"; ldd "$root/bin/tr"; } |
                awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u); do
    cp -L --parents "$lib" "$root"
  done
  install -D -m 0755 "$entry" "$root/entrypoint.sh"
  chroot "$root" /usr/sbin/pgbouncer --version >/dev/null 2>&1 || "$root/usr/sbin/pgbouncer" --version >/dev/null ||
    die "the copied PgBouncer does not start"
  docker_archive "$root" poolbudget/pgbouncer:dev \
    '{"Entrypoint":["/bin/sh","/entrypoint.sh"],"User":"1001:1001","WorkingDir":"/tmp","Env":["PATH=/usr/sbin:/bin"],"ExposedPorts":{"6432/tcp":{}}}' \
    "$tar"
  rm -rf "$root"
  log "built $tar (poolbudget/pgbouncer:dev, $(/usr/sbin/pgbouncer --version | head -1), $(du -m "$tar" | cut -f1) MB)"
fi
