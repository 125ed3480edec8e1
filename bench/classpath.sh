#!/usr/bin/env bash
# Prints the benchmarks' classpath: the bench module (bench/src, compiled here first) and what it depends on (the
# operator, the load library, their libraries). Offline when the Maven cache already has everything.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp)
trap 'rm -f "$out"' EXIT
args=(-q -B -pl bench -am compile dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$out")
./mvnw -o "${args[@]}" >/dev/null 2>&1 || ./mvnw "${args[@]}" >/dev/null
echo "$PWD/bench/target/classes:$(cat "$out")"
