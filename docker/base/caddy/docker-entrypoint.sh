#!/bin/sh
set -e

# `docker run IMAGE --config /x --adapter caddyfile` runs `caddy run` with those options.
if [ "${1#-}" != "$1" ]; then
  set -- caddy run "$@"
fi

# Started as root (the default): own the volumes (one the official image wrote is root's),
# then drop to the caddy user.
if [ "$1" = 'caddy' ] && [ "$(id -u)" = '0' ]; then
  find /data /config \! -user caddy -exec chown caddy:caddy '{}' +
  exec setpriv --reuid=caddy --regid=caddy --init-groups "$0" "$@"
fi

exec "$@"
