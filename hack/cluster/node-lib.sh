# The real node's parts, for node.sh. Source it after lib.sh and cluster_vars; do not run it.
# See ../shared/notes/real-node.md for why each setting is what it is.

NODE_NAME=poolbudget-node
NODE_DIR="$BUILD_AREA/node"
BRIDGE=pb0
SOCK="$NODE_DIR/containerd/containerd.sock"
IMAGES_DIR="$BUILD_AREA/images"
NODE_PORTS=(10250 10248 10249 10256)
# Paths the kubelet, containerd and CNI use whatever they are told. Teardown removes only those that
# did not exist before the node started (recorded in $NODE_DIR/host-paths-before), and from a
# /var/log/containers that did, only the links into this node's pod logs.
FIXED_PATHS=(/run/containerd /var/lib/cni/results /var/lib/kubelet/device-plugins /var/log/containers /var/lib/kubelet /var/lib/cni)
# The pods' cgroups live under a parent of this node's own (kubelet cgroupRoot), never under the
# /kubepods another kubelet (kind, k3s, a kubeadm node) uses: teardown kills and removes only these.
CGROUP_PARENT=poolbudget
DROP_RULE=(FORWARD -s "$POD_CIDR" ! -d "$POD_CIDR" -m comment --comment poolbudget-node-stays-local -j DROP)

# Where pods land. On the test cluster the real node is tainted poolbudget.io/real-node=true:NoSchedule: only the
# E2E tier's pods, which select and tolerate it, run there, and the rest keep the fast fake nodes. On the demo
# cluster it is the other way round, since the demo is for the user's own apps too: the real node takes any pod,
# and the fake nodes carry KWOK's own taint kwok.x-k8s.io/node=fake:NoSchedule while the real node is joined, so a
# pod that does not tolerate it never lands where no container runs. The ITs' cluster never has a real node.
FAKE_TAINT_KEY=kwok.x-k8s.io/node
node_real_taints() {
  if [ "$CLUSTER_NAME" = poolbudget ]; then echo '[]'
  else echo '[{key: poolbudget.io/real-node, value: "true", effect: NoSchedule}]'; fi
}
node_fake_nodes() { # every node but the real one
  "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" --request-timeout=10s get nodes \
    -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | grep -vx "$NODE_NAME" || true
}
node_taint_fakes() { # on|off: the demo cluster's fake nodes closed to pods without a toleration, or open again
  local fakes k=("$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" --request-timeout=10s)
  fakes=$(node_fake_nodes)
  [ -n "$fakes" ] || return 0
  if [ "$1" = on ]; then
    # shellcheck disable=SC2086
    "${k[@]}" taint nodes $fakes "$FAKE_TAINT_KEY=fake:NoSchedule" --overwrite >/dev/null
    "${k[@]}" taint nodes "$NODE_NAME" poolbudget.io/real-node:NoSchedule- >/dev/null 2>&1 || true  # an older registration's
  else
    # shellcheck disable=SC2086
    "${k[@]}" taint nodes $fakes "$FAKE_TAINT_KEY:NoSchedule-" >/dev/null 2>&1 || true
  fi
}

node_running() { [ -f "$NODE_DIR/pids/kubelet.pid" ] && kill -0 "$(cat "$NODE_DIR/pids/kubelet.pid")" 2>/dev/null; }

# Processes of another container runtime or kubelet on this host (not this node's own), one a line.
node_foreign_runtime() {
  local pid ours
  ours=" $(cat "$NODE_DIR"/pids/*.pid 2>/dev/null | tr '\n' ' ') "
  for pid in $(pgrep -x 'kubelet|containerd|dockerd|crio|k3s|k3s-server|k3s-agent|k0s|kube-proxy' 2>/dev/null); do
    [[ "$ours" == *" $pid "* ]] && continue
    echo "pid $pid: $(ps -o args= -p "$pid" 2>/dev/null | cut -c1-100)"
  done
}

