#!/usr/bin/env bash
# The packaged operator at cluster scale, under a real memory limit: a memory cgroup made the way the kubelet makes
# one for a pod's resources.limits.memory, and the chart's own JVM flags. On the local KWOK cluster:
#   the fleet of bench/scale-fleet.sh (POLICIES namespaces of PER_POLICY Deployments a PoolPolicy selects, EXTRA
#   Deployments, CRONJOBS CronJobs and ROLLOUTS Rollouts nobody targets). Prints: objects created, time until every
#   policy is settled, RSS, peak RSS and live heap after a full GC (NMT's summary too where JVM_FLAGS turn it on),
# OOM kills, scale event -> new size in the template and in status (p50/p99; a warm-up event first, printed apart),
# writes during 30 s of no-op, and a restarted operator's time until every policy was looked at again.
#
#   bench/operator-scale.sh                      (after ./mvnw package -DskipTests; root, for the cgroup)
#   POLICIES=100 PER_POLICY=10 EXTRA=4000 CRONJOBS=0 ROLLOUTS=0 LIMIT_MIB=384 bench/operator-scale.sh
#   SHAPE=app: the EXTRA Deployments carry a real service's pod spec (bench/app-pod-spec.yaml), not a bare container
#   APP=dir: run the operator from another copy of target/quarkus-app (to compare two builds, or build meanwhile)
#   GAP=s: seconds from an event's scale back to the next event (1.5)
#   PROBE=1: time beside the operator a minimal client that does its pass's one write (bench/apiserver-probe.py), to
#     its answer and, as the operator's status is timed, to its own watch showing it; and the operator's excess over it
#   PROBE=policy-status: the same, writing not a ConfigMap of a status's size but the status itself, of a twin of each
#     policy under a copy of the CRD no operator watches: the API server's cost of the operator's very write
set -euo pipefail
cd "$(dirname "$0")/.."
POLICIES=${POLICIES:-1000}; PER_POLICY=${PER_POLICY:-10}; EXTRA=${EXTRA:-40000}; LIMIT_MIB=${LIMIT_MIB:-384}
SAMPLES=${SAMPLES:-100}; GAP=${GAP:-1.5}; SHAPE=${SHAPE:-bare}; APP=${APP:-target/quarkus-app}
[[ $GAP =~ ^[0-9]+([.][0-9]+)?$ ]] || { echo "GAP=$GAP: give the seconds between events as a number, e.g. GAP=4 or GAP=1.5"; exit 2; }
[[ $SAMPLES =~ ^[1-9][0-9]*$ ]] || { echo "SAMPLES=$SAMPLES: give the number of timed scale events, 1 or more, e.g. SAMPLES=100"; exit 2; }
port=18093   # the operator's HTTP port (health, metrics)
# One bench at a time: a second one started while the first still runs (or still cleans up, its operator taking the
# finalizers off) would delete the first's policies, and its own operator would not get the port.
! ss -Hltn "sport = :$port" | grep -q . ||
  { echo "port $port is in use: another bench's operator still runs (or cleans up). Wait for it to end, or stop it"; exit 2; }
JVM_FLAGS=${JVM_FLAGS:-$(sed -n 's/^quarkus.jib.jvm-additional-arguments=//p' src/main/resources/application.properties | tr ',' ' ')}
LABEL=poolbudget.io/bench-scale
# the wall clock in ms, from bash itself: now sets NOW without a process (a fork in the window an event is timed in
# takes CPU from it); ms prints it
now() { local t=${EPOCHREALTIME/[.,]/}; NOW=$(( t / 1000 )); }
ms() { now; echo "$NOW"; }
secs() { awk -v ms="$1" 'BEGIN {printf "%.1f", ms / 1000}'; }
pct() { sort -n | awk -v p="$1" '{v[NR]=$1} END {i=int((NR-1)*p/100)+1; print v[i]}'; }
hack/cluster/up.sh >/dev/null
source build/cluster/env
kubectl apply -f crds/ --server-side >/dev/null

# --- the objects (kept between runs with KEEP_OBJECTS=1 and the same parameters) ------------------------------
work=$(mktemp -d)
ns_of() { printf 'scale-%04d' "$1"; }
source bench/scale-fleet.sh   # the namespaces and the Deployments, CronJobs and Rollouts (kept with KEEP_OBJECTS=1)

