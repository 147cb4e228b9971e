#!/bin/sh
set -e

# `docker run IMAGE --appendonly yes` or `docker run IMAGE /etc/redis.conf` runs redis-server.
if [ "${1#-}" != "$1" ] || [ "${1%.conf}" != "$1" ]; then
  set -- redis-server "$@"
fi

# Started as root (the default): own the data folder, then drop to the redis user.
if [ "$1" = 'redis-server' ] && [ "$(id -u)" = '0' ]; then
  find . \! -user redis -exec chown redis:redis '{}' +
  exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
fi

# Without a config file Redis starts in protected mode and refuses every client that is not on
# loopback, i.e. every other container: like the official image, turn it off unless asked.
if [ "$1" = 'redis-server' ]; then
  protected=yes
  if [ -f "${2:-}" ] && grep -q '^protected-mode' "$2"; then
    protected=
  fi
  for arg; do
    case "$arg" in
      --protected-mode) protected= ;;
    esac
  done
  if [ -n "$protected" ]; then
    set -- "$@" --protected-mode no
  fi
fi

umask 0077
exec "$@"
