#!/bin/sh
# The test PgBouncer image's entry point: writes pgbouncer.ini from variables named as in the widely used
# PgBouncer images configured by environment (DB_HOST, DEFAULT_POOL_SIZE, MAX_DB_CONNECTIONS, MAX_CLIENT_CONN, ...),
# which PoolBudget's pgbouncer preset writes, then runs PgBouncer in the foreground. A variable left unset keeps
# PgBouncer's own default. Clients are not authenticated (auth_type any): for the local test cluster only.
set -eu
: "${DB_HOST:?DB_HOST is required: the PostgreSQL server PgBouncer connects to}"
ini=/tmp/pgbouncer.ini
# A value goes into PgBouncer's connection string as it is, or single-quoted when it holds a space or a sign;
# a quote or a line break in it cannot be written safely: refused before anything is written.
for name in DB_HOST DB_PORT DB_NAME DB_USER DB_PASSWORD; do
  eval "value=\${$name:-}"
  case "$value" in
    *"'"*|*'
'*) echo "entrypoint: $name holds a quote or a line break, which pgbouncer.ini cannot take here" >&2; exit 2 ;;
  esac
done
quoted() {
  case "$1" in
    *[!A-Za-z0-9_.-]*) printf "'%s'" "$1" ;;
    *) printf '%s' "$1" ;;
  esac
}
for setting in POOL_MODE DEFAULT_POOL_SIZE MIN_POOL_SIZE RESERVE_POOL_SIZE MAX_CLIENT_CONN MAX_DB_CONNECTIONS \
    MAX_USER_CONNECTIONS SERVER_IDLE_TIMEOUT SERVER_LIFETIME QUERY_WAIT_TIMEOUT LISTEN_PORT; do
  eval "value=\${$setting:-}"
  case "$value" in
    *[!A-Za-z0-9_.]*) echo "entrypoint: $setting must be a number or a word, not '$value'" >&2; exit 2 ;;
  esac
done
{
  printf '[databases]\n'
  # DB_NAME unset: every database a client names, under its own name
  printf '%s = host=%s port=%s%s user=%s%s\n' "${DB_NAME:-*}" "$(quoted "$DB_HOST")" \
    "$(quoted "${DB_PORT:-5432}")" "${DB_NAME:+ dbname=$(quoted "$DB_NAME")}" \
    "$(quoted "${DB_USER:-postgres}")" "${DB_PASSWORD:+ password=$(quoted "$DB_PASSWORD")}"
  printf '[pgbouncer]\nlisten_addr = *\nlisten_port = %s\nauth_type = any\nunix_socket_dir =\n' "${LISTEN_PORT:-6432}"
  printf 'ignore_startup_parameters = %s\n' "${IGNORE_STARTUP_PARAMETERS:-extra_float_digits}"
  for setting in POOL_MODE DEFAULT_POOL_SIZE MIN_POOL_SIZE RESERVE_POOL_SIZE MAX_CLIENT_CONN MAX_DB_CONNECTIONS \
      MAX_USER_CONNECTIONS SERVER_IDLE_TIMEOUT SERVER_LIFETIME QUERY_WAIT_TIMEOUT; do
    eval "value=\${$setting:-}"
    [ -z "$value" ] || printf '%s = %s\n' "$(printf '%s' "$setting" | tr 'A-Z' 'a-z')" "$value"
  done
} > "$ini"
exec /usr/sbin/pgbouncer "$ini"