# policies an interrupted run left (their finalizer needs a running operator): dropped, so that settling is
# measured from nothing
if [ -n "$(kubectl get poolpolicies -A -o name | head -1)" ]; then
  kubectl get poolpolicies -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name}{"\n"}{end}' |
    xargs -P 4 -n 2 sh -c 'kubectl patch poolpolicy -n "$0" "$1" --type=merge -p "{\"metadata\":{\"finalizers\":null}}" >/dev/null'
  kubectl delete poolpolicies -A --all --wait=false >/dev/null
fi

# --- the operator in a memory cgroup ---------------------------------------------------------------------------
parent=/sys/fs/cgroup/memory$(awk -F: '$2=="memory" {print $3}' /proc/self/cgroup)
cg="$parent/poolbudget-bench-$$"
mkdir "$cg"
echo $((LIMIT_MIB * 1024 * 1024)) > "$cg/memory.limit_in_bytes"
log=build/bench-operator-scale.log
start_operator() {
  ( echo $BASHPID > "$cg/cgroup.procs"
    # MALLOC_ARENA_MAX as the image sets it (quarkus.jib.environment-variables)
    MALLOC_ARENA_MAX=2 POOLBUDGET_HTTP_PORT=$port POOLBUDGET_STABILIZATION_WINDOW=0s exec java $JVM_FLAGS -jar "$APP/quarkus-run.jar" operator ) >> "$log" 2>&1 &
  op=$!
}
: > "$log"
cleanup() {
  # the policies go while an operator still runs to take off their finalizers
  kill -0 "$op" 2>/dev/null && kubectl delete poolpolicies -A --all --wait=true --timeout=120s >/dev/null 2>&1 || true
  kill "$op" ${tw:-} ${sw:-} 2>/dev/null || true; sleep 1
  [ -n "${KEEP_OBJECTS:-}" ] || kubectl delete ns -l "$LABEL" --wait=false >/dev/null 2>&1 || true
  kubectl delete crd poolpolicyprobes.probe.poolbudget.io --ignore-not-found --wait=false >/dev/null 2>&1 || true
  rmdir "$cg" 2>/dev/null || true; rm -rf "$work"
}
trap cleanup EXIT
start_operator
until curl -sf "localhost:$port/q/health/ready" >/dev/null; do
  kill -0 "$op" 2>/dev/null || { echo "the operator exited during start-up (OOM kills: $(awk '/oom_kill /{print $2}' "$cg/memory.oom_control"))"; exit 1; }
  sleep 0.5
done
metric() { { curl -sf "localhost:$port/q/metrics" || true; } | awk -v m="$1" '$1==m || index($1, m"{")==1 {s+=$2} END {printf "%d", s}'; }

# --- the policies, and settling -------------------------------------------------------------------------------
for p in $(seq 1 "$POLICIES"); do
  printf 'apiVersion: poolbudget.io/v1alpha1\nkind: PoolPolicy\nmetadata: {name: db, namespace: %s}\nspec: {database: {cores: 8}, injection: {preset: hikari-env}, targets: [{selector: {matchLabels: {db: orders}}}]}\n---\n' "$(ns_of "$p")"
done > "$work/policies.yaml"
t0=$(ms)
kubectl apply --server-side -f "$work/policies.yaml" >/dev/null
t1=$(ms)
settled() {
  [ "$(kubectl get poolpolicies -A -o jsonpath='{range .items[*]}{.status.targetStates.Applied}{"\n"}{end}' \
        | awk -v n="$PER_POLICY" '$1==n' | wc -l)" = "$POLICIES" ]
}
timed_out=
until settled; do
  kill -0 "$op" 2>/dev/null || break
  [ $(( $(ms) - t1 )) -gt $(( ${TIMEOUT:-900} * 1000 )) ] && { timed_out=1; break; }
  sleep 2
done
if [ -n "$timed_out" ]; then
  echo "created $POLICIES policies in $(secs $((t1 - t0))) s; NOT settled ${TIMEOUT:-900} s after the last: targets by state" \
    "$(kubectl get poolpolicies -A -o jsonpath='{range .items[*]}{.status.targetStates}{"\n"}{end}' | sort | uniq -c | sort -rn | head -3 | tr -s ' \n' ' ')"
elif kill -0 "$op" 2>/dev/null; then
  echo "created $POLICIES policies in $(secs $((t1 - t0))) s; every policy settled (all $PER_POLICY targets Applied) $(secs $(( $(ms) - t1 ))) s after the last"
