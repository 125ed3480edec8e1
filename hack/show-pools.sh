#!/usr/bin/env bash
# What the database sees, beside what the policy says: each pod's pool as its own HikariCP reports it
# (GET /pool on the pod), and PostgreSQL's count of connections per application, against the budget.
#
#   hack/show-pools.sh NAMESPACE [--wait-settled]   (demo cluster; --wait-settled: until the
#                                                    count equals Σ pods × pool, for up to 120 s)
set -euo pipefail
source "$(dirname "$0")/cluster/lib.sh"
NS=${1:?usage: hack/show-pools.sh NAMESPACE [--wait-settled]}
source "$BUILD_AREA/cluster/env"
pg() { "$ROOT/hack/postgres.sh" psql -qAt -c "$1"; }

pods() { # name ip app, for running pods of the example app
  kubectl get pods -n "$NS" -o jsonpath='{range .items[?(@.status.podIP)]}{.metadata.name} {.status.podIP} {.spec.containers[0].env[?(@.name=="APP_NAME")].value} {.metadata.deletionTimestamp}{"\n"}{end}'
}
# "max total", or "max total replica-max replica-total" for an app with a replica pool (examples/primary-replica)
pool() {
  curl -fs --max-time 2 "http://$1:8080/pool" | sed -E \
    -e 's/^\{"maximumPoolSize":([0-9]+),[^{]*"total":([0-9]+)[^{]*(\{"maximumPoolSize":([0-9]+),[^}]*"total":([0-9]+))?.*/\1 \2 \4 \5/'
}

if [ "${2:-}" = --wait-settled ]; then
  for _ in $(seq 1 120); do
    sum=0
    while read -r _ ip _ deleting; do
      [ -z "$deleting" ] || { sum=-1; break; }
      read -r max _ <<<"$(pool "$ip" || echo "0 0")"; sum=$((sum + max))
    done < <(pods)
    [ "$sum" -ge 0 ] && [ "$sum" = "$(pg "select count(*) from pg_stat_activity where usename = 'app'")" ] && exit 0
    sleep 1
  done
  die "PostgreSQL's count did not settle on what the pods' pools hold within 120 s"
fi

printf '%-34s %-12s %s\n' POD APP "HIKARICP maximumPoolSize (open connections)"
while read -r name ip app deleting; do
  read -r max total rmax rtotal <<<"$(pool "$ip" || echo "? ?")"
  printf '%-34s %-12s %s (%s)%s%s\n' "$name" "$app" "$max" "$total" "${rmax:+, replica pool $rmax ($rtotal)}" \
    "${deleting:+  terminating}"
done < <(pods)
echo
budget=$(kubectl get poolpolicies -n "$NS" -o jsonpath='{range .items[*]}{.metadata.name}={.status.budget.connections} {end}')
echo "PostgreSQL's own count (pg_stat_activity), per application; budget: $budget"
pg "select '  ' || rpad(application_name, 12) || count(*) from pg_stat_activity where usename = 'app' group by application_name order by 1"
echo "  total       $(pg "select count(*) from pg_stat_activity where usename = 'app'")"
if [ -S "$BUILD_AREA/postgres-replica/.s.PGSQL.5436" ]; then
  echo "The read replica's own count (hack/postgres.sh up --replica):"
  "$ROOT/hack/postgres.sh" psql --replica -qAt -c "select '  ' || rpad(application_name, 16) || count(*) from pg_stat_activity where usename = 'app' group by application_name order by 1"
fi
