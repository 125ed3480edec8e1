#!/usr/bin/env bash
# Runs the benchmarks and prints their figures. Usage: bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
java -Xms1g -Xmx1g -XX:+UseParallelGC -cp "$(bench/classpath.sh)" io.poolbudget.bench.SizingBenchmark
