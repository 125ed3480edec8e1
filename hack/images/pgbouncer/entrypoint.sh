#!/bin/sh
# The test PgBouncer image's entry point: writes pgbouncer.ini from variables named as in the widely used
# PgBouncer images configured by environment (DB_HOST, DEFAULT_POOL_SIZE, MAX_DB_CONNECTIONS, MAX_CLIENT_CONN, ...),
# which PoolBudget's pgbouncer preset writes, then runs PgBouncer in the foreground. A variable left unset keeps
# PgBouncer's own default. Clients are not authenticated (auth_type any): for the local test cluster only.
set -eu
: "${DB_HOST:?DB_HOST is required: the PostgreSQL server PgBouncer connects to}"
ini=/tmp/pgbouncer.ini
{
  printf '[databases]\n'
  # DB_NAME unset: every database a client names, under its own name
  printf '%s = host=%s port=%s%s user=%s%s\n' "${DB_NAME:-*}" "$DB_HOST" "${DB_PORT:-5432}" \
    "${DB_NAME:+ dbname=$DB_NAME}" "${DB_USER:-postgres}" "${DB_PASSWORD:+ password=$DB_PASSWORD}"
  printf '[pgbouncer]\nlisten_addr = *\nlisten_port = %s\nauth_type = any\nunix_socket_dir =\n' "${LISTEN_PORT:-6432}"
  printf 'ignore_startup_parameters = %s\n' "${IGNORE_STARTUP_PARAMETERS:-extra_float_digits}"
  for setting in POOL_MODE DEFAULT_POOL_SIZE MIN_POOL_SIZE RESERVE_POOL_SIZE MAX_CLIENT_CONN MAX_DB_CONNECTIONS \
      MAX_USER_CONNECTIONS SERVER_IDLE_TIMEOUT SERVER_LIFETIME QUERY_WAIT_TIMEOUT; do
    eval "value=\${$setting:-}"
    [ -z "$value" ] || printf '%s = %s\n' "$(printf '%s' "$setting" | tr 'A-Z' 'a-z')" "$value"
  done
} > "$ini"
exec /usr/sbin/pgbouncer "$ini"