else
  echo "created $POLICIES policies in $(secs $((t1 - t0))) s; the operator was gone before they settled"
fi

# --- memory ---------------------------------------------------------------------------------------------------
memory() {
  if ! kill -0 "$op" 2>/dev/null; then echo "memory: the operator is gone"; return; fi
  local rss hwm heap
  rss=$(awk '/VmRSS/ {printf "%d", $2/1024}' /proc/$op/status)
  hwm=$(awk '/VmHWM/ {printf "%d", $2/1024}' /proc/$op/status)   # the peak RSS of this process so far
  heap=$(jcmd "$op" GC.class_histogram 2>/dev/null | awk '/^Total/ {printf "%d", $3/1048576}')   # a full GC first
  if [[ "$JVM_FLAGS" == *NativeMemoryTracking* ]]; then   # the JVM's own account of its non-heap memory
    jcmd "$op" VM.native_memory summary 2>/dev/null | awk '/^-/ && /committed=/ {n=$2; sub(/\(.*/, "", n); c=$0; sub(/.*committed=/, "", c); sub(/KB.*/, "", c); printf "%s %d MiB, ", n, c/1024} END {print ""}' | sed 's/^/  native memory (committed): /'
  fi
  # which threads: their names with the numbers taken out, the largest groups
  local threads
  threads=$(jcmd "$op" Thread.print 2>/dev/null | sed -n 's/^"\([^"]*\)".*/\1/p' | sed 's/[0-9][0-9]*/N/g' | sort | uniq -c \
    | sort -rn | head -8 | awk '{c=$1; $1=""; printf "%s%s x%d", (NR > 1 ? "," : ""), $0, c}')
  echo "memory ($1): RSS $rss MiB, peak RSS $hwm MiB ($(ls /proc/$op/task | wc -l) threads), live heap after a full GC $heap MiB, cgroup peak $(( $(cat "$cg/memory.max_usage_in_bytes") / 1048576 )) MiB of $LIMIT_MIB, OOM kills $(awk '/oom_kill /{print $2}' "$cg/memory.oom_control")"
  echo "    threads by name:$threads"
}
memory "settled"
if [ -n "${HISTOGRAM:-}" ] && kill -0 "$op" 2>/dev/null; then
  jcmd "$op" GC.class_histogram | head -25 > "$HISTOGRAM"; echo "class histogram: $HISTOGRAM"
fi

