#!/usr/bin/env bash
# Proves the real node's teardown leaves alone what it did not start. Before the E2E tier starts the
# node, `plant` puts on the host what another runtime (Docker, kind, k3s, a kubeadm node) would have:
# a process in a /kubepods cgroup of its own, a log in /var/log/containers, a file in
# /run/containerd. After the node and the cluster are down, `check` fails (exit 1, naming each)
# if any of them was killed or removed, then removes them.   hack/cluster/host-sentinel.sh plant|check
set -euo pipefail
source "$(dirname "$0")/lib.sh"
DIR="$BUILD_AREA/host-sentinel"
NAME=poolbudget-sentinel
FILES=(/var/log/containers/$NAME.log /run/containerd/$NAME)

cgroup_dirs() {   # one hierarchy is enough to hold the process: v2's, else v1's pids or memory
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then echo "/sys/fs/cgroup/kubepods/$NAME"
  elif [ -d /sys/fs/cgroup/pids ]; then echo "/sys/fs/cgroup/pids/kubepods/$NAME"
  else echo "/sys/fs/cgroup/memory/kubepods/$NAME"; fi
}

remove() {
  local f d
  [ -f "$DIR/pid" ] && kill -9 "$(cat "$DIR/pid")" 2>/dev/null || true
  sleep 0.2
  for d in $(cgroup_dirs); do rmdir "$d" 2>/dev/null || true; done
  [ -f "$DIR/made-kubepods" ] && rmdir "$(dirname "$(cgroup_dirs)")" 2>/dev/null || true
  for f in "${FILES[@]}"; do rm -f "$f"; done
  [ -f "$DIR/made-dirs" ] && while read -r d; do rmdir "$d" 2>/dev/null || true; done < "$DIR/made-dirs"
  rm -rf "$DIR"
}

case "${1:-}" in
  plant)
    [ "$(id -u)" = 0 ] || die "needs root (it makes a cgroup), as the real node does"
    remove
    mkdir -p "$DIR"
    local_cg=$(cgroup_dirs)
    [ -d "$(dirname "$local_cg")" ] || touch "$DIR/made-kubepods"
    mkdir -p "$local_cg"
    for f in "${FILES[@]}"; do
      [ -d "$(dirname "$f")" ] || { mkdir -p "$(dirname "$f")"; dirname "$f" >> "$DIR/made-dirs"; }
      echo "another runtime's file: the real node's teardown must leave it" > "$f"
    done
    # setsid + nohup: the sentinel outlives this script and Maven's exec, as another runtime's pod would
    setsid nohup sh -c "echo \$\$ > '$local_cg/cgroup.procs' && exec sleep 10800" >/dev/null 2>&1 &
    echo $! > "$DIR/pid"
    sleep 0.3
    grep -q "kubepods/$NAME" "/proc/$(cat "$DIR/pid")/cgroup" || die "could not put the sentinel into $local_cg"
    log "host sentinel planted: pid $(cat "$DIR/pid") in $local_cg, ${FILES[*]}"
    ;;
  check)
    [ -f "$DIR/pid" ] || { log "no host sentinel planted; nothing to check"; exit 0; }
    gone=()
    pid=$(cat "$DIR/pid")
    kill -0 "$pid" 2>/dev/null || gone+=("the process (pid $pid) in $(cgroup_dirs) was killed")
    [ -d "$(cgroup_dirs)" ] || gone+=("the cgroup $(cgroup_dirs) was removed")
    for f in "${FILES[@]}"; do [ -f "$f" ] || gone+=("$f was removed"); done
    remove
    if [ ${#gone[@]} -gt 0 ]; then
      printf '[host-sentinel] the real node'"'"'s teardown touched what it did not start: %s\n' "${gone[@]}" >&2
      exit 1
    fi
    log "host sentinel intact after teardown: another runtime's process, cgroup and files were left alone"
    ;;
  *) die "usage: hack/cluster/host-sentinel.sh plant|check" ;;
esac
