#!/usr/bin/env bash
# The budget follows the load (issue 55): three workloads on one PostgreSQL (hack/postgres.sh --for-bench, loopback),
# each a HikariCP pool in this one JVM under an open-model load that moves between them in phases (A busy, B busy,
# C busy, all busy), under equal static weights, an oracle (per phase the best static split of a sweep, taken as the
# phase starts) and Demand (the operator's own DemandStep, every period and as soon as a pool starts to starve, applied
# shrink-first through the agent's resize code). Prints per phase
# and strategy the busy workloads' p50/p99, time-outs, throughput, PostgreSQL's count every 100 ms, resizes per
# target, then the issue's goals; writes bench/results/demand-allocation.txt. Exits 1 when a goal is missed.
# About 26 minutes with the defaults on 2 cores. Starts the bench PostgreSQL unless it runs, and stops it only then.
#
#   bench/demand-allocation.sh [options]
#     --budget N (12)  --busy-load F (0.85: the busy rate is that part of what the equal share serves, measured
#     first; or --busy-rate R req/s)  --quiet-rate R (20 req/s)  --phase-seconds N (60)
#     --query SQL (SELECT pg_sleep(0.004))  --connection-timeout-ms N (2000)  --period-seconds N (10)
#     --sweep-seconds N (30: each static split's fresh run of a phase)  --lendable-percent N (50)  --borrowing-limit-percent N (100)
#     --strategies equal,oracle,late,demand (late: the oracle's splits 200 ms into each phase)  --out DIR (bench/results)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! (exec 3<>/dev/tcp/127.0.0.1/5435) 2>/dev/null; then
  hack/postgres.sh up --for-bench
  trap 'hack/postgres.sh down --for-bench' EXIT
fi
commit="$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- bench src agent load || echo ' (with uncommitted changes)')"
PGPASSWORD=app java -Xmx1g -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$(bench/classpath.sh)" io.poolbudget.bench.DemandAllocationBench \
  --jdbc-url jdbc:postgresql://127.0.0.1:5435/app --username app --commit "$commit" "$@"