# Every cgroup hierarchy's directory for the pods' parent cgroup.
node_cgroup_parents() {
  local d
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    echo "/sys/fs/cgroup/$CGROUP_PARENT"
  else
    for d in /sys/fs/cgroup/*/; do
      [ -L "${d%/}" ] || [ ! -f "$d/cgroup.procs" ] || echo "${d%/}/$CGROUP_PARENT"
    done
  fi
}

# The kubelet requires its cgroupRoot to exist in every hierarchy; a v1 cpuset starts empty, so give it its parent's.
node_make_cgroup_parent() {
  local d
  for d in $(node_cgroup_parents); do
    mkdir -p "$d"
    if [ -f "$d/cpuset.cpus" ] && [ -z "$(cat "$d/cpuset.cpus")" ]; then
      cat "$(dirname "$d")/cpuset.cpus" > "$d/cpuset.cpus"
      cat "$(dirname "$d")/cpuset.mems" > "$d/cpuset.mems"
    fi
  done
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then   # v2: the parent gets the controllers the kubelet needs
    echo "+cpu +memory +pids +cpuset" > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
  fi
}

# Can this machine run containers? Each failure names its cause and fix.
node_preflight() {
  local foreign; foreign=$(node_foreign_runtime)
  [ -z "$foreign" ] || die "another container runtime or kubelet runs on this machine (${foreign//$'\n'/; }). The real node would share its fixed paths (/run/containerd, /var/lib/kubelet, /var/log/containers), its iptables chains (KUBE-*, CNI-*) and ports 10250/10256. Fix: run the real node on a machine or VM of its own (a CI runner, a throwaway VM), or stop that runtime first; the KWOK-only cluster (hack/cluster/up.sh) needs none of this"
  [ "$(id -u)" = 0 ] || die "the real node needs root (it mounts filesystems, makes network namespaces and cgroups). Fix: run as root, or use the KWOK-only cluster (hack/cluster/up.sh)"
  local eff; eff=$((16#$(awk '/^CapEff/ {print $2}' /proc/self/status)))
  (( eff >> 21 & 1 )) || die "this process lacks CAP_SYS_ADMIN, so containers cannot mount their root filesystems. Fix: run in a privileged environment"
  (( eff >> 12 & 1 )) || die "this process lacks CAP_NET_ADMIN, so pods cannot get a network. Fix: run in a privileged environment"
  grep -qw overlay /proc/filesystems || modprobe overlay 2>/dev/null ||
    die "the kernel has no overlay filesystem, which containerd's snapshotter needs. Fix: load it (modprobe overlay) or use a kernel with CONFIG_OVERLAY_FS"
  [ -d /sys/fs/cgroup/memory ] || [ -f /sys/fs/cgroup/cgroup.controllers ] ||
    die "no cgroup hierarchy is mounted at /sys/fs/cgroup. Fix: mount cgroups (v1 or v2) there"
  node_install_packages
  mkdir -p "$NODE_DIR/probe"/{l,u,w,m}
  if ! mount -t overlay overlay -o "lowerdir=$NODE_DIR/probe/l,upperdir=$NODE_DIR/probe/u,workdir=$NODE_DIR/probe/w" \
       "$NODE_DIR/probe/m" 2>/dev/null; then
    rm -rf "$NODE_DIR/probe"
    die "$NODE_DIR's filesystem ($(stat -f -c %T "$BUILD_AREA")) cannot hold an overlay upper directory. Fix: put the project on ext4 or xfs"
  fi
  umount "$NODE_DIR/probe/m"; rm -rf "$NODE_DIR/probe"
}

# containerd, runc, the CNI plugins, iptables and conntrack from Debian.
node_install_packages() {
  local need=()
  command -v containerd >/dev/null || need+=(containerd)
  command -v runc >/dev/null || need+=(runc)
  [ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
  command -v iptables >/dev/null || need+=(iptables)
  command -v conntrack >/dev/null || need+=(conntrack)
  [ ${#need[@]} = 0 ] && return 0
  apt_install "${need[@]}"
  return 0
}

# A client certificate signed by the cluster's CA, and a kubeconfig that uses it.
node_kubeconfig() { # NAME CN ORG
  local name=$1 cn=$2 org=$3 pki="$CLUSTER_STATE/pki" out="$NODE_DIR/pki"
  openssl req -new -newkey rsa:2048 -nodes -keyout "$out/$name.key" -subj "/O=$org/CN=$cn" -out "$out/$name.csr" 2>/dev/null
  openssl x509 -req -in "$out/$name.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 30 \
    -out "$out/$name.crt" 2>/dev/null
  local server; server=$("$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" config view --minify -o jsonpath='{.clusters[0].cluster.server}')
  cat > "$NODE_DIR/$name.kubeconfig" <<YAML
apiVersion: v1
kind: Config
clusters: [{name: local, cluster: {server: "$server", certificate-authority: "$pki/ca.crt"}}]
users: [{name: $name, user: {client-certificate: "$out/$name.crt", client-key: "$out/$name.key"}}]
contexts: [{name: local, context: {cluster: local, user: $name}}]
current-context: local
YAML
}

node_write_configs() {
  mkdir -p "$NODE_DIR"/{pki,pids,logs,cni/net.d,cni/ipam,containerd,kubelet,pod-logs}
  cat /proc/sys/net/ipv4/ip_forward > "$NODE_DIR/ip_forward.orig"
  echo "$CLUSTER_NAME" > "$NODE_DIR/cluster"
  node_kubeconfig kubelet "system:node:$NODE_NAME" system:nodes
  node_kubeconfig kube-proxy system:kube-proxy system:node-proxier
  # Pods route only to their bridge and the Service range: nothing they send can leave the machine.
  cat > "$NODE_DIR/cni/net.d/10-poolbudget.conflist" <<JSON
{"cniVersion": "0.4.0", "name": "poolbudget", "plugins": [
  {"type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false, "hairpinMode": true,
   "ipam": {"type": "host-local", "dataDir": "$NODE_DIR/cni/ipam",
            "ranges": [[{"subnet": "$POD_CIDR", "gateway": "$BRIDGE_IP"}]], "routes": [{"dst": "$SERVICE_CIDR"}]}},
  {"type": "portmap", "capabilities": {"portMappings": true}}]}
JSON
  cat > "$NODE_DIR/containerd/config.toml" <<TOML
version = 2
root = "$NODE_DIR/containerd/root"
state = "$NODE_DIR/containerd/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
                    "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "$SOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$NODE_DIR/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
TOML
  printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' > "$NODE_DIR/resolv.conf"
  cat > "$NODE_DIR/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $BRIDGE_IP
healthzBindAddress: 127.0.0.1
readOnlyPort: 0
authentication: {anonymous: {enabled: false}, webhook: {enabled: true}, x509: {clientCAFile: "$CLUSTER_STATE/pki/ca.crt"}}
authorization: {mode: Webhook}
containerRuntimeEndpoint: unix://$SOCK
cgroupDriver: cgroupfs
cgroupRoot: /$CGROUP_PARENT
failCgroupV1: false
failSwapOn: false
resolvConf: $NODE_DIR/resolv.conf
podLogsDir: $NODE_DIR/pod-logs
maxPods: 60
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "50Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%"}
registerWithTaints: $(node_real_taints)
YAML
  cat > "$NODE_DIR/kube-proxy.yaml" <<YAML
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
bindAddress: 127.0.0.1
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
clientConnection: {kubeconfig: "$NODE_DIR/kube-proxy.kubeconfig"}
conntrack: {maxPerCore: 0}
YAML
}

node_spawn() { # NAME CMD...: in the background, logged, with a pid file
  local name=$1; shift
  nohup "$@" >"$NODE_DIR/logs/$name.log" 2>&1 &
  echo $! > "$NODE_DIR/pids/$name.pid"
}

node_wait() { # WHAT SECONDS TEST...
  local what=$1 limit=$2; shift 2
  local end=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $end ] || { tail -n 15 "$NODE_DIR/logs/"*.log >&2; node_down >/dev/null 2>&1; die "$what did not happen within ${limit}s (logs above; all in $NODE_DIR/logs)"; }
    sleep 0.2
  done
}

node_start() {
  "$ROOT/hack/images/base-images.sh"
  local p
  for p in "${NODE_PORTS[@]}"; do
    [ -z "$(ss -Hltn "sport = :$p" 2>/dev/null)" ] ||
      die "port $p is taken ($(ss -Hltnp "sport = :$p" | grep -o 'users:.*' || true)); the real node needs 10250, 10248, 10249 and 10256. Fix: stop what holds it (another kubelet?)"
  done
  node_write_configs
  local path
  for path in "${FIXED_PATHS[@]}"; do [ ! -e "$path" ] || echo "$path"; done > "$NODE_DIR/host-paths-before"
  node_make_cgroup_parent
  # The bridge exists before any pod, so PostgreSQL can listen on its gateway address from the start.
  ip link add "$BRIDGE" type bridge 2>/dev/null || true
  ip addr replace "$BRIDGE_IP/${POD_CIDR#*/}" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  iptables -C "${DROP_RULE[@]}" 2>/dev/null || iptables -I "${DROP_RULE[@]}"
  node_spawn containerd containerd --config "$NODE_DIR/containerd/config.toml"
  node_wait "containerd answering on $SOCK" 30 ctr --address "$SOCK" version
  node_import_images
  node_spawn kubelet "$BIN/kubelet" --config "$NODE_DIR/kubelet.yaml" --kubeconfig "$NODE_DIR/kubelet.kubeconfig" \
    --root-dir "$NODE_DIR/kubelet" --cert-dir "$NODE_DIR/kubelet/pki" --hostname-override "$NODE_NAME" --node-ip "$BRIDGE_IP" \
    --node-labels poolbudget.io/real-node=true
  node_spawn kube-proxy "$BIN/kube-proxy" --config "$NODE_DIR/kube-proxy.yaml"
  node_wait "node $NODE_NAME turning Ready" 60 "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" wait --for=condition=Ready \
    "node/$NODE_NAME" --timeout=1s
}

