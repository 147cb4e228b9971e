#!/usr/bin/env bash
# The role the station's services log in as: POSTGRES_APP_USER with POSTGRES_APP_PASSWORD, no
# superuser, owner of POSTGRES_DB (so of its public schema: the migrations create their
# tables there). POSTGRES_USER stays the superuser, for the operator only.
#
# Run once by the postgres image on the first start of an empty data folder (compose mounts
# it into /docker-entrypoint-initdb.d). It can be run again at any time, e.g. on a database
# made before this script existed, whose tables the superuser owns:
#   docker compose exec postgres /docker-entrypoint-initdb.d/10-app-role.sh
# It creates the role or sets its password, and hands the database and its tables to it.
set -Eeuo pipefail

app_user="${POSTGRES_APP_USER:-radio_app}"
db="${POSTGRES_DB:-${POSTGRES_USER:-postgres}}"
if [ -z "${POSTGRES_APP_PASSWORD:-}" ]; then
  echo "app-role.sh: POSTGRES_APP_PASSWORD is not set" >&2
  exit 1
fi
if [ "$app_user" = "${POSTGRES_USER:-postgres}" ]; then
  echo "app-role.sh: POSTGRES_APP_USER must differ from POSTGRES_USER (the superuser)" >&2
  exit 1
fi

# psql's :"var" and :'var' quote the name and the password, whatever they hold.
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname "$db" --no-password \
  --no-psqlrc --quiet --set app_user="$app_user" --set app_password="$POSTGRES_APP_PASSWORD" \
  --set db="$db" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'app_user')
  WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app_user') \gexec
ALTER ROLE :"app_user" WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
ALTER DATABASE :"db" OWNER TO :"app_user";
ALTER SCHEMA public OWNER TO :"app_user";
SELECT format('ALTER TABLE public.%I OWNER TO %I', tablename, :'app_user')
  FROM pg_tables WHERE schemaname = 'public' AND tableowner <> :'app_user' \gexec
SQL
echo "app-role.sh: $app_user owns database $db"
