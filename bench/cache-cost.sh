#!/usr/bin/env bash
# What the operator's caches hold per object of each workload kind, and what one object costs in a list response,
# whole and as metadata only (bench/src/.../CacheCostBench.java). Reads the fleet bench/operator-scale.sh leaves on
# the local cluster: run that with KEEP_OBJECTS=1 first (or at the same time: this only lists).
#
#   bench/cache-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source build/cluster/env
cp=$(bench/classpath.sh)
# the serial collector, so that System.gc() is one whole collection and the heap in use after it is what is live
exec java -XX:+UseSerialGC -Xmx1g -cp "$cp" io.poolbudget.bench.CacheCostBench
