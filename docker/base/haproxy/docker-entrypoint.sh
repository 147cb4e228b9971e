#!/bin/sh
set -e

# `docker run IMAGE -f /some.cfg` runs haproxy with those options.
if [ "${1#-}" != "$1" ]; then
  set -- haproxy "$@"
fi

# As the official image: master-worker mode (SIGUSR2 reloads the configuration) in the
# foreground, so the container lives as long as haproxy.
if [ "$1" = 'haproxy' ]; then
  shift
  set -- haproxy -W -db "$@"
fi

exec "$@"
