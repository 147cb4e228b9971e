#!/bin/sh
set -e

# Like the official image: `docker run IMAGE -e 'code'` or `docker run IMAGE app.js` runs node.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi

exec "$@"
