#!/bin/sh
set -e

# `docker run IMAGE --config.file=...` runs prometheus with those options, as the official
# image does; any other command (promtool, sh) runs as it is.
if [ "${1#-}" != "$1" ]; then
  set -- prometheus "$@"
fi

exec "$@"
