#!/usr/bin/env bash
# The official postgres image's first-start contract, on Debian's PostgreSQL: an empty PGDATA
# is initialised with POSTGRES_USER (superuser, default postgres) and POSTGRES_PASSWORD,
# POSTGRES_DB is created, /docker-entrypoint-initdb.d/*.sh|*.sql run once; then postgres
# runs as the postgres user, listening on every interface with password logins over TCP.
set -Eeuo pipefail

# VAR or VAR_FILE (Docker secrets), not both.
file_env() {
  local var="$1" file_var="${1}_FILE" default="${2:-}"
  if [ -n "${!var:-}" ] && [ -n "${!file_var:-}" ]; then
    echo "error: both $var and $file_var are set (they are exclusive)" >&2
    exit 1
  fi
  local value="$default"
  if [ -n "${!var:-}" ]; then
    value="${!var}"
  elif [ -n "${!file_var:-}" ]; then
    value="$(<"${!file_var}")"
  fi
  export "$var"="$value"
  unset "$file_var"
}

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

if [ "$1" != 'postgres' ]; then
  exec "$@"
fi

if [ "$(id -u)" = '0' ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chmod 00700 "$PGDATA" || :
  chmod 03775 /var/run/postgresql || :
  find "$PGDATA" /var/run/postgresql \! -user postgres -exec chown postgres:postgres '{}' +
  exec setpriv --reuid=postgres --regid=postgres --init-groups "${BASH_SOURCE[0]}" "$@"
fi

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  file_env POSTGRES_PASSWORD
  file_env POSTGRES_USER postgres
  file_env POSTGRES_DB "$POSTGRES_USER"
  file_env POSTGRES_INITDB_ARGS
  auth_method="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"

  if [ -z "$POSTGRES_PASSWORD" ] && [ "$auth_method" != 'trust' ]; then
    cat >&2 <<'MSG'
error: the database is uninitialized and POSTGRES_PASSWORD is not set.
       Set POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) to the superuser's password, or
       POSTGRES_HOST_AUTH_METHOD=trust to allow every connection without one (not advised).
MSG
    exit 1
  fi

  echo "initialising $PGDATA (superuser $POSTGRES_USER, database $POSTGRES_DB)"
  pwfile_args=()
  pwfile=
  if [ -n "$POSTGRES_PASSWORD" ]; then
    pwfile="$(umask 077 && mktemp)"
    printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
    pwfile_args=(--pwfile="$pwfile")
  fi
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of options, split on purpose.
  initdb --username="$POSTGRES_USER" "${pwfile_args[@]}" $POSTGRES_INITDB_ARGS
  if [ -n "$pwfile" ]; then rm -f "$pwfile"; fi

  # Local socket: trust (initdb's default); TCP from anywhere: password.
  printf '\nhost all all all %s\n' "$auth_method" >>"$PGDATA/pg_hba.conf"

  # A socket-only server for the setup, so nothing can connect over TCP (and health checks on
  # 127.0.0.1 fail) until the database is ready.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  psql_setup=(psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc)
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    "${psql_setup[@]}" --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh)
        echo "running $f"
        # shellcheck source=/dev/null # init scripts are the operator's
        if [ -x "$f" ]; then "$f"; else . "$f"; fi
        ;;
      *.sql)
        echo "running $f"
        "${psql_setup[@]}" --dbname "$POSTGRES_DB" -f "$f"
        ;;
      *.sql.gz)
        echo "running $f"
        gunzip -c "$f" | "${psql_setup[@]}" --dbname "$POSTGRES_DB"
        ;;
      *)
        if [ -e "$f" ]; then echo "ignoring $f"; fi
        ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop
  unset PGPASSWORD
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