# --- scale events ---------------------------------------------------------------------------------------------
# The API server's own latency histograms (cumulative since it started; a snapshot before and after the events gives
# theirs): how long the writes on the path scale -> template -> status took inside the API server and etcd.
api_histograms() {
  kubectl get --raw /metrics | awk '
    /^apiserver_request_duration_seconds_bucket/ && /verb="APPLY"/ && /resource="(deployments|poolpolicies)"/ {
      r = $0; sub(/.*[{,]resource="/, "", r); sub(/".*/, "", r); s = $0; sub(/.*subresource="/, "", s); sub(/".*/, "", s)
      le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le); k = "apiserver:APPLY:" r (s == "" ? "" : "/" s); h[k " " le] += $NF }
    /^etcd_request_duration_seconds_bucket/ && /operation="update"/ && /[{,]resource="(deployments|poolpolicies)"/ {
      t = $0; sub(/.*[{,]resource="/, "", t); sub(/".*/, "", t); le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le)
      h["etcd:update:" t " " le] += $NF }
    END { for (k in h) print k, h[k] }'
}
api_latency() {   # before-file after-file: p50 and p99 of each histogram's increase, as the bucket bound that holds them
  awk 'NR == FNR {b[$1 FS $2] = $3; next}
       {k = $1; n[k]++; L[k, n[k]] = $2; C[k, n[k]] = $3 - b[k FS $2]}
       END { for (k in n) { tot = 0; for (i = 1; i <= n[k]; i++) if (L[k, i] == "+Inf") tot = C[k, i]
               if (tot == 0) continue; p50 = p99 = ""
               # the buckets in increasing order of their bound
               m = 0; for (i = 1; i <= n[k]; i++) if (L[k, i] != "+Inf") { m++; v[m] = L[k, i] + 0; c[m] = C[k, i] }
               for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t; t = c[i]; c[i] = c[j]; c[j] = t }
               for (i = 1; i <= m; i++) { if (p50 == "" && c[i] >= tot * 0.5) p50 = v[i] * 1000; if (p99 == "" && c[i] >= tot * 0.99) p99 = v[i] * 1000 }
               printf "  %s: %d requests, p50 <= %s ms, p99 <= %s ms\n", k, tot, (p50 == "" ? "inf" : p50), (p99 == "" ? "inf" : p99) } }' "$1" "$2" | sort
}
if kill -0 "$op" 2>/dev/null; then
  : > "$work/template.ms"; : > "$work/status.ms"
  events=build/bench-operator-scale-events.txt; : > "$events"   # each event: its namespace, when the watch saw it (ms)
  api_histograms > "$work/api.before"
  # Two watches for all the events, started once before them, each line stamped on arrival and filed by namespace:
  # no polling interval in the figures. While an event is timed the bench starts no process but a sleep every 0.2 s
  # (the stamps and checks are bash's own). Until 2026-11-26 it started both watches anew for each event, polled
  # every 50 ms with three awk and a date, and stamped each line with a date: some 60 processes an event, on the
  # same 2 cores as the API server and the operator it timed.
  mkdir "$work/t" "$work/s"
  stamp() {   # dir: a line "namespace rest" is appended to dir/namespace as "ms rest"
    local ns rest listed=
    while IFS=' ' read -r ns rest; do
      # the first line comes from the first list (kubectl prints a Deployment list as one List, with no namespace;
      # a list of policies item by item): from that list's version on, the watch misses no change
      [ -n "$listed" ] || { : > "$1/.listed"; listed=1; }
      [ -n "$ns" ] || continue
      now; echo "$NOW $rest" >> "$1/$ns"
    done
  }
  kubectl get deploy -A --field-selector metadata.name=svc-1 -w -o jsonpath='{.metadata.namespace} {.spec.replicas} {.spec.template.spec.containers[0].env[?(@.name=="HIKARI_MAXIMUM_POOL_SIZE")].value}{"\n"}' > >(stamp "$work/t") &
  tw=$!
  kubectl get poolpolicies -A -w -o jsonpath='{.metadata.namespace} {.status.targets[?(@.name=="svc-1")].basisReplicas}{"\n"}' > >(stamp "$work/s") &
  sw=$!
  waited=0
  until [ -e "$work/t/.listed" ] && [ -e "$work/s/.listed" ]; do
    [ $(( waited++ )) -lt 300 ] || { echo "the bench's watches printed nothing in 60 s: no scale events timed"; exit 1; }
    sleep 0.2
  done
  # PROBE=1: beside the operator, bench/apiserver-probe.py does what its pass does on a scale event (receive the
  # Deployment's event, send one status-sized server-side apply) with a minimal client, and times it: the floor any
  # operator's status latency stands on while the cluster reacts to the same scale
  if [ -n "${PROBE:-}" ]; then
    cfg() { kubectl config view --raw --minify -o jsonpath="{$1}"; }
    writes=configmap
    if [ "$PROBE" = policy-status ]; then   # the policies' twins: a copy of their CRD that no operator watches
      writes=policy-status
      sed -e 's/"poolpolicies.poolbudget.io"/"poolpolicyprobes.probe.poolbudget.io"/' -e 's/group: "poolbudget.io"/group: "probe.poolbudget.io"/' \
          -e 's/kind: "PoolPolicy"/kind: "PoolPolicyProbe"/' -e 's/plural: "poolpolicies"/plural: "poolpolicyprobes"/' \
          -e 's/singular: "poolpolicy"/singular: "poolpolicyprobe"/' -e '/shortNames:/,+1d' crds/poolpolicies.poolbudget.io-v1.yml |
        kubectl apply --server-side -f - >/dev/null
      kubectl wait --for=condition=Established crd/poolpolicyprobes.probe.poolbudget.io --timeout=60s >/dev/null
    fi
    WRITES=$writes python3 bench/apiserver-probe.py "$(cfg .clusters[0].cluster.server)" "$(cfg .clusters[0].cluster.certificate-authority)" \
      "$(cfg .users[0].user.client-certificate)" "$(cfg .users[0].user.client-key)" > "$work/probe" 2>&1 &
    pw=$!
    until grep -q listening "$work/probe" 2>/dev/null; do kill -0 "$pw" || { cat "$work/probe"; exit 1; }; sleep 0.2; done
  fi
  # CPU while the events run: the operator's (utime + stime of its process) and the machine's (all but idle and
  # iowait), in clock ticks, as % of one core
  ticks() { awk '{print $14 + $15}' "/proc/$op/stat"; }
  busy() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8 + $9}' /proc/stat; }
  # Event 0 is a warm-up, timed and printed apart, not in the figures: the first scale event an operator process
  # sees runs code its start-up and settling did not (its status took 73-239 ms in 11 runs, median 162, p50 41-54
  # ms; the probe's first 27-72 ms): a cost paid once per process, not per event
  for i in $(seq 0 "$SAMPLES"); do
    [ "$i" = 1 ] && { c0=$(ticks); m0=$(busy); now; w0=$NOW; }
    ns=$(ns_of $(( (i * 7919) % POLICIES + 1 )))
    want=$(( i % 3 + 2 ))
    : > "$work/t/$ns"; : > "$work/s/$ns"
    now; s0=$NOW
    kubectl scale deploy svc-1 -n "$ns" --replicas=$want >/dev/null
    tdone=""; sdone=""
    while [ -z "$tdone" ] || [ -z "$sdone" ]; do
      sleep 0.2
      # from the watch event that shows the new replicas (the API server has the scale; the size in it is the one
      # before) to the first that shows a new size / the new replicas in the status
      seen=""; before=""; tdone=""; sdone=""
      while read -r t r size; do
        [ -z "$seen" ] && [ "$r" = "$want" ] && { seen=$t; before=$size; }
        [ -n "$seen" ] && [ "$size" != "$before" ] && { tdone=$(( t - seen )); break; }
      done < "$work/t/$ns"
      if [ -n "$seen" ]; then
        while read -r t r; do
          [ "$t" -ge $(( seen - 1000 )) ] && [ "$r" = "$want" ] && { sdone=$(( t > seen ? t - seen : 0 )); break; }
        done < "$work/s/$ns"
      fi
      now; [ $(( NOW - s0 )) -gt 30000 ] && { tdone=${tdone:-30000}; sdone=${sdone:-30000}; }
    done
    if [ "$i" = 0 ]; then
      warm="template +$tdone ms, status +$sdone ms ($ns)"; warm_ns=$ns
      echo "$ns $want seen=$seen template=+$tdone status=+$sdone warm-up" >> "$events"
    else
      echo "$tdone" >> "$work/template.ms"; echo "$sdone" >> "$work/status.ms"
      echo "$ns $want seen=$seen template=+$tdone status=+$sdone" >> "$events"
    fi
    kubectl scale deploy svc-1 -n "$ns" --replicas=0 >/dev/null
    sleep "$GAP"   # GAP: from the scale back to the next event (1.5 s: its rollouts, 1 s, and the ~0.5 s each event's
    # own watches took to start when it started them; a longer GAP times each event on a cluster that has settled)
  done
  c1=$(ticks); m1=$(busy); now; w1=$NOW
  kill "$tw" "$sw" ${pw:-} 2>/dev/null; wait "$tw" "$sw" ${pw:-} 2>/dev/null || true
  # p99 as the value at rank int((n-1) x 0.99) + 1: of 100 events the 99th, a p99; of 20 it was the 19th, nearer a p95
  echo "scale event -> new size in the template: p50 $(pct 50 < "$work/template.ms") ms, p99 $(pct 99 < "$work/template.ms") ms, max $(pct 100 < "$work/template.ms") ms; -> status: p50 $(pct 50 < "$work/status.ms") ms, p99 $(pct 99 < "$work/status.ms") ms, max $(pct 100 < "$work/status.ms") ms ($SAMPLES events, the next $GAP s after each scale back; from the watch event showing the new replicas to the watch event showing the change)"
  echo "  the first scale event this operator process saw (a warm-up, not in the figures above): $warm"
  if [ -n "${PROBE:-}" ]; then
    awk '$3 != "" && $3 !~ /^2/ {bad++} END {if (bad) print "  the probe: " bad " applies failed"}' "$work/probe"
    # the timed events' lines: not "listening", not the warm-up's (the first of its namespace)
    awk -v w="$warm_ns" '$1 != "listening" && !($1 == w && !skipped++)' "$work/probe" > "$work/probe.timed"
    awk '{print $2}' "$work/probe.timed" > "$work/probe.ms"
    cp "$work/probe" build/bench-operator-scale-probe.txt   # each event's namespace and ms, beside the events file
    echo "  the probe (a minimal client doing the pass's one write, beside it): Deployment event -> its status-sized apply answered: p50 $(pct 50 < "$work/probe.ms") ms, p99 $(pct 99 < "$work/probe.ms") ms, max $(pct 100 < "$work/probe.ms") ms ($(wc -l < "$work/probe.ms") events)"
    # from one watch event to another, as the operator's status is timed above: the floor that figure compares with
    awk '{print ($4 == "" ? "none" : $4)}' "$work/probe.timed" > "$work/probe.watched"
    unseen=$(grep -cvx '[0-9]*' "$work/probe.watched" || true)
    [ "$unseen" = 0 ] || echo "  the probe: $unseen applies its watch did not show within 10 s"
    grep -x '[0-9]*' "$work/probe.watched" > "$work/probe.watched.ms" || true
    echo "  the probe: Deployment event -> its own watch shows the apply: p50 $(pct 50 < "$work/probe.watched.ms") ms, p99 $(pct 99 < "$work/probe.watched.ms") ms, max $(pct 100 < "$work/probe.watched.ms") ms ($(wc -l < "$work/probe.watched.ms") events)"
    # event by event (both in the order of the events): the operator's status less the probe's, what the operator
    # itself adds on the same event; a slow event of the cluster's is slow for both and adds nothing here
    if [ "$(wc -l < "$work/probe.watched")" = "$(wc -l < "$work/status.ms")" ]; then
      paste -d ' ' "$work/status.ms" "$work/probe.watched" | awk '$2 != "none" {print $1 - $2}' > "$work/excess.ms"
      echo "  the operator's status less the probe's, event by event: p50 $(pct 50 < "$work/excess.ms") ms, p90 $(pct 90 < "$work/excess.ms") ms, p99 $(pct 99 < "$work/excess.ms") ms; events where the probe was over 100 ms: $(awk '$1 > 100' "$work/probe.watched.ms" | wc -l), the operator: $(awk '$1 > 100' "$work/status.ms" | wc -l)"
    else
      echo "  the operator's status less the probe's: not paired ($(wc -l < "$work/status.ms") events, $(wc -l < "$work/probe.watched") probe lines)"
    fi
  fi
  awk -v c=$((c1 - c0)) -v m=$((m1 - m0)) -v w=$((w1 - w0)) -v hz="$(getconf CLK_TCK)" 'BEGIN {
    printf "  CPU during the scale events (%.0f s), %% of one core: the operator %.1f, the machine %.1f of %d\n",
      w / 1000, c * 100000 / hz / w, m * 100000 / hz / w, 100 * '"$(nproc)"' }'
  api_histograms > "$work/api.after"
  echo "  during the scale events, by the API server's histograms (bucket bounds):"
  api_latency "$work/api.before" "$work/api.after"
  sleep 10
