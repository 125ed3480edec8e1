#!/usr/bin/env bash
# Right-sizing on fleets: 2, 10 and 20 simulated pods with the request threads of a real app, at 50,
# 70 and 90 % of the fleet's own capacity (the most TPS any pool size gives with all its request
# threads sending back to back), against a real PostgreSQL on loopback
# (hack/postgres.sh --for-bench); every configuration three times, runs interleaved, medians and
# spreads printed. Writes bench/results/fleet.txt, fleet.csv and fleet.svg (drawn from the CSV:
# java -cp "$(bench/classpath.sh)" io.poolbudget.bench.FleetPlot bench/results/fleet.csv redraws it).
#
#   bench/fleet.sh [options]     (about 35 minutes with the defaults on 2 cores)
#     --fleets 2,10,20  --loads 50,70,90  --runs 3  --seconds 8  --warmup 2  --threads-per-pod 50
#     --static 1,2,3,4  --connection-timeout-ms 2000  --scale 10  --levels 1,2,4,8,16
#     --capacity-seconds 6
#     --out DIR (bench/results)  --keep-postgres (leave the server running)
set -euo pipefail
cd "$(dirname "$0")/.."
keep=false
args=()
for a in "$@"; do if [ "$a" = --keep-postgres ]; then keep=true; else args+=("$a"); fi; done
hack/postgres.sh up --for-bench
$keep || trap 'hack/postgres.sh down --for-bench' EXIT
cp=$(bench/classpath.sh)
PGPASSWORD=app java -Xmx2g -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$cp" \
  io.poolbudget.bench.FleetBench --jdbc-url jdbc:postgresql://127.0.0.1:5435/app --username app "${args[@]}"
out=bench/results
for ((i = 0; i < ${#args[@]}; i++)); do [ "${args[$i]}" = --out ] && out=${args[$((i + 1))]}; done
java -cp "$cp" io.poolbudget.bench.FleetPlot "$out/fleet.csv"
