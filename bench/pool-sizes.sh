#!/usr/bin/env bash
# Do right-sized static pools make the database faster? One run against a real PostgreSQL on
# loopback (hack/postgres.sh --for-bench): calibrate's sweep, then, at each offered load, the same
# open-model load on N simulated pods with HikariCP's default of 10 connections each, with the pool
# size `plan` computes from the formula budget, with the pool size from the calibrated budget, and
# with a sweep of sizes.
# Prints the table and writes it to bench/results/ (pool-sizes.txt, .csv, .svg, calibrate.svg).
# Exits 1 when a goal is missed at some load: calibrated >= 95 % of the sweep's best TPS, p99 <=
# 1/3 of the default's, no acquire time-outs.
#
#   bench/pool-sizes.sh [options]      (about 12 minutes with the defaults)
#     --pods N (2)  --cores N (2)  --scale N (10)  --rates R,R (2000,2800 requests/s: one that every
#     pool size here serves, one near what the right-sized pools serve)  --seconds N (20)  --warmup N (5)
#     --connection-timeout-ms N (2000)  --threads-per-pod N (200)  --sweep 1,2,3,4,6,8,10
#     --out DIR (bench/results)  --keep-postgres (leave the server running)
set -euo pipefail
cd "$(dirname "$0")/.."
keep=false
args=()
for a in "$@"; do if [ "$a" = --keep-postgres ]; then keep=true; else args+=("$a"); fi; done
hack/postgres.sh up --for-bench
$keep || trap 'hack/postgres.sh down --for-bench' EXIT
PGPASSWORD=app java -Xmx1g -Djava.util.logging.manager=org.jboss.logmanager.LogManager -cp "$(bench/classpath.sh)" \
  io.poolbudget.bench.PoolSizesBench --jdbc-url jdbc:postgresql://127.0.0.1:5435/app --username app "${args[@]}"