fi

# --- no-op, restart -------------------------------------------------------------------------------------------
if kill -0 "$op" 2>/dev/null; then
  w0=$(metric poolbudget_writes_total); sleep 30; w1=$(metric poolbudget_writes_total)
  if kill -0 "$op" 2>/dev/null; then
    echo "writes during 30 s of no-op: $((w1 - w0))"
  else
    echo "writes during 30 s of no-op: not known, the operator was gone before their end (OOM kills: $(awk '/oom_kill /{print $2}' "$cg/memory.oom_control"))"
  fi
  memory "after the scale events"
  kill "$op" 2>/dev/null || true; wait "$op" 2>/dev/null || true
  t0=$(ms); start_operator
  # every policy had a pass: poolbudget_policies counts the policies with one (a count of passes reached $POLICIES
  # before that, up to 1.7 s earlier: a start-up runs two or three passes of many policies, none yet of others)
  until [ "$(metric poolbudget_policies)" -ge "$POLICIES" ]; do
    kill -0 "$op" 2>/dev/null || break; sleep 0.5
  done
  echo "restarted operator: every policy looked at again $(secs $(( $(ms) - t0 ))) s after the start (writes: $(metric poolbudget_writes_total))"
  memory "after the restart"
fi
echo "OOM kills in all: $(awk '/oom_kill /{print $2}' "$cg/memory.oom_control")"
