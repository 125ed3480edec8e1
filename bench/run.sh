#!/usr/bin/env bash
# Runs the benchmarks and prints their figures. Usage: bench/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q compile
java -Xms1g -Xmx1g -XX:+UseParallelGC -cp target/classes bench/SizingBenchmark.java