# Image tarballs made by the build (build/images/*.tar) go into containerd's k8s.io namespace.
node_import_images() {
  local tar
  for tar in "$IMAGES_DIR"/*.tar; do
    [ -f "$tar" ] || continue
    [ "$tar" -nt "$NODE_DIR/containerd/imported-$(basename "$tar")" ] || continue
    ctr --address "$SOCK" -n k8s.io images import --all-platforms "$tar" >/dev/null ||
      die "could not import image $tar into the node's containerd"
    touch "$NODE_DIR/containerd/imported-$(basename "$tar")"
  done
}

# Stops everything node_start started and removes what it left on the host. Idempotent.
node_down() {
  [ -d "$NODE_DIR" ] || [ -e /sys/class/net/$BRIDGE ] || { log "no real node; nothing to do"; return 0; }
  local f pid
  if [ -f "$KUBECONFIG_OUT" ]; then
    "$BIN/kubectl" --kubeconfig "$KUBECONFIG_OUT" --request-timeout=5s delete node "$NODE_NAME" --wait=false >/dev/null 2>&1 || true
  fi
  node_stop kubelet
  node_stop kube-proxy
  # Containers first (while containerd still knows them), then whatever is left in the pods' cgroups.
  if [ -S "$SOCK" ]; then
    for f in $(ctr --address "$SOCK" -n k8s.io tasks ls -q 2>/dev/null); do
      ctr --address "$SOCK" -n k8s.io tasks kill -s SIGKILL "$f" >/dev/null 2>&1 || true
    done
  fi
  for f in $(find $(node_cgroup_parents) -name cgroup.procs 2>/dev/null); do
    for pid in $(cat "$f" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
  done
  node_stop containerd
  pkill -9 -f "containerd-shim-runc-v2 .*-address $SOCK" 2>/dev/null || true
  # Chain names (KUBE-*, CNI-*) and network namespaces (cni-*) are shared by every kubelet: with another runtime
  # running now, leave them to it and remove only what is this node's by path.
  local foreign; foreign=$(node_foreign_runtime)
  [ -z "$foreign" ] || log "another runtime runs here (${foreign//$'\n'/; }): leaving KUBE-/CNI- chains and cni- namespaces alone"
  [ -n "$foreign" ] || [ ! -x "$BIN/kube-proxy" ] || "$BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true
  node_unmount "$foreign"
  ip link del "$BRIDGE" 2>/dev/null || true
  while iptables -D "${DROP_RULE[@]}" 2>/dev/null; do :; done
  [ -n "$foreign" ] || node_clean_chains
  [ -f "$NODE_DIR/ip_forward.orig" ] && cat "$NODE_DIR/ip_forward.orig" > /proc/sys/net/ipv4/ip_forward
  # This node's cgroups: deepest first; rmdir only removes empty ones.
  find $(node_cgroup_parents) -depth -type d -exec rmdir {} + 2>/dev/null || true
  node_remove_fixed_paths "$foreign"
  if grep -q " $NODE_DIR" /proc/mounts; then
    die "mounts under $NODE_DIR remain ($(grep -c " $NODE_DIR" /proc/mounts)); not deleting it. Fix: umount them and re-run down"
  fi
  rm -rf --one-file-system "$NODE_DIR"
  log "real node stopped; host cleaned (processes, mounts, bridge $BRIDGE, iptables rules, cgroups)"
}

# The fixed paths this node created; from those that were there before, only what points into $NODE_DIR.
node_remove_fixed_paths() { # [FOREIGN]: another runtime runs now, which may use them
  local path before="$NODE_DIR/host-paths-before"
  if [ -d /var/log/containers ]; then
    find /var/log/containers -maxdepth 1 -type l -lname "$NODE_DIR/*" -delete 2>/dev/null || true
  fi
  [ -z "${1:-}" ] || return 0
  if [ ! -f "$before" ]; then
    log "no record of the host's paths before this node started: leaving ${FIXED_PATHS[*]} as they are"
    return 0
  fi
  for path in "${FIXED_PATHS[@]}"; do
    grep -qxF "$path" "$before" && continue
    case "$path" in
      /var/lib/kubelet|/var/lib/cni) rmdir "$path/pki" "$path" 2>/dev/null || true ;;   # only if left empty
      *) rm -rf "$path" ;;
    esac
  done
}

node_stop() {
  local f="$NODE_DIR/pids/$1.pid" pid
  [ -f "$f" ] || return 0
  pid=$(cat "$f")
  if kill "$pid" 2>/dev/null; then
    timeout 15 tail --pid="$pid" -f /dev/null 2>/dev/null || kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

node_unmount() { # [FOREIGN]: with another runtime running, only the mounts under $NODE_DIR
  local m where="$NODE_DIR"
  [ -n "${1:-}" ] || where="$NODE_DIR|/run/containerd|/run/netns/cni-|/var/lib/kubelet"
  for m in $(awk '{print $2}' /proc/mounts | grep -E "^($where)" | sort -r); do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
  done
  [ -n "${1:-}" ] || for m in /run/netns/cni-*; do [ -e "$m" ] && rm -f "$m"; done
  return 0
}

# Chains the kubelet (KUBE-FIREWALL, KUBE-KUBELET-CANARY, ...), kube-proxy and the portmap plugin
# (CNI-*) leave behind: first the jumps from the built-in chains, then the chains themselves.
node_clean_chains() {
  local ipt t rule chain
  for ipt in iptables ip6tables; do
    command -v "$ipt" >/dev/null || continue
    for t in nat filter mangle; do
      { "$ipt" -t "$t" -S 2>/dev/null | grep -E -- '-j (KUBE|CNI)-' |
        grep -E '^-A (PREROUTING|OUTPUT|POSTROUTING|FORWARD|INPUT) ' || true; } |
        while read -r rule; do eval "$ipt -t $t ${rule/-A /-D }" 2>/dev/null || true; done
      for chain in $("$ipt" -t "$t" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^(KUBE|CNI)-/ {print $2}'); do
        "$ipt" -t "$t" -F "$chain" 2>/dev/null || true
      done
      for chain in $("$ipt" -t "$t" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^(KUBE|CNI)-/ {print $2}'); do
        "$ipt" -t "$t" -X "$chain" 2>/dev/null || true
      done
    done
  done
}
