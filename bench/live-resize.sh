#!/usr/bin/env bash
# Resizing running pools: a weight change, live vs rollout in the same run, for 3 and 20 replicas (issue 44).
# Starts the local cluster with its real node and the demo's PostgreSQL, installs the operator from its image with
# the chart (as users do), runs io.poolbudget.bench.LiveResizeBench and writes bench/results/live-resize.txt.
# About 30 minutes on 2 cores (about 70 Spring Boot pods start in all). Needs root (it runs containers).
#
#   bench/live-resize.sh [--replicas 3,20] [--out DIR]
# Leaves the cluster running; hack/cluster/down.sh stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
source hack/cluster/lib.sh
hack/cluster/up.sh --real-node
hack/postgres.sh up
hack/images/app-image.sh
hack/install-local.sh helm
source "$BUILD_AREA/cluster/env"
# the image just built, even where an earlier install runs the same tag
kubectl -n poolbudget-system rollout restart deployment/poolbudget >/dev/null
kubectl -n poolbudget-system rollout status deployment/poolbudget --timeout=180s >/dev/null
cp=$(bench/classpath.sh)
java -Xmx512m -cp "$cp" io.poolbudget.bench.LiveResizeBench --jdbc jdbc:postgresql://10.88.0.1:5433/app "$@"
